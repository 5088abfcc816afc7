import { describe, expect, it } from 'vitest';
import { applyHunks, diffLines } from './diff';

const rnd = (seed: number) => () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };

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
});
