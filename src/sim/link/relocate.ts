// RISC-V relocations (psABI numbering): patching one relocation's bytes once its symbol's
// address S + A and the place P are known. Instruction fields are written the way the ISA
// lays out their immediates (U, I, S, B, J and the compressed CB / CJ forms).

export const R = {
  NONE: 0, R32: 1, BRANCH: 16, JAL: 17, CALL: 18, CALL_PLT: 19, PCREL_HI20: 23, PCREL_LO12_I: 24, PCREL_LO12_S: 25,
  HI20: 26, LO12_I: 27, LO12_S: 28, ADD8: 33, ADD16: 34, ADD32: 35, ADD64: 36, SUB8: 37, SUB16: 38, SUB32: 39, SUB64: 40,
  ALIGN: 43, RVC_BRANCH: 44, RVC_JUMP: 45, RELAX: 51, SUB6: 52, SET6: 53, SET8: 54, SET16: 55, SET32: 56, PCREL32: 57,
  SET_ULEB128: 60, SUB_ULEB128: 61,
} as const;

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(R).map(([k, v]) => [v, `R_RISCV_${k === 'R32' ? '32' : k === 'PCREL32' ? '32_PCREL' : k}`]));

export function relocName(type: number): string {
  return NAMES[type] ?? `relocation type ${type}`;
}

/** Low 12 bits of a value whose high part went to a HI20 (rounded): sign-extended by the instruction. */
const hi20 = (v: number) => ((v + 0x800) & 0xfffff000) >>> 0;

export const setU = (w: number, v: number) => ((w & 0xfff) | hi20(v)) >>> 0;
export const setI = (w: number, v: number) => ((w & 0xfffff) | ((v & 0xfff) << 20)) >>> 0;
export const setS = (w: number, v: number) => ((w & 0x1fff07f) | ((v & 0xfe0) << 20) | ((v & 0x1f) << 7)) >>> 0;
export const setB = (w: number, v: number) =>
  ((w & 0x1fff07f) | (((v >> 12) & 1) << 31) | (((v >> 5) & 0x3f) << 25) | (((v >> 1) & 0xf) << 8) | (((v >> 11) & 1) << 7)) >>> 0;
export const setJ = (w: number, v: number) =>
  ((w & 0xfff) | (((v >> 20) & 1) << 31) | (((v >> 1) & 0x3ff) << 21) | (((v >> 11) & 1) << 20) | (((v >> 12) & 0xff) << 12)) >>> 0;
/** c.beqz / c.bnez: offset[8|4:3] in bits 12:10, offset[7:6|2:1|5] in bits 6:2. */
export const setCB = (h: number, v: number) =>
  (h & ~0x1c7c & 0xffff) | (((v >> 8) & 1) << 12) | (((v >> 3) & 3) << 10) | (((v >> 6) & 3) << 5) | (((v >> 1) & 3) << 3) | (((v >> 5) & 1) << 2);
/** c.j / c.jal: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2. */
export const setCJ = (h: number, v: number) =>
  (h & ~0x1ffc & 0xffff) | (((v >> 11) & 1) << 12) | (((v >> 4) & 1) << 11) | (((v >> 8) & 3) << 9) | (((v >> 10) & 1) << 8)
  | (((v >> 6) & 1) << 7) | (((v >> 7) & 1) << 6) | (((v >> 1) & 7) << 3) | (((v >> 5) & 1) << 2);

/** Signed range [lo, hi] and required evenness of each pc-relative jump or branch. */
const RANGES: Record<number, [number, number]> = {
  [R.BRANCH]: [-4096, 4094], [R.JAL]: [-(1 << 20), (1 << 20) - 2], [R.RVC_BRANCH]: [-256, 254], [R.RVC_JUMP]: [-2048, 2046],
};

/** What went wrong applying one relocation (the caller names object, section and symbol). */
export class RelocError extends Error {}

/** S + A - P of a pc-relative relocation, checked against the instruction's reach. */
function pcrel(type: number, sa: number, p: number): number {
  const d = (sa - p) | 0;
  const range = RANGES[type];
  if (range) {
    if (d < range[0] || d > range[1]) throw new RelocError(`the target is ${d} bytes away; ${relocName(type)} reaches ${range[0]}..${range[1]}`);
    if (d & 1) throw new RelocError(`the target is at an odd offset (${d})`);
  }
  return d;
}

