// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The trace: a bounded ring of 16-byte records in wasm memory, read by the host
// (src/sim/trace.ts). Record: cycle (u32, low bits), core (u8), kind (u8), 2 spare bytes,
// a (u32), b (u32). Nothing is recorded unless the host switched tracing on.
import { TRACE, TRACE_ENTRIES } from './layout';
import { curCore, fullNow } from './mem';

export const TR_PC: u8 = 1; // a = pc (one per instruction, only with PC tracing)
export const TR_SLEEP: u8 = 2; // a = pc, b = what the core waits for
export const TR_WAKE: u8 = 3; // b = cycles asleep
export const TR_BANK: u8 = 4; // a = address, b = stall cycles
export const TR_DMA_START: u8 = 6; // a = id, b = bytes (record cycle: issue)
export const TR_DMA_END: u8 = 7; // a = id, b = bytes (record cycle: completion)
export const TR_DMA_WAIT: u8 = 8; // a = id, b = cycles waited
export const TR_FORK: u8 = 9; // a = core mask, b = function
export const TR_BARRIER: u8 = 10; // a = team mask
export const TR_L3: u8 = 11; // a = L3 address, b = bytes

/** Bit 0: events (sleep, wake, stalls, DMA, fork); bit 1: every instruction's pc. */
export let traceMode: i32 = 0;
export let traceCount: u32 = 0;

export function setTrace(mode: i32): void { traceMode = mode; traceCount = 0; }

export function traceAt(kind: u8, core: i32, cycle: u64, a: u32, b: u32): void {
  const p = TRACE + (<usize>(traceCount & (TRACE_ENTRIES - 1)) << 4);
  store<u32>(p, <u32>cycle);
  store<u8>(p, <u8>core, 4);
  store<u8>(p, kind, 5);
  store<u16>(p, <u16>(cycle >> 32), 6);
  store<u32>(p, a, 8);
  store<u32>(p, b, 12);
  traceCount++;
}

/** An event of the running core at its cycle `now` (low 32 bits). */
export function traceEvent(kind: u8, now: u32, a: u32, b: u32): void {
  if ((traceMode & 1) == 0) return;
  traceAt(kind, curCore, fullNow(now), a, b);
}
