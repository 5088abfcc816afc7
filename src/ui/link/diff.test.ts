import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyHunks, diffLines, editTooLarge, EDIT_LIMITS, type Hunk } from './diff';

const rnd = (seed: number) => () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };

/** The edit distance by the plain quadratic recurrence (small inputs only): what a shortest script costs. */
function distance(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! : 1 + Math.min(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[b.length]!;
}
const cost = (h: readonly Hunk[]) => h.reduce((s, x) => s + x[1] + x[3].length, 0);

describe('line diffs', () => {
  it('turns one text into the other, and only when applied to the text it was made on', () => {
    const a = 'int a;\nint b;\nint c;\nint d;';
    const b = 'int a;\nint B;\nint c;\nint d;\nint e;';
    const h = diffLines(a, b);
    expect(h).toHaveLength(2);
    expect(applyHunks(a, h)).toBe(b);
    expect(() => applyHunks('int a;\nint x;\nint c;\nint d;', h)).toThrow(/not the ones it was made on/);
    expect(diffLines(a, a)).toEqual([]);
  });
  it('round-trips random edits of a long file', () => {
    const r = rnd(7);
    const base = Array.from({ length: 400 }, (_, i) => `line ${i} ${Math.floor(r() * 10)}`);
    for (let t = 0; t < 50; t++) {
      const lines = [...base];
      for (let e = 0; e < 1 + Math.floor(r() * 8); e++) {
        const at = Math.floor(r() * lines.length);
        const kind = r();
        if (kind < 0.33) lines.splice(at, 1 + Math.floor(r() * 5));
        else if (kind < 0.66) lines.splice(at, 0, `new ${t}.${e}`, `more ${e}`);
        else lines[at] = `changed ${t}.${e}`;
      }
      const from = base.join('\n'), to = lines.join('\n');
      expect(applyHunks(from, diffLines(from, to))).toBe(to);
    }
  });
  it('round-trips 400 seeded random pairs, each with a shortest script', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = rnd(seed);
      // Few distinct lines: many equal lines, many ties, the middle snake's hard cases.
      const alphabet = 1 + Math.floor(r() * 6);
      const line = () => `l${Math.floor(r() * alphabet)}`;
      const a = Array.from({ length: Math.floor(r() * 40) }, line);
      const b = r() < 0.5 ? Array.from({ length: Math.floor(r() * 40) }, line) : a.map((l) => (r() < 0.2 ? line() : l)).filter(() => r() > 0.1);
      const from = a.join('\n'), to = b.join('\n');
      const h = diffLines(from, to);
      expect(applyHunks(from, h), `seed ${seed}`).toBe(to);
      expect(cost(h), `seed ${seed}`).toBe(distance(from.split('\n'), to.split('\n')));
      // Hunks are in order, apart, and never empty.
      for (let i = 0; i < h.length; i++) {
        expect(h[i]![1] + h[i]![3].length).toBeGreaterThan(0);
        if (i) expect(h[i]![0]).toBeGreaterThan(h[i - 1]![0] + h[i - 1]![3].length - 1);
      }
    }
  });
  it('diffs the 20,000 identical lines inserted at the top of conv_hwc.c in bounded time and memory', () => {
    const base = readFileSync(new URL('../../compiler/kernels/conv_hwc.c', import.meta.url), 'utf8');
    const edited = `${'x\n'.repeat(20_000)}${base}`;
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const h = diffLines(base, edited);
    const ms = performance.now() - t0;
    const heap = process.memoryUsage().heapUsed - heap0;
    expect(h).toHaveLength(1);
    expect(h[0]![0]).toBe(0);
    expect(h[0]![1]).toBe(0);
    expect(h[0]![3]).toHaveLength(20_000);
    expect(applyHunks(base, h)).toBe(edited);
    expect(ms).toBeLessThan(1000);
    expect(heap).toBeLessThan(64 << 20);
  });
  it('bounds the time of two unrelated large texts (the work budget), still exactly', () => {
    const r = rnd(3);
    const a = Array.from({ length: 20_000 }, () => `a${Math.floor(r() * 50)}`).join('\n');
    const b = Array.from({ length: 20_000 }, () => `a${Math.floor(r() * 50)}`).join('\n');
    const t0 = performance.now();
    const h = diffLines(a, b);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(applyHunks(a, h)).toBe(b);
  });
  it('says when an edit is too large for a link', () => {
    expect(editTooLarge(diffLines('a', 'a\nb'))).toBeNull();
    expect(editTooLarge(diffLines('', 'x\n'.repeat(EDIT_LIMITS.lines + 1)))).toMatch(/inserts 20001 lines, a link carries at most 20000/);
    expect(editTooLarge(diffLines('', 'y'.repeat(EDIT_LIMITS.bytes + 1)))).toMatch(/characters, a link carries at most/);
  });
});
