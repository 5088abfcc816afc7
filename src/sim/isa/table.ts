// The ISA table: every instruction the simulator knows, one row each. The wasm decoder and
// executor are generated from it (src/sim/gen), the disassembler reads it directly.
import type { Format } from './formats';
import { extract } from './fields';
import { RV32 } from './rv32';
import { RVC } from './rvc';
import { XCV } from './xcv';
import type { Row } from './row';

export type { Row, Ext } from './row';

export const TABLE: readonly Row[] = [...RV32, ...RVC, ...XCV];

/** Rows that execute (everything but the compressed expansions), in op-id order from FIRST_OP. */
export const EXEC_ROWS: readonly Row[] = TABLE.filter((r) => r.exec !== undefined);
/** Op 0 marks a not-yet-decoded cache entry, op 1 an illegal instruction. */
export const OP_UNDECODED = 0;
export const OP_ILLEGAL = 1;
export const FIRST_OP = 2;
/** Op ids fit 9 bits of a predecoded entry. */
export const MAX_OPS = 512;

const byId = new Map(TABLE.map((r) => [r.id, r]));
const opIds = new Map(EXEC_ROWS.map((r, i) => [r.id, i + FIRST_OP]));

export function rowById(id: string): Row {
  const r = byId.get(id);
  if (!r) throw new Error(`no ISA row '${id}'`);
  return r;
}

/** The op id an instruction row executes as (compressed rows: their base row's). */
export function opOf(r: Row): number {
  const id = opIds.get(r.expands ?? r.id);
  if (id === undefined) throw new Error(`row '${r.id}' expands to unknown '${r.expands}'`);
  return id;
}

export function execRowOfOp(op: number): Row | undefined {
  return EXEC_ROWS[op - FIRST_OP];
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/**
 * Decode order: the most specific encodings first, so that a row declared `over` another
 * (c.nop inside c.addi, c.jr inside c.mv, ...) wins. The overlap test checks that no other
 * pair of rows can both match a word.
 */
export const DECODE_ORDER: readonly Row[] = [...TABLE].sort((a, b) => popcount(b.mask) - popcount(a.mask));

/** The row a word decodes to, or undefined for an illegal instruction. */
export function decodeRow(word: number): Row | undefined {
  const w = word >>> 0;
  const size = (w & 3) === 3 ? 4 : 2;
  const v = size === 2 ? w & 0xffff : w;
  for (const r of DECODE_ORDER) if (r.size === size && ((v & r.mask) >>> 0) === r.match) return r;
  return undefined;
}

/** The decoded operand slots of a word under a row's format (registers before x0 redirection). */
export interface Operands { rd: number; rs1: number; rs2: number; aux: number; imm: number }

export function operands(fmt: Format, word: number): Operands {
  const get = (k: 'rd' | 'rs1' | 'rs2' | 'aux' | 'imm') => { const fl = fmt[k]; return fl ? extract(fl, word) : 0; };
  return { rd: get('rd'), rs1: get('rs1'), rs2: get('rs2'), aux: get('aux'), imm: get('imm') };
}

/** A fingerprint of the table, so the host can refuse a wasm core built from another one. */
export function tableHash(): number {
  let h = 0x811c9dc5;
  const s = TABLE.map((r) => `${r.id}:${r.match}:${r.mask}:${r.exec ?? r.expands}`).join('|');
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