/** Reads / writes a ULEB128 in place, keeping its length (the object reserved the bytes). */
function ulebLength(b: Uint8Array, at: number): number {
  let n = 1;
  while (at + n - 1 < b.length && b[at + n - 1] & 0x80) n++;
  return n;
}
export function readUleb(b: Uint8Array, at: number): number {
  let v = 0, shift = 0;
  for (let i = 0; i < ulebLength(b, at); i++, shift += 7) v += (b[at + i] & 0x7f) * 2 ** shift;
  return v;
}
function writeUleb(b: Uint8Array, at: number, value: number): void {
  const n = ulebLength(b, at);
  let v = value;
  for (let i = 0; i < n; i++) {
    b[at + i] = (v % 128) | (i < n - 1 ? 0x80 : 0);
    v = Math.floor(v / 128);
  }
  if (v !== 0 || value < 0) throw new RelocError(`the value ${value} does not fit the ${n}-byte ULEB128 the object reserved`);
}

/**
 * Applies one relocation at byte `at` of `buf`: `sa` is S + A, `p` the address of the place.
 * `pcrelHi` gives, for PCREL_LO12, the S + A - P of its auipc's PCREL_HI20. SUB_ULEB128 pairs
 * with the SET_ULEB128 just before it (`uleb` carries the SET's value).
 */
export function applyReloc(buf: Uint8Array, dv: DataView, at: number, type: number, sa: number, p: number, uleb: { set?: number }): void {
  switch (type) {
    case R.R32: case R.SET32: dv.setUint32(at, sa >>> 0, true); return;
    case R.PCREL32: dv.setUint32(at, (sa - p) >>> 0, true); return;
    case R.HI20: dv.setUint32(at, setU(dv.getUint32(at, true), sa | 0), true); return;
    case R.LO12_I: dv.setUint32(at, setI(dv.getUint32(at, true), sa | 0), true); return;
    case R.LO12_S: dv.setUint32(at, setS(dv.getUint32(at, true), sa | 0), true); return;
    case R.PCREL_HI20: dv.setUint32(at, setU(dv.getUint32(at, true), pcrel(type, sa, p)), true); return;
    case R.BRANCH: dv.setUint32(at, setB(dv.getUint32(at, true), pcrel(type, sa, p)), true); return;
    case R.JAL: dv.setUint32(at, setJ(dv.getUint32(at, true), pcrel(type, sa, p)), true); return;
    case R.CALL: case R.CALL_PLT: {
      const v = pcrel(type, sa, p);
      dv.setUint32(at, setU(dv.getUint32(at, true), v), true);
      dv.setUint32(at + 4, setI(dv.getUint32(at + 4, true), v), true);
      return;
    }
    case R.RVC_BRANCH: dv.setUint16(at, setCB(dv.getUint16(at, true), pcrel(type, sa, p)), true); return;
    case R.RVC_JUMP: dv.setUint16(at, setCJ(dv.getUint16(at, true), pcrel(type, sa, p)), true); return;
    case R.ADD8: buf[at] = (buf[at] + sa) & 0xff; return;
    case R.SUB8: buf[at] = (buf[at] - sa) & 0xff; return;
    case R.SET8: buf[at] = sa & 0xff; return;
    case R.ADD16: dv.setUint16(at, (dv.getUint16(at, true) + sa) & 0xffff, true); return;
    case R.SUB16: dv.setUint16(at, (dv.getUint16(at, true) - sa) & 0xffff, true); return;
    case R.SET16: dv.setUint16(at, sa & 0xffff, true); return;
    case R.ADD32: dv.setUint32(at, (dv.getUint32(at, true) + sa) >>> 0, true); return;
    case R.SUB32: dv.setUint32(at, (dv.getUint32(at, true) - sa) >>> 0, true); return;
    case R.SUB6: buf[at] = (buf[at] & 0xc0) | ((buf[at] - sa) & 0x3f); return;
    case R.SET6: buf[at] = (buf[at] & 0xc0) | (sa & 0x3f); return;
    case R.SET_ULEB128: uleb.set = sa; return;
    case R.SUB_ULEB128:
      if (uleb.set === undefined) throw new RelocError('R_RISCV_SUB_ULEB128 without the R_RISCV_SET_ULEB128 before it');
      writeUleb(buf, at, (uleb.set - sa) >>> 0);
      uleb.set = undefined;
      return;
    default: throw new RelocError(`${relocName(type)} is not supported`);
  }
}
