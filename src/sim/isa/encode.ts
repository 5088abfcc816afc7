// Encoding from the same table: the inverse of decoding a row's operand slots. Used by the
// tests to build instruction words; a later assembler can use it too.
import type { Field } from './fields';
import { extract } from './fields';
import { rowById } from './table';
import type { Operands, Row } from './table';

function place(fl: Field, value: number): number {
  const v = (value - (fl.add ?? 0)) | 0;
  let w = 0;
  for (const [hi, lo, at] of fl.slices) w |= ((v >>> at) & ((2 ** (hi - lo + 1)) - 1)) << lo;
  return w >>> 0;
}

/** The word of instruction `id` with the given operands; throws if an operand does not fit. */
export function encode(id: string, ops: Partial<Operands> = {}): number {
  const r = rowById(id);
  const w = encodeRow(r, ops);
  if (typeof w === 'string') throw new Error(`${id}${w}`);
  return w;
}

const SLOTS = ['rd', 'rs1', 'rs2', 'aux', 'imm'] as const;

/** The word of row `r` with the given operands, or the reason it does not fit (no exception: the assembler tries many). */
export function encodeRow(r: Row, ops: Partial<Operands>): number | string {
  let w = r.match;
  for (const k of SLOTS) {
    const fl = r.format[k];
    const v = ops[k];
    if (!fl) {
      if (v !== undefined && v !== 0) return ` has no ${k} operand`;
      continue;
    }
    // Unset operands keep their bits: zero, or those of a slot sharing the field (rd = rs1 in c.addi).
    if (v === undefined) continue;
    const bitsOf = place(fl, v);
    const back = extract(fl, (w | bitsOf) >>> 0);
    if (back !== (v | 0)) return `: ${k} = ${v} does not fit its field`;
    w = (w | bitsOf) >>> 0;
  }
  return (r.size === 2 ? w & 0xffff : w) >>> 0;
}
