// Running a few hand-placed instructions on a machine, for the per-instruction tests.
import { encode } from '../isa/encode';
import { rowById } from '../isa/table';
import type { Operands } from '../isa/table';
import type { Machine } from '../machine';

export const CODE = 0x1c000000;
/** A data area in L2 and one in L1 for the memory tests. */
export const DATA = 0x1c100000;
export const TCDM = 0x10000000;

/** Registers of the single-instruction tests: rd = t0, rs1 = t1, rs2 = t2, rs3 = t3. */
export const RD = 5;
export const RS1 = 6;
export const RS2 = 7;
export const RS3 = 28;

/** Writes instruction words (2 or 4 bytes each, by their low bits) from `at` on. */
export function placeCode(m: Machine, words: number[], at = CODE): number {
  let a = at;
  for (const w of words) {
    const n = (w & 3) === 3 ? 4 : 2;
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = (w >>> (8 * i)) & 0xff;
    m.write(a, b);
    a += n;
  }
  m.codeChanged();
  return a;
}

export interface Setup { regs?: Record<number, number>; steps?: number; at?: number }

/** Places the code, sets registers, runs `steps` instructions (default: all of them). */
export function runWords(m: Machine, words: number[], s: Setup = {}): number {
  const at = s.at ?? CODE;
  placeCode(m, words, at);
  m.resetCore(0, at, 0);
  for (const [r, v] of Object.entries(s.regs ?? {})) m.setReg(0, Number(r), v);
  return m.step(0, s.steps ?? words.length);
}

/**
 * Executes one instruction `id` with rd = t0, rs1 = t1, rs2 = t2 (aux register t3 where the
 * format has one) and the given inputs; returns rd's new value (unsigned).
 */
export function exec1(m: Machine, id: string, inputs: { a?: number; b?: number; c?: number; d?: number }, ops: Partial<Operands> = {}): number {
  const f = rowById(id).format;
  const regs: Partial<Operands> = {};
  if (f.rd?.slices.length) regs.rd = RD;
  if (f.rs1?.slices.length) regs.rs1 = RS1;
  if (f.rs2?.slices.length) regs.rs2 = RS2;
  const word = encode(id, { ...regs, ...ops });
  runWords(m, [word], { regs: { [RS1]: inputs.a ?? 0, [RS2]: inputs.b ?? 0, [RS3]: inputs.c ?? 0, [RD]: inputs.d ?? 0 } });
  return m.reg(0, RD) >>> 0;
}
