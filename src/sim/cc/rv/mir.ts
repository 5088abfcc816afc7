// The back end's machine IR: RV32 instructions over registers, before and after register
// allocation. Registers 0..31 are the machine's (x0 is the constant zero and never allocated);
// 32 and up are virtual. The MIR is not SSA: a virtual register may be written several times
// (phi copies, two-address operands), and liveness is computed on the final code.
//
// An instruction is its mnemonic, the registers it writes (`defs`) and reads (`uses`), and the
// format its operands print in (`fmt`). Stack addresses are frame objects (`fi`), whose offsets
// from sp are known only after allocation (spill slots, saved registers).
export type Reg = number;

export const FIRST_VREG = 32;
export const ZERO = 0, RA = 1, SP = 2;
export const A0 = 10;

export const REG_NAMES = ['zero', 'ra', 'sp', 'gp', 'tp', 't0', 't1', 't2', 's0', 's1',
  'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's11',
  't3', 't4', 't5', 't6'];

/** Caller-saved registers a call clobbers (ra included: the call writes it). */
export const CALLER_SAVED: Reg[] = [1, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31];
/** Callee-saved registers a function must restore. */
export const CALLEE_SAVED: Reg[] = [8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];

/**
 * How an instruction's operands print:
 *   R    op d0, u0, u1          I    op d0, u0, imm       U   op d0, imm (lui: %hi(sym))
 *   L    op d0, off(base)       S    op u0, off(base)     (base = u[last] or sp + frame object)
 *   LPI  op d0, (u0), imm  (post-increment load; d1 = u0)    SPI  op u0, (u1), imm  (d0 = u1)
 *   B    op u0, u1, target      BI   op u0, imm, target   J   j target
 *   R1   op d0, u0              MV   mv d0, u0            LI  li d0, imm
 *   CALL call sym / jalr u0     RET  ret                  ASM the template     NONE  op
 *   RD   op d0, u1, u2 where d0 is also u0 (cv.mac: the accumulator is read and written)
 *   RDI  op d0, u1, imm where d0 is also u0 (cv.insert: the other lanes are kept)
 *   LRR  op d0, u1(u0)  (CORE-V base + index load)   SRR  op u0, u2(u1)  (store u0 at u1 + u2)
 *   HWSETUP  cv.setup imm, u0, <end of the hardware loop whose body is block `target`> (the
 *            block's last instruction before a jump to `target`, laid out next)
 *   HWEND    the end label of the hardware loop of this block (`target`): no instruction, the
 *            back edge the core takes while the count lasts
 */
export type Fmt = 'LRR' | 'SRR' | 'R' | 'I' | 'U' | 'L' | 'S' | 'LPI' | 'SPI' | 'LPR' | 'SPR' | 'B' | 'BI' | 'J' | 'R1' | 'MV' | 'LI' | 'CALL' | 'RET' | 'ASM' | 'NONE' | 'RD' | 'RDI' | 'HWSETUP' | 'HWEND';

export interface MInst {
  op: string;
  fmt: Fmt;
  defs: Reg[];
  uses: Reg[];
  imm?: number;
  /** A symbol operand: %hi / %lo of sym + imm, or the callee. */
  sym?: string;
  /** Branch and jump target: a block index. */
  target?: number;
  /** A frame object the address is relative to (loads, stores, addi): sp + its offset + imm. */
  fi?: number;
  /** Inline asm: the template and, per operand %N, the register (an index into defs or uses). */
  asm?: { template: string; operands: ({ k: 'def' | 'use'; i: number } | { k: 'imm'; v: number })[] };
  /** file:line for the line table. */
  loc?: string;
  /** Early-clobber results (inline asm "=&r"): written before the inputs are all read, so they share no register with them. */
  early?: Reg[];
  /** Instructions the allocator must not delete even if their defs are unused (calls, asm, stores). */
  sideEffect?: boolean;
}

export interface MBlock {
  insts: MInst[];
  /** Successor blocks (from the terminators). */
  succs: number[];
  /** Loop nesting depth, for spill costs. */
  depth: number;
}

export type FrameKind = 'local' | 'spill' | 'incoming' | 'varargs';

export interface FrameObject {
  kind: FrameKind;
  size: number;
  align: number;
  /** incoming: offset from the caller's sp (the CFA). Others: from sp, set by the frame layout. */
  offset: number;
}

export interface MFunction {
  name: string;
  blocks: MBlock[];
  /** The blocks in layout order (an edge's own block sits after its predecessor). */
  order: number[];
  nregs: number;
  frame: FrameObject[];
  /** Bytes of outgoing stack arguments the largest call needs (at sp + 0). */
  outArgs: number;
  variadic: boolean;
  /** Argument registers the fixed parameters use (variadic functions save the rest). */
  fixedArgRegs: number;
  hasCalls: boolean;
  /** Registers the allocator must not use (a scratch for large frames). */
  reserved: Reg[];
  isStatic: boolean;
  section?: string;
  loc: string;
}

export function isVirtual(r: Reg): boolean {
  return r >= FIRST_VREG;
}

/** Each conditional branch's opposite (a branch over a jump to the next block becomes the inverse branch). */
export const INVERT: Record<string, string> = {
  beq: 'bne', bne: 'beq', blt: 'bge', bge: 'blt', bltu: 'bgeu', bgeu: 'bltu', 'cv.beqimm': 'cv.bneimm', 'cv.bneimm': 'cv.beqimm',
};
