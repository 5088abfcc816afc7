// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// Data memory of the simulated address space. The fast path (one subtract and compare for L2)
// is inlined into every load and store; anything else goes to the slow path, which today
// knows L1 and reports unmapped addresses (peripherals will be decoded there).
import {
  CAUSE_LOAD_FAULT, CAUSE_STORE_FAULT, L1_BASE, L1_SIZE, L2_BASE, L2_SIZE, MEM_L1, MEM_L2, SCRATCH,
} from './layout';

/** Set by a failed access (trap cause); the executor checks it after memory instructions. */
export let fault: i32 = 0;
export let faultAddr: u32 = 0;

export function clearFault(): void { fault = 0; }
export function setFaultCause(cause: i32): void { fault = cause; faultAddr = 0; }

/** The wasm address of `size` bytes at simulated address a, or 0 when unmapped. */
export function xlateSlow(a: u32, size: u32): usize {
  const o2 = a - L2_BASE;
  if (o2 <= L2_SIZE - size) return MEM_L2 + <usize>o2;
  const o1 = a - L1_BASE;
  if (o1 <= L1_SIZE - size) return MEM_L1 + <usize>o1;
  return 0;
}

// A faulting access reads from / writes to a harmless scratch word instead.
const FAULT_SINK: usize = SCRATCH + 0x800;
function loadFault(a: u32): usize { fault = CAUSE_LOAD_FAULT; faultAddr = a; return FAULT_SINK; }
function storeFault(a: u32): usize { fault = CAUSE_STORE_FAULT; faultAddr = a; return FAULT_SINK; }

// @inline: the L2 check in the caller, the rest out of line.
@inline function rd(a: u32, size: u32): usize {
  const o = a - L2_BASE;
  if (o <= L2_SIZE - size) return MEM_L2 + <usize>o;
  const p = xlateSlow(a, size);
  return p != 0 ? p : loadFault(a);
}
@inline function wr(a: u32, size: u32): usize {
  const o = a - L2_BASE;
  if (o <= L2_SIZE - size) return MEM_L2 + <usize>o;
  const p = xlateSlow(a, size);
  return p != 0 ? p : storeFault(a);
}

@inline export function LB(a: u32): i32 { return <i32>load<i8>(rd(a, 1)); }
@inline export function LBU(a: u32): i32 { return <i32>load<u8>(rd(a, 1)); }
@inline export function LH(a: u32): i32 { return <i32>load<i16>(rd(a, 2)); }
@inline export function LHU(a: u32): i32 { return <i32>load<u16>(rd(a, 2)); }
@inline export function LW(a: u32): i32 { return load<i32>(rd(a, 4)); }
@inline export function SB(a: u32, v: i32): void { store<i8>(wr(a, 1), v); }
@inline export function SH(a: u32, v: i32): void { store<i16>(wr(a, 2), v); }
@inline export function SW(a: u32, v: i32): void { store<i32>(wr(a, 4), v); }

/** Extra cycles of a misaligned access: a word not on a word, a halfword crossing a word. */
@inline export function mis1(a: u32): i32 { return 0; }
@inline export function mis2(a: u32): i32 { return <i32>((a & 3) == 3); }
@inline export function mis4(a: u32): i32 { return <i32>((a & 3) != 0); }

/** A halfword of code at simulated address a (0 if unmapped, which is an illegal c.unimp). */
export function fetch16(a: u32): u32 {
  const p = xlateSlow(a, 2);
  return p != 0 ? <u32>load<u16>(p) : 0;
}

/** One more cycle for a jump or taken branch to a 32-bit instruction at a non-word address. */
@inline export function tgt(pc: u32): i32 {
  if ((pc & 2) == 0) return 0;
  return <i32>((fetch16(pc) & 3) == 3);
}
