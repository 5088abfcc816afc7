// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// Data memory of the simulated address space. The fast path (one subtract, or and compare for
// L2) is inlined into every load and store; everything else goes out of line: L1 with the TCDM
// bank model, L2 seen from the cluster (latency), the peripherals (periph.ts) and faults.
//
// Anything the executor must know after an access goes through one flag, `fault`: a trap cause
// (< 64) or a memory event (MEV_*), which the generated CHECK hands to memEvent (periph.ts).
import {
  BANK_STAMPS, CAUSE_LOAD_FAULT, CYCLES, CAUSE_STORE_FAULT, L1_BASE, L1_SIZE, L2_BASE, L2_SIZE, MEM_L1, MEM_L2,
  MEV_STALL, PERIPH_BASE, PERIPH_SIZE, SCRATCH, STALL_BANK, STALL_L2, TCDM_ACC, STAMP_SLOTS, UDMA_BASE, UDMA_SIZE,
} from './layout';
import { guardAllows, guardBroken, guardDeny, guardLoad, guardOn } from './guard';
import { ioRead, ioWriteAt } from './periph';
import { traceEvent, TR_BANK } from './trace';

/** Set by a failed access (trap cause) or a memory event; the executor checks it after memory instructions. */
export let fault: i32 = 0;
export let faultAddr: u32 = 0;
/** Extra cycles of the current instruction's access (with fault = MEV_STALL). */
export let memStall: i32 = 0;
/** The running core's state record and index (set by run()). */
export let curS: usize = 0;
export let curCore: i32 = 0;

/**
 * 0 for a bare core (L2 is plain 1-cycle memory), 0x80000000 in the cluster: or-ed into the
 * L2 offset of the inlined fast path, it sends every L2 access to the slow path (latency).
 */
export let l2Gate: u32 = 0;
/** Bank reservations are made only while more than one core runs (nobody to conflict with). */
export let stampBanks: bool = false;

// Cycles a cluster core waits for L2 beyond the access's own cycle: the request crosses the
// cluster interconnect (2 cycles) and the SoC's AXI interconnect (12), as in GVSoC's Siracusa
// (gvsoc-pulp pulp/chips/siracusa/cluster.py: cluster_ico latency 2; soc.py: axi_ico latency 12),
// so a load takes 15 cycles in all. A store blocks the core for the same round trip there.
export const L2_LOAD_EXTRA: i32 = 14;
export const L2_STORE_EXTRA: i32 = 14;

/** The running core's full cycle count from the low bits `now` the run loop passes around. */
export function fullNow(now: u32): u64 {
  const c = load<u64>(curS + CYCLES);
  return c + <u64>(now - <u32>c);
}

export function clearFault(): void { fault = 0; memStall = 0; }
export function setFaultCause(cause: i32): void { fault = cause; faultAddr = 0; }
/** An access fault at `a` raised by a peripheral (bad register, bad command). */
export function setFaultAt(a: u32, isStore: bool): void { fault = isStore ? CAUSE_STORE_FAULT : CAUSE_LOAD_FAULT; faultAddr = a; }
export function rawSetFault(v: i32): void { fault = v; }
/** The running core broke its write guard (guard.ts GW_*) with an access at a. */
export function setGuardFault(a: u32, why: u32): void { fault = guardDeny(curS, why, 4); faultAddr = a; }
/** The current instruction's extra cycles, reset. */
export function takeStall(): i32 { const s = memStall; memStall = 0; return s; }
/** A memory event (MEV_*) for the executor; a trap already raised wins. */
export function setEvent(ev: i32): void { if (fault == 0 || fault == MEV_STALL) fault = ev; }
export function setCurrent(S: usize, core: i32): void { curS = S; curCore = core; guardLoad(S); }
export function setClusterMode(on: bool): void { l2Gate = on ? 0x80000000 : 0; stampBanks = false; }
export function setStampBanks(on: bool): void { stampBanks = on; }

/** Adds `cycles` of stall to the current instruction and to the core's counter at `counter`. */
export function addStall(cycles: i32, counter: usize): void {
  if (cycles <= 0) return;
  memStall += cycles;
  if (fault == 0) fault = MEV_STALL;
  store<u64>(curS + counter, load<u64>(curS + counter) + <u64>cycles);
}

/** Empties the bank reservations (no access stamped at any cycle). */
export function clearStamps(): void { memory.fill(BANK_STAMPS, 0xff, <usize>STAMP_SLOTS * 16 * 4); }

/**
 * TCDM arbitration: the access wants its bank at cycle `now`; cores run one after another over
 * a quantum, so a core running later finds the earlier cores' stamps and waits for the first
 * free cycle of that bank (the order of cores rotates every quantum).
 */
@inline function bankAccess(o: u32, now: u32): void {
  const bank = (o >> 2) & 15;
  let t = now;
  for (;;) {
    const p = BANK_STAMPS + ((<usize>((t & (STAMP_SLOTS - 1)) << 4) | <usize>bank) << 2);
    if (load<u32>(p) != t) { store<u32>(p, t); break; }
    t++;
  }
  if (t != now) {
    addStall(<i32>(t - now), STALL_BANK);
    traceEvent(TR_BANK, now, L1_BASE + o, t - now);
  }
}

