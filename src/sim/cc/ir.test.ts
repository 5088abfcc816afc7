// The IR's shape: blocks ending in one terminator, each vreg assigned once, source lines on
// every instruction, big constant tables kept as bytes, and the text form for dumps.
import { expect, it } from 'vitest';
import { compileSnippet } from './front-util';
import { printFunction } from './ir';

it('is SSA over vregs, with terminators and source lines', () => {
  const m = compileSnippet('int f(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += i;\n  return s;\n}\n');
  const f = m.functions[0];
  const defs = new Set<number>();
  for (const b of f.blocks) {
    const last = b.insts[b.insts.length - 1];
    expect(['br', 'jmp', 'ret', 'switch', 'unreachable']).toContain(last.op);
    for (const x of b.insts.slice(0, -1)) expect(['br', 'jmp', 'ret', 'switch', 'unreachable']).not.toContain(x.op);
    for (const x of b.insts) {
      expect(x.loc).toMatch(/^\/t\/main\.c:[1-6]$/);
      if (x.dst >= 0) { expect(defs.has(x.dst)).toBe(false); defs.add(x.dst); }
    }
  }
  const text = printFunction(f);
  expect(text).toMatch(/^function f\(i32\) -> i32/);
  expect(text).toContain('slt i32');
});

it('keeps a big constant table as bytes', () => {
  const n = 100_000;
  const src = `const signed char w[${n}] = {${Array.from({ length: n }, (_, i) => (i % 256) - 128).join(', ')}};\nint h[] = {1, -2, 0x7fffffff};`;
  const t0 = performance.now();
  const m = compileSnippet(src);
  expect(performance.now() - t0).toBeLessThan(2000);
  const w = m.globals.find((g) => g.name === 'w')!;
  expect(w.bytes).toBeInstanceOf(Uint8Array);
  expect(w.bytes!.length).toBe(n);
  expect(w.bytes![1]).toBe(0x81);
  expect(w.readonly).toBe(true);
  const h = m.globals.find((g) => g.name === 'h')!;
  expect([...h.bytes!]).toEqual([1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
});
