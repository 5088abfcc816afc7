import { describe, expect, it } from 'vitest';
import { fieldMask } from './fields';
import { EXEC_ROWS, FIRST_OP, MAX_OPS, TABLE, decodeRow, opOf, rowById } from './table';
import type { Row } from './row';

/** Both rows accept some common word: the bits both fix agree. */
const overlaps = (a: Row, b: Row) => a.size === b.size && ((a.mask & b.mask & (a.match ^ b.match)) >>> 0) === 0;
/** a's encoding space lies inside b's. */
const inside = (a: Row, b: Row) => ((a.mask & b.mask) >>> 0) === b.mask && ((a.match & b.mask) >>> 0) === b.match;

describe('ISA table', () => {
  it('has unique ids and fits the op field', () => {
    expect(new Set(TABLE.map((r) => r.id)).size).toBe(TABLE.length);
    expect(EXEC_ROWS.length + FIRST_OP).toBeLessThanOrEqual(MAX_OPS);
  });

  it('has no two encodings that overlap, except declared specialisations', () => {
    const bad: string[] = [];
    for (let i = 0; i < TABLE.length; i++) {
      for (let j = i + 1; j < TABLE.length; j++) {
        const a = TABLE[i];
        const b = TABLE[j];
        if (!overlaps(a, b)) continue;
        const declared = (x: Row, y: Row) => (x.over ?? []).includes(y.id) && inside(x, y);
        if (!declared(a, b) && !declared(b, a)) bad.push(`${a.id} / ${b.id}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('declares only real specialisations', () => {
    for (const r of TABLE) for (const o of r.over ?? []) expect(inside(r, rowById(o)), `${r.id} over ${o}`).toBe(true);
  });

  it('keeps operand fields out of the fixed bits', () => {
    for (const r of TABLE) {
      for (const k of ['rd', 'rs1', 'rs2', 'aux', 'imm'] as const) {
        const fl = r.format[k];
        if (fl) expect((fieldMask(fl) & r.mask) >>> 0, `${r.id}.${k}`).toBe(0);
      }
    }
  });

  it('gives every row an executor, directly or through its expansion', () => {
    for (const r of TABLE) {
      expect(r.exec !== undefined || r.expands !== undefined, r.id).toBe(true);
      expect(opOf(r)).toBeGreaterThanOrEqual(FIRST_OP);
    }
  });

  it('decodes words of each row back to that row', () => {
    let seed = 12345;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const r of TABLE) {
      // Words in the row's space; a declared specialisation may claim some, not all.
      const hits = Array.from({ length: 64 }, (_, i) => (i === 0 ? r.match : (r.match | (rand() & ~r.mask)) >>> 0))
        .filter((w) => decodeRow(w)?.id === r.id).length;
      expect(hits, r.id).toBeGreaterThan(0);
    }
  });

  it('covers every extension of the brief', () => {
    const exts = new Set(TABLE.map((r) => r.ext));
    for (const e of ['I', 'M', 'C', 'Zicsr', 'Xcvalu', 'Xcvmac', 'Xcvsimd', 'Xcvmem', 'Xcvbi', 'Xcvbitmanip', 'Xcvhwlp']) {
      expect(exts.has(e as Row['ext']), e).toBe(true);
    }
  });
});
