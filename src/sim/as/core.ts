// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// Per-core state and the out-of-line parts of execution: leaving the run loop, traps, CSRs,
// hardware loops, the instruction cache, and the helpers the generated executor calls.
import {
  CAUSE_ILLEGAL, CORES, CORE_SIZE, CSR_FILE, CYCLES, HARTID, HWLOOP, HW_COUNT, HW_END,
  HW_START, IC_L1, IC_L2, INSTRET, L1_BASE, L1_SIZE, L2_SIZE, LOAD_RD, MEM_END, PC, PREV_W,
  REGS, STOP_CAUSE, STOP_TRAP, TRAP_INSN, TRAP_PC, TRAP_TVAL, MAX_CORES,
} from './layout';
import { fault, fetch16, setFaultCause } from './mem';

@inline export function coreState(core: i32): usize { return CORES + <usize>core * CORE_SIZE; }

/** Puts a core at `pc` with all registers, counters and loops cleared. */
export function resetCore(core: i32, pc: u32, hartid: i32): void {
  if (core < 0 || core >= MAX_CORES) return;
  const S = coreState(core);
  memory.fill(S, 0, CORE_SIZE);
  store<u32>(S + PC, pc);
  store<i32>(S + HARTID, hartid);
  store<u32>(S + HWLOOP + 4, 1); // loop ends: odd = inactive
  store<u32>(S + HWLOOP + 16, 1);
}

// The span of cache entries filled since the last flush, so a flush clears only that.
let icLo: usize = MEM_END;
let icHi: usize = IC_L2;

/** Records a filled cache entry (called by the decoder's slow path). */
export function icacheFilled(e: usize): void {
  if (e < icLo) icLo = e;
  if (e + 8 > icHi) icHi = e + 8;
}

/** Empties the predecoded instruction caches (after the host writes code, and on fence.i). */
export function flushICache(): void {
  if (icHi > icLo) memory.fill(icLo, 0, icHi - icLo);
  icLo = MEM_END;
  icHi = IC_L2;
}

/** Empties the cache entries [e, e + len) (memory written by a DMA), if any were filled. */
export function icacheInvalidate(e: usize, len: usize): void {
  const lo = e > icLo ? e : icLo;
  const end = e + len;
  const hi = end < icHi ? end : icHi;
  if (hi > lo) memory.fill(lo, 0, hi - lo);
}

/** The cache entry for a pc outside L2 (L1 code), or 0 if the pc cannot be fetched. */
export function icacheSlow(pc: u32): usize {
  const o = pc - L1_BASE;
  if (o < L1_SIZE && (pc & 1) == 0) return IC_L1 + (<usize>o << 2);
  return 0;
}

/** Writes the run loop's locals back to the core record and returns why it stopped. */
export function leave(S: usize, pc: u32, n: i32, stall: i32, ld: i32, pw: u32, why: i32): i32 {
  store<u32>(S + PC, pc);
  store<u64>(S + CYCLES, load<u64>(S + CYCLES) + <u64>n + <u64>stall);
  store<u64>(S + INSTRET, load<u64>(S + INSTRET) + <u64>n);
  store<i32>(S + LOAD_RD, ld);
  store<u32>(S + PREV_W, pw);
  return why;
}

/** The instruction word at pc (both halves of a 32-bit one). */
export function insnAt(pc: u32): u32 {
  const lo = fetch16(pc);
  return (lo & 3) == 3 ? lo | (fetch16(pc + 2) << 16) : lo;
}

/** Stops on a trap at pc (the instruction did not execute). */
export function trapOut(S: usize, pc: u32, n: i32, stall: i32, ld: i32, pw: u32, cause: i32, tval: u32): i32 {
  const insn = insnAt(pc);
  store<i32>(S + STOP_CAUSE, cause);
  store<u32>(S + TRAP_PC, pc);
  store<u32>(S + TRAP_INSN, insn);
  store<u32>(S + TRAP_TVAL, cause == CAUSE_ILLEGAL ? insn : tval);
  return leave(S, pc, n, stall, ld, pw, STOP_TRAP);
}

// ------------------------------------------------------------------ hardware loops
@inline export function hwSet(S: usize, L: i32, which: i32, v: u32): void {
  store<u32>(S + HWLOOP + (<usize>(L * 3 + which) << 2), v);
}

/** The end address the run loop watches for loop L: its end while its count is non-zero. */
export function hwEnd(S: usize, L: i32): u32 {
  const b = S + HWLOOP + <usize>L * 12;
  return load<u32>(b + (HW_COUNT << 2)) != 0 ? load<u32>(b + (HW_END << 2)) : 1;
}

/** At a loop end: count down loop 0 (inner) or 1, and go back to the start while non-zero. */
export function hwLoopBack(S: usize, pc: u32): u32 {
  for (let L = 0; L < 2; L++) {
    const b = S + HWLOOP + <usize>L * 12;
    const count = load<u32>(b + (HW_COUNT << 2));
    if (count != 0 && load<u32>(b + (HW_END << 2)) == pc) {
      store<u32>(b + (HW_COUNT << 2), count - 1);
      return count > 1 ? load<u32>(b + (HW_START << 2)) : pc;
    }
  }
  return pc;
}

// ------------------------------------------------------------------ CSRs
export const CSR_WRITE: i32 = 0;
export const CSR_SET: i32 = 1;
export const CSR_CLEAR: i32 = 2;
/** Cycles beyond one that the last CSR access took (4 in all for counters and trap CSRs). */
export let csrExtra: i32 = 0;

