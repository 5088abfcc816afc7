// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The profile: recorded only when the host switched it on, by the profiled copy of the run loop
// (gen/exec.ts runProf) and by hooks in the event unit, the DMAs and N-EUREKA. It never changes
// what the cores do or when: the profiled loop is the plain one plus bookkeeping.
//
// Three things, all in wasm memory the host reads (src/sim/profile/log.ts):
// - the event log: PROF_ENTRIES records of 64 bytes, appended, drained by the host after every
//   cluster run call (a full log drops the rest and counts them);
// - the heat: per halfword of [profLo, profLo + profSpan), cycles spent at that pc (u32) and
//   how many of them were stalls (u32);
// - the region table: per halfword of the same window, a u16 region the host chose (0: none).
//   When the controller starts an instruction whose region differs from the last one it
//   entered, an EV_REGION record notes the change: the host makes regions the network's layer
//   phases from the line table, so the log holds the controller's phase changes only.
import {
  IDLE, INSTRET, PROF_ENTRIES, PROF_HEAT, PROF_LOG, PROF_REGION, PROF_SPAN_MAX, STALL_BANK, STALL_BRANCH,
  STALL_ICACHE, STALL_L2, STALL_LOADUSE, STALL_PERIPH, TCDM_ACC,
} from './layout';
import { coreState } from './core';

// Record kinds. Layout: t0 u64, t1 u64, kind u8, core u8, reason u16, a u32, then the core's
// counters (u32, low bits): instret, bank, l2, periph, idle, loaduse, branch, cycles, tcdm.
export const EV_REGION: u8 = 1; // t0: cycle, a: region (the controller)
export const EV_JOB_START: u8 = 2; // a worker starts its fork job at t0 (with its counters)
export const EV_JOB_END: u8 = 3; // ... and ends it at t0 (with its counters)
export const EV_IDLE: u8 = 4; // a core waited [t0, t1); reason: WAIT_* of eu.ts, or IDLE_DMA / IDLE_UDMA
export const EV_DMA: u8 = 5; // a cluster DMA transfer: [t0, t1) on the engine, a: bytes
export const EV_UDMA: u8 = 6; // a uDMA transfer to / from L3: [t0, t1), a: bytes
export const EV_NPU: u8 = 7; // an N-EUREKA task: [t0, t1)

export const IDLE_DMA: u16 = 16;
export const IDLE_UDMA: u16 = 17;
export const IDLE_NPU: u16 = 18;

export let profOn: bool = false;
/** Instructions the running core has retired in its current run() call (the profiled loop keeps it). */
export let profN: i32 = 0;
export let profLo: u32 = 0;
export let profSpan: u32 = 0;
export let profCount: u32 = 0;
export let profDropped: u32 = 0;
/** The controller's current region. */
export let profRegion: u32 = 0;
/** The controller's hart: only its instructions change regions. */
export const PROF_CONTROLLER: i32 = 8;

/** Switches recording on (a window of code [lo, lo + span) for the heat and regions) or off; clears everything. */
export function setProfile(on: bool, lo: u32, span: u32): void {
  profOn = on;
  profLo = lo;
  profSpan = span > PROF_SPAN_MAX ? PROF_SPAN_MAX : span & ~1;
  profCount = 0;
  profDropped = 0;
  profRegion = 0;
  profN = 0;
  memory.fill(PROF_HEAT, 0, <usize>PROF_SPAN_MAX << 2);
}

/** The host read the log: start it over. */
export function profDrained(): void { profCount = 0; }

@inline export function setProfN(n: i32): void { profN = n; }

/** The next free record, or 0 when the log is full (counted as dropped). */
function slot(): usize {
  if (profCount >= PROF_ENTRIES) { profDropped++; return 0; }
  return PROF_LOG + (<usize>(profCount++) << 6);
}

function head(p: usize, kind: u8, core: i32, reason: u16, t0: u64, t1: u64, a: u32): void {
  store<u64>(p, t0);
  store<u64>(p, t1, 8);
  store<u8>(p, kind, 16);
  store<u8>(p, <u8>core, 17);
  store<u16>(p, reason, 18);
  store<u32>(p, a, 20);
}

/** The running core's counters now (`now`: its full cycle); instret counts the instructions retired in this run() call. */
function counters(p: usize, core: i32, now: u64): void {
  const S = coreState(core);
  store<u32>(p, <u32>(load<u64>(S + INSTRET) + <u64>profN), 24);
  store<u32>(p, <u32>load<u64>(S + STALL_BANK), 28);
  store<u32>(p, <u32>load<u64>(S + STALL_L2), 32);
  store<u32>(p, <u32>load<u64>(S + STALL_PERIPH), 36);
  store<u32>(p, <u32>load<u64>(S + IDLE), 40);
  store<u32>(p, <u32>load<u64>(S + STALL_LOADUSE), 44);
  store<u32>(p, <u32>load<u64>(S + STALL_BRANCH), 48);
  store<u32>(p, <u32>now, 52);
  store<u32>(p, <u32>load<u64>(S + TCDM_ACC), 56);
  store<u32>(p, <u32>load<u64>(S + STALL_ICACHE), 60);
}

/** The controller entered `region` at `cycle`. */
export function profRegionAt(region: u32, cycle: u64): void {
  profRegion = region;
  const p = slot();
  if (p != 0) head(p, EV_REGION, PROF_CONTROLLER, 0, cycle, cycle, region);
}

/** A worker starts (end = false) or ends its fork job at `now`. */
export function profJob(core: i32, now: u64, end: bool): void {
  if (!profOn) return;
  const p = slot();
  if (p == 0) return;
  head(p, end ? EV_JOB_END : EV_JOB_START, core, 0, now, now, 0);
  counters(p, core, now);
}

/** `core` waited from `from` to `to` for `reason`. */
export function profIdle(core: i32, from: u64, to: u64, reason: u16): void {
  if (!profOn || to <= from) return;
  const p = slot();
  if (p != 0) head(p, EV_IDLE, core, reason, from, to, 0);
}

/** A transfer or task of an engine (EV_DMA, EV_UDMA, EV_NPU) from `from` to `to`, moving `bytes`, issued by `core`. */
export function profEngine(kind: u8, core: i32, from: u64, to: u64, bytes: u32): void {
  if (!profOn) return;
  const p = slot();
  if (p != 0) head(p, kind, core, 0, from, to, bytes);
}
