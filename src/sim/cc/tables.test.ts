// Big constant tables: the parser reads the preprocessor's stream, and a table's elements
// (`[-]digits ,`) straight from the file's text (Lexer.readInts), without tokens. Every table
// here is parsed both ways, streamed and from preprocess()'s token list (which never takes that
// path): the same bytes, the same errors at the same file:line:col.
import { describe, expect, it } from 'vitest';
import { filesFrom } from './fs';
import { parse } from './parse';
import { preprocess, preprocessStream, type TokenStream } from './preprocess';

const HEAD = '#include <stdint.h>\n#define X 7\n#define NEG(v) -v\n';

/** The unit's globals as name -> hex bytes, streamed (counting the elements read without tokens) and from a list. */
function both(src: string): { streamed: Record<string, string>; listed: Record<string, string>; raw: number } {
  const files = filesFrom({ 'main.c': HEAD + src });
  const s = preprocessStream('main.c', { files });
  let raw = 0;
  const counting: TokenStream = { next: () => s.next(), readInts: (max, put) => { const n = s.readInts(max, put); raw += n; return n; }, warnings: s.warnings, files: s.files };
  const bytes = (u: ReturnType<typeof parse>) => Object.fromEntries(u.globals.filter((g) => g.init).map((g) => [g.name, Buffer.from(g.init!.bytes).toString('hex')]));
  return { streamed: bytes(parse(counting)), listed: bytes(parse(preprocess('main.c', { files }).tokens)), raw };
}

function errors(src: string): { streamed: string; listed: string } {
  const files = filesFrom({ 'main.c': HEAD + src });
  const msg = (f: () => unknown) => { try { f(); return 'no error'; } catch (e) { return (e as Error).message; } };
  return { streamed: msg(() => parse(preprocessStream('main.c', { files }))), listed: msg(() => parse(preprocess('main.c', { files }).tokens)) };
}

const rows = (n: number, per: number, f: (k: number) => number) =>
  Array.from({ length: n }, (_, r) => `  ${Array.from({ length: per }, (_, c) => String(f(r * per + c))).join(', ')},`).join('\n');

describe('constant tables', () => {
  it('reads int8, uint8, int16 and int32 tables without tokens, with the bytes the token path gives', () => {
    const src = [
      `const int8_t a[] = {\n${rows(200, 16, (k) => ((k * 37) % 256) - 128)}\n};`,
      `const uint8_t b[3200] = {\n${rows(200, 16, (k) => (k * 11) % 300 - 20)}\n};`,
      `int16_t c[] = {\n${rows(100, 8, (k) => (k * 4099) % 70000 - 35000)}\n  5\n};`,
      `const int32_t d[801] = {\n${rows(100, 8, (k) => (k % 2 ? -1 : 1) * ((k * 2654435761) % 2147483648))}\n  2147483647 };`,
      'struct S { int8_t x[40]; int32_t y[4]; } s = { .x = {1, -2, 3,\n 4,\n 5, -6, 7,8,9 ,10,}, .y = {0, -0, 1, 2} };',
    ].join('\n');
    const r = both(src);
    expect(r.streamed).toEqual(r.listed);
    expect(Object.keys(r.streamed)).toEqual(['a', 'b', 'c', 'd', 's']);
    expect(r.raw).toBeGreaterThan(3200 + 3200 + 790 + 790);
  });

  it('hands anything else back to the tokens: comments, directives, macros, hex, suffixes, octal, chars, big values', () => {
    const src = `const int32_t t[] = {\n  1, 2, /* c */ 3, 4, // d\n  5, 6,\n#if X > 1\n  7, 8,\n#else\n  9,\n#endif\n  X, NEG(3), 0x10, 0x7fffffff, 5u, 6L, 017, 0, 'a', +4, - 5, -\n 6, 2147483648, -2147483648, 9,\n  10, 11, 12\n};\nint after = 3;`;
    const r = both(src);
    expect(r.streamed).toEqual(r.listed);
    expect(r.raw).toBeGreaterThanOrEqual(4);
    expect(r.streamed.after).toBe('03000000');
    // After a comment or a directive, the elements come from the text again.
    const mixed = Array.from({ length: 200 }, (_, k) => (k % 20 === 5 ? `/* ${k} */ ${k},` : k % 50 === 7 ? `\n#if 1\n${k},\n#endif\n` : `${k},`)).join(' ');
    const m = both(`const int16_t m[] = { ${mixed} };`);
    expect(m.streamed).toEqual(m.listed);
    expect(m.raw).toBeGreaterThan(150);
  });

  it('stops at the array length: the excess element is the token path\'s error, at the same place', () => {
    const e = errors(`int8_t a[4] = {\n  1, 2, 3, 4, 5, 6,\n};`);
    expect(e.streamed).toBe(e.listed);
    expect(e.streamed).toMatch(/main\.c:5:\d+: .*excess elements/);
    const ok = both('int8_t a[4] = {1, 2, 3, 4,};\nint8_t b[4] = {1, 2, 3, 4};\nint8_t c[6] = {1, 2, 3,};');
    expect(ok.streamed).toEqual(ok.listed);
  });

  it('keeps the lines and columns of what follows a table', () => {
    const table = `const int8_t a[] = {\n${rows(500, 16, (k) => k % 100 - 50)}\n};\n`;
    for (const bad of ['int x = ;', '  int y = 1 +;', 'int z[2] = {1, 2, 3};', 'int w = {1, 2 3};']) {
      const e = errors(`${table}${bad}\n`);
      expect(e.streamed).toBe(e.listed);
      expect(e.streamed).toMatch(/^main\.c:50[0-9]:\d+: /);
    }
  });

  it('reads the directive that starts the line after a table row', () => {
    const r = both(`const int8_t a[] = {\n  1, 2,\n#define Y 4\n  3, Y,\n};\nint y = Y;`);
    expect(r.streamed).toEqual(r.listed);
    expect(r.streamed.a).toBe('01020304');
    expect(r.streamed.y).toBe('04000000');
  });
});