/** misa: RV32 (MXL 1), I, M, C, X (non-standard extensions). */
const MISA: i32 = (1 << 30) | (1 << 8) | (1 << 12) | (1 << 2) | (1 << 23);

function csrSlot(csr: i32): i32 {
  switch (csr) {
    case 0x300: return 0; // mstatus
    case 0x305: return 1; // mtvec
    case 0x341: return 2; // mepc
    case 0x342: return 3; // mcause
    case 0x340: return 4; // mscratch
    case 0x343: return 5; // mtval
    case 0x304: return 6; // mie
    case 0x344: return 7; // mip
    default: return -1;
  }
}

/**
 * Reads a CSR and, when `writes`, applies op (write / set / clear) with v. Unknown CSRs and
 * writes to read-only ones raise an illegal-instruction trap through `fault`. Writes to the
 * counters are accepted and ignored (the counters belong to the run loop).
 */
export function csrAccess(S: usize, csr: i32, v: i32, op: i32, writes: bool, cycles: u64, instret: u64): i32 {
  csrExtra = 0;
  const slot = csrSlot(csr);
  let old: i32 = 0;
  let readOnly = (csr >> 10) == 3; // 0xC00-0xFFF
  if (slot >= 0) {
    old = load<i32>(S + CSR_FILE + (<usize>slot << 2));
    if (slot <= 3) csrExtra = 3;
  } else {
    switch (csr) {
      case 0xf14: case 0xcd0: old = load<i32>(S + HARTID); break; // mhartid, uhartid
      case 0xf11: case 0xf12: case 0xf13: old = 0; break; // vendor, arch, impl ids
      case 0x301: old = MISA; break;
      case 0xcd1: old = 3; break; // privlv: machine mode
      case 0xb00: case 0xc00: old = <i32>cycles; csrExtra = 3; break;
      case 0xb80: case 0xc80: old = <i32>(cycles >> 32); csrExtra = 3; break;
      case 0xb02: case 0xc02: old = <i32>instret; csrExtra = 3; break;
      case 0xb82: case 0xc82: old = <i32>(instret >> 32); csrExtra = 3; break;
      case 0xcc0: case 0xcc1: case 0xcc2: old = load<i32>(S + HWLOOP + (<usize>(csr - 0xcc0) << 2)); break;
      case 0xcc4: case 0xcc5: case 0xcc6: old = load<i32>(S + HWLOOP + (<usize>(csr - 0xcc1) << 2)); break;
      default:
        setFault(CAUSE_ILLEGAL);
        return 0;
    }
  }
  if (writes) {
    if (readOnly) { setFault(CAUSE_ILLEGAL); return 0; }
    if (slot >= 0) {
      const nv = op == CSR_WRITE ? v : op == CSR_SET ? old | v : old & ~v;
      store<i32>(S + CSR_FILE + (<usize>slot << 2), nv);
    }
  }
  return old;
}

// The fault flag lives in mem.ts; CSR traps reuse it.
@inline function setFault(cause: i32): void { setFaultCause(cause); }

// ------------------------------------------------------------------ helpers of the executor
@inline export function wreg(R: usize, r: i32, v: i32): void {
  store<i32>(R + (<usize>(r == 0 ? 32 : r) << 2), v);
}

/** Mask of Is3+1 bits at position Is2, cut at bit 31. */
@inline export function bfMask(len: i32, pos: i32): i32 {
  const hi = min(len + pos, 31);
  return <i32>((<u32>0xffffffff >> <u32>(31 - hi + pos)) << <u32>pos);
}
@inline export function bfExtract(v: i32, len: i32, pos: i32): i32 {
  const hi = min(len + pos, 31);
  return (v << (31 - hi)) >> (31 - hi + pos);
}
@inline export function bfExtractU(v: i32, len: i32, pos: i32): i32 {
  const hi = min(len + pos, 31);
  return <i32>(<u32>(v << (31 - hi)) >> <u32>(31 - hi + pos));
}
@inline export function bfInsert(d: i32, s: i32, len: i32, pos: i32): i32 {
  const m = bfMask(len, pos);
  return (d & ~m) | ((s << pos) & m);
}

/** cv.bitrev: shift left by Is2, then reverse groups of 1, 2 or 3 bits (radix 2, 4, 8). */
export function bitrev(v: i32, radix: i32, shift: i32): i32 {
  const g = radix == 1 ? 2 : radix == 2 ? 3 : 1;
  const x = <u32>(v << shift);
  const groups = 32 / g;
  const m: u32 = (1 << g) - 1;
  let out: u32 = 0;
  for (let k = 0; k < groups; k++) out |= ((x >> <u32>(32 - g * (k + 1))) & m) << <u32>(g * k);
  return <i32>out;
}

@inline export function clipS(a: i32, lo: i32, hi: i32): i32 { return a <= lo ? lo : a >= hi ? hi : a; }
/** The rounding constant 2^(s-1) (0 for s = 0). */
@inline export function rnd(s: i32): i32 { return s == 0 ? 0 : 1 << (s - 1); }
@inline export function sraN(v: i32, s: i32): i32 { return v >> s; }
@inline export function srlN(v: i32, s: i32): i32 { return <i32>(<u32>v >> <u32>s); }
/** SIMD shuffles: the half (bit 0 of sel) or byte (bits 1:0) of v that sel picks, in the low bits. */
@inline export function pickH(v: i32, sel: i32): i32 { return v >> ((sel & 1) << 4); }
@inline export function pickB(v: i32, sel: i32): i32 { return v >> ((sel & 3) << 3); }

export { fault };
