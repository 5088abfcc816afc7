// Compression to RVC, driven by the table: a compressed row stands for the base row it expands
// to, so an instruction compresses when some compressed row of its base encodes exactly the same
// operand slots. Only LLVM's exclusions (hints and reserved forms, which it never emits) and its
// extra patterns (mv as addi rd, rs, 0; commuted add / and / or / xor) are written here.
import { encodeRow } from '../isa/encode';
import { TABLE, decodeRow, operands } from '../isa/table';
import type { Operands, Row } from '../isa/table';

const SLOTS = ['rd', 'rs1', 'rs2', 'aux', 'imm'] as const;

const byBase = new Map<string, Row[]>();
for (const r of TABLE) {
  if (!r.expands) continue;
  const list = byBase.get(r.expands) ?? [];
  list.push(r);
  byBase.set(r.expands, list);
}

/** Forms LLVM reserves or treats as hints: never produced by compression. */
function excluded(c: Row, o: Operands): boolean {
  switch (c.id) {
    case 'c.addi': case 'c.lui': case 'c.slli': return o.rd === 0 || o.imm === 0;
    case 'c.addi16sp': case 'c.addi4spn': case 'c.srli': case 'c.srai': return o.imm === 0;
    case 'c.li': case 'c.lwsp': return o.rd === 0;
    case 'c.mv': case 'c.add': return o.rd === 0 || o.rs2 === 0;
    case 'c.jr': case 'c.jalr': return o.rs1 === 0;
    case 'c.unimp': return true;
    default: return false;
  }
}

const full = (o: Partial<Operands>): Operands => ({ rd: o.rd ?? 0, rs1: o.rs1 ?? 0, rs2: o.rs2 ?? 0, aux: o.aux ?? 0, imm: o.imm ?? 0 });

function tryRows(base: string, o: Operands): { row: Row; word: number } | undefined {
  for (const c of byBase.get(base) ?? []) {
    if (excluded(c, o)) continue;
    const want: Partial<Operands> = {};
    for (const k of SLOTS) if (c.format[k]) want[k] = o[k];
    const word = encodeRow(c, want);
    if (typeof word === 'string') continue;
    if (decodeRow(word)?.id !== c.id) continue;
    const back = operands(c.format, word);
    if (SLOTS.every((k) => back[k] === o[k])) return { row: c, word };
  }
  return undefined;
}

const COMMUTES = new Set(['add', 'and', 'or', 'xor']);

/** compress()'s answers by row and operands (null: none); cleared past MEMO_MAX entries. */
const memo = new Map<string, { row: Row; word: number } | null>();
const MEMO_MAX = 100_000;

/** The compressed form of base instruction `row` with operands `ops`, if it has one. */
export function compress(row: Row, ops: Partial<Operands>): { row: Row; word: number } | undefined {
  const o = full(ops);
  const key = `${row.id} ${o.rd} ${o.rs1} ${o.rs2} ${o.aux} ${o.imm}`;
  const known = memo.get(key);
  if (known !== undefined) return known ?? undefined;
  const c = compressNew(row, o);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, c ?? null);
  return c;
}

function compressNew(row: Row, o: Operands): { row: Row; word: number } | undefined {
  const hit = tryRows(row.id, o);
  if (hit) return hit;
  if (COMMUTES.has(row.id) && o.rd === o.rs2 && o.rs1 !== o.rd) return tryRows(row.id, { ...o, rs1: o.rs2, rs2: o.rs1 });
  // mv rd, rs (addi rd, rs, 0) and add rd, rs, x0 are c.mv rd, rs (add rd, x0, rs).
  if (row.id === 'addi' && o.imm === 0 && o.rd !== 0 && o.rs1 !== 0) return tryRows('add', { ...o, rs2: o.rs1, rs1: 0, imm: 0 });
  if (row.id === 'add' && o.rs2 === 0 && o.rs1 !== 0) return tryRows('add', { ...o, rs2: o.rs1, rs1: 0 });
  return undefined;
}