// A faulting access reads from / writes to a harmless scratch word instead.
const FAULT_SINK: usize = SCRATCH + 0x800;
function loadFault(a: u32): usize { fault = CAUSE_LOAD_FAULT; faultAddr = a; return FAULT_SINK; }
function storeFault(a: u32): usize { fault = CAUSE_STORE_FAULT; faultAddr = a; return FAULT_SINK; }

/** One more TCDM access by the running core (counted for the energy estimate; no cycles). */
@inline function tcdmAccess(): void { store<u64>(curS + TCDM_ACC, load<u64>(curS + TCDM_ACC) + 1); }

@inline function inPeriph(a: u32): bool { return a - PERIPH_BASE < PERIPH_SIZE || a - UDMA_BASE < UDMA_SIZE; }

function loadSlow(a: u32, size: u32, now: u32): usize {
  const o1 = a - L1_BASE;
  if (o1 <= L1_SIZE - size) { tcdmAccess(); if (stampBanks) bankAccess(o1, now); return MEM_L1 + <usize>o1; }
  const o2 = a - L2_BASE;
  if (o2 <= L2_SIZE - size) { addStall(L2_LOAD_EXTRA, STALL_L2); return MEM_L2 + <usize>o2; }
  if (inPeriph(a)) return ioRead(a, now);
  return loadFault(a);
}

function storeSlow(a: u32, size: u32, now: u32): usize {
  // A guarded core (guard.ts) writes nothing outside its windows and stack.
  if (guardOn && !guardAllows(curS, a, size)) { fault = guardBroken(curS, size); faultAddr = a; return FAULT_SINK; }
  const o1 = a - L1_BASE;
  if (o1 <= L1_SIZE - size) { tcdmAccess(); if (stampBanks) bankAccess(o1, now); return MEM_L1 + <usize>o1; }
  const o2 = a - L2_BASE;
  if (o2 <= L2_SIZE - size) { addStall(L2_STORE_EXTRA, STALL_L2); return MEM_L2 + <usize>o2; }
  if (inPeriph(a)) return ioWriteAt(a);
  return storeFault(a);
}

/** The wasm address of `size` bytes of L2 or L1 at simulated address a (code), or 0. */
export function xlateCode(a: u32, size: u32): usize {
  const o2 = a - L2_BASE;
  if (o2 <= L2_SIZE - size) return MEM_L2 + <usize>o2;
  const o1 = a - L1_BASE;
  if (o1 <= L1_SIZE - size) return MEM_L1 + <usize>o1;
  return 0;
}

// @inline: the L2 check in the caller, the rest out of line. `gate` is l2Gate, held in a local
// of the run loop; `now` is the core's cycle (bank stamps, peripherals).
@inline function rd(a: u32, size: u32, gate: u32, now: u32): usize {
  const o = a - L2_BASE;
  if ((o | gate) <= L2_SIZE - size) return MEM_L2 + <usize>o;
  return loadSlow(a, size, now);
}
@inline function wr(a: u32, size: u32, gate: u32, now: u32): usize {
  const o = a - L2_BASE;
  if ((o | gate) <= L2_SIZE - size) return MEM_L2 + <usize>o;
  return storeSlow(a, size, now);
}

@inline export function LB(g: u32, t: u32, a: u32): i32 { return <i32>load<i8>(rd(a, 1, g, t)); }
@inline export function LBU(g: u32, t: u32, a: u32): i32 { return <i32>load<u8>(rd(a, 1, g, t)); }
@inline export function LH(g: u32, t: u32, a: u32): i32 { return <i32>load<i16>(rd(a, 2, g, t)); }
@inline export function LHU(g: u32, t: u32, a: u32): i32 { return <i32>load<u16>(rd(a, 2, g, t)); }
@inline export function LW(g: u32, t: u32, a: u32): i32 { return load<i32>(rd(a, 4, g, t)); }
@inline export function SB(g: u32, t: u32, a: u32, v: i32): void { store<i8>(wr(a, 1, g, t), v); }
@inline export function SH(g: u32, t: u32, a: u32, v: i32): void { store<i16>(wr(a, 2, g, t), v); }
@inline export function SW(g: u32, t: u32, a: u32, v: i32): void { store<i32>(wr(a, 4, g, t), v); }

/** Extra cycles of a misaligned access: a word not on a word, a halfword crossing a word. */
@inline export function mis1(a: u32): i32 { return 0; }
@inline export function mis2(a: u32): i32 { return <i32>((a & 3) == 3); }
@inline export function mis4(a: u32): i32 { return <i32>((a & 3) != 0); }

/** A halfword of code at simulated address a (0 if unmapped, which is an illegal c.unimp). */
export function fetch16(a: u32): u32 {
  const p = xlateCode(a, 2);
  return p != 0 ? <u32>load<u16>(p) : 0;
}

/** One more cycle for a jump or taken branch to a 32-bit instruction at a non-word address. */
@inline export function tgt(pc: u32): i32 {
  if ((pc & 2) == 0) return 0;
  return <i32>((fetch16(pc) & 3) == 3);
}
