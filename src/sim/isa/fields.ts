// Operand fields of an instruction word, as data. Every register index and immediate of every
// format is written here exactly once, as a list of bit slices; the TypeScript side interprets
// the slices (tests, table checks) and the generator turns them into AssemblyScript shifts and
// masks for the decoder in the wasm core. Nothing else in the project extracts operand bits.

/** inst[hi:lo] is placed at bit `at` of the field's value. */
export type Slice = readonly [hi: number, lo: number, at: number];

export interface Field {
  slices: readonly Slice[];
  /** Sign-extend from the highest bit the slices produce. */
  signed?: boolean;
  /** Added after extraction: 8 for the compressed 3-bit register fields (x8..x15). */
  add?: number;
}

const f = (slices: Slice[], signed = false, add = 0): Field => ({ slices, signed, add });

// Register fields.
export const RD = f([[11, 7, 0]]);
export const RS1 = f([[19, 15, 0]]);
export const RS2 = f([[24, 20, 0]]);
/** The third register of CORE-V register-register stores sits where rd usually is. */
export const RS3_AT_RD = RD;
/** Compressed: full 5-bit register at [11:7] and [6:2]; x8..x15 at [9:7] and [4:2]. */
export const CR_HI = f([[11, 7, 0]]);
export const CR_LO = f([[6, 2, 0]]);
export const CRP_HI = f([[9, 7, 0]], false, 8);
export const CRP_LO = f([[4, 2, 0]], false, 8);
/** The fixed stack pointer (x2) of the sp-relative compressed forms: no bits at all. */
export const SP = f([], false, 2);
/** x1, written by c.jal / c.jalr. */
export const RA = f([], false, 1);
/** x0, the source of c.li / c.mv expansions (addi rd, x0, imm; add rd, x0, rs2). */
export const ZERO = f([]);

// The base immediates (RISC-V unprivileged spec, chapter 2).
export const I_IMM = f([[31, 20, 0]], true);
export const S_IMM = f([[31, 25, 5], [11, 7, 0]], true);
export const B_IMM = f([[31, 31, 12], [7, 7, 11], [30, 25, 5], [11, 8, 1]], true);
export const U_IMM = f([[31, 12, 12]], true);
export const J_IMM = f([[31, 31, 20], [19, 12, 12], [20, 20, 11], [30, 21, 1]], true);
export const SHAMT = f([[24, 20, 0]]);
export const CSR = f([[31, 20, 0]]);
export const ZIMM = f([[19, 15, 0]]);
export const FENCE_PRED = f([[27, 24, 0]]);
export const FENCE_SUCC = f([[23, 20, 0]]);

// Compressed immediates (RVC, chapter 16), each scrambled its own way.
export const C_ADDI4SPN = f([[12, 11, 4], [10, 7, 6], [6, 6, 2], [5, 5, 3]]);
export const C_LSW = f([[12, 10, 3], [6, 6, 2], [5, 5, 6]]);
export const C_IMM6 = f([[12, 12, 5], [6, 2, 0]], true);
/** RV32 shift amounts: inst[12] (shamt[5]) must be zero and is part of the match. */
export const C_SHAMT = f([[6, 2, 0]]);
export const C_LUI = f([[12, 12, 17], [6, 2, 12]], true);
export const C_ADDI16SP = f([[12, 12, 9], [6, 6, 4], [5, 5, 6], [4, 3, 7], [2, 2, 5]], true);
export const C_J = f([[12, 12, 11], [11, 11, 4], [10, 9, 8], [8, 8, 10], [7, 7, 6], [6, 6, 7], [5, 3, 1], [2, 2, 5]], true);
export const C_B = f([[12, 12, 8], [11, 10, 3], [6, 5, 6], [4, 3, 1], [2, 2, 5]], true);
export const C_LWSP = f([[12, 12, 5], [6, 4, 2], [3, 2, 6]]);
export const C_SWSP = f([[12, 9, 2], [8, 7, 6]]);
export const C_ZERO_IMM = f([]);

// CORE-V immediates (CV32E40P user manual, "CORE-V Instruction Set Extensions").
/** Is3 / the post-op shift amount in [29:25]. */
export const CV_IS3 = f([[29, 25, 0]]);
/** Is2 / Luimm5 in [24:20] (clip bounds, bit positions). */
export const CV_IS2 = f([[24, 20, 0]]);
/** cv.bitrev's radix selector: only [26:25]; [29:27] are zero in the encoding. */
export const CV_RADIX = f([[26, 25, 0]]);
/** Signed 5-bit compare value of cv.beqimm / cv.bneimm in [24:20]. */
export const CV_SIMM5 = f([[24, 20, 0]], true);
/** The 6-bit SIMD immediate: Imm6[0] in bit 25, Imm6[5:1] in [24:20]. */
export const CV_SIMM6 = f([[25, 25, 0], [24, 20, 1]], true);
export const CV_UIMM6 = f([[25, 25, 0], [24, 20, 1]]);
/** Hardware loops: loop index L in bit 7, uimmL in [31:20], uimmS in [19:15]. */
export const HW_L = f([[7, 7, 0]]);
export const HW_UIMML = f([[31, 20, 0]]);
export const HW_UIMMS = f([[19, 15, 0]]);

/** The width in bits of a field's value before sign extension. */
export function fieldWidth(fl: Field): number {
  return fl.slices.reduce((w, [hi, lo, at]) => Math.max(w, at + hi - lo + 1), 0);
}

/** Extracts a field from an instruction word (the TypeScript twin of the generated decoder). */
export function extract(fl: Field, word: number): number {
  let v = 0;
  for (const [hi, lo, at] of fl.slices) v |= ((word >>> lo) & ((1 << (hi - lo + 1)) - 1)) << at;
  const w = fieldWidth(fl);
  if (fl.signed && w > 0 && w < 32) v = (v << (32 - w)) >> (32 - w);
  return (v + (fl.add ?? 0)) | 0;
}

/** The same extraction as an AssemblyScript i32 expression over the u32 `word`. */
export function extractAs(fl: Field, word = 'w'): string {
  const parts = fl.slices.map(([hi, lo, at]) => {
    const mask = `0x${(((2 ** (hi - lo + 1)) - 1) >>> 0).toString(16)}`;
    const bits = lo === 0 ? `(${word} & ${mask})` : `((${word} >> ${lo}) & ${mask})`;
    return at === 0 ? bits : `(${bits} << ${at})`;
  });
  let e = parts.length === 0 ? '0' : parts.join(' | ');
  e = `<i32>(${e})`;
  const w = fieldWidth(fl);
  if (fl.signed && w > 0 && w < 32) e = `((${e} << ${32 - w}) >> ${32 - w})`;
  if (fl.add) e = `(${e} + ${fl.add})`;
  return e;
}

/** The bits of the word a field reads (so a table row can check they are not fixed by its match). */
export function fieldMask(fl: Field): number {
  let m = 0;
  for (const [hi, lo] of fl.slices) m |= (((2 ** (hi - lo + 1)) - 1) << lo);
  return m >>> 0;
}
