// Bit-fields (csmith uses them; the project's C does not): layout, signed and unsigned fields,
// read-modify-write, compound assignment, initialisers (local and static).
import { expect, it } from 'vitest';
import { asserts, compileSnippet } from './front-util';
import { optimize } from './opt';

it('bit-fields', () => {
  expect(asserts(`
  ASSERT(4, sizeof(struct B)); ASSERT(8, sizeof(struct C)); struct B b = {0}; b.a = 5; b.s = -3; b.u = 1000;
  ASSERT(5, b.a); ASSERT(-3, b.s); ASSERT(1000, b.u); b.a += 3; ASSERT(0, b.a); b.s--; ASSERT(-4, b.s); ASSERT(1000, b.u);
  struct B c = {1, -1, 7}; ASSERT(1, c.a); ASSERT(-1, c.s); ASSERT(7, c.u); ASSERT(3, gb.a); ASSERT(-2, gb.s); ASSERT(99, gb.u);
  struct C d = {.y = 0x1ffff, .x = 1}; ASSERT(0x1ffff, d.y); ASSERT(1, d.x); d.y = -1; ASSERT(0x3ffff, d.y); ASSERT(1, d.x);
  `, `struct B { unsigned a : 3; int s : 4; unsigned u : 20; }; struct C { char x; unsigned y : 18; int : 0; short z; };
      struct B gb = {3, -2, 99};`)).toBe('');
});

it('#pragma pack and packed bit-fields straddling their type (csmith seed 1186)', () => {
  expect(asserts(`
  ASSERT(5, sizeof(struct P1)); ASSERT(1, offsetof(struct P1, i)); ASSERT(6, sizeof(struct P2)); ASSERT(2, offsetof(struct P2, i)); ASSERT(8, sizeof(struct N));
  struct K k = {1, 0x1fffffff, 2}; ASSERT(1, k.a); ASSERT(0x1fffffff, k.b); ASSERT(2, k.c); k.b = 5; ASSERT(5, k.b); ASSERT(1, k.a); ASSERT(2, k.c);
  ASSERT(5, sizeof(struct K)); ASSERT(2, gk.c); ASSERT(-7, gk.b);
  `, `#pragma pack(push)
  #pragma pack(1)
  struct P1 { char c; int i; };
  struct K { unsigned a : 5; int b : 30; unsigned c : 3; };
  #pragma pack(2)
  struct P2 { char c; int i; };
  #pragma pack(pop)
  struct N { char c; int i; };
  #pragma pack(1)
  struct K gk = {3, -7, 2};
  #pragma pack()`)).toBe('');
});

it('a packed record\'s bit-field is read and written a byte at a time, never past the record (csmith seed 68)', () => {
  // `struct s16` is 2 bytes; its field's declared type (int) is 4: a word access would reach 2
  // bytes past the record (past the stack's top for the last local: a load access fault).
  const m = compileSnippet(`#pragma pack(1)
    struct s16 { signed f0 : 16; };
    int get(struct s16 *p) { return p->f0; }
    void set(struct s16 *p, int v) { p->f0 = v; }`);
  // After mem2reg only the field's own accesses are left.
  const widths = optimize(m, { level: 1 }).functions.flatMap((f) => f.blocks.flatMap((b) => b.insts))
    .filter((x) => x.op === 'load' || x.op === 'store').map((x) => x.ty);
  expect(widths.length).toBeGreaterThan(0);
  expect(widths.every((t) => t === 'i8')).toBe(true);
  expect(asserts(`struct s16 a[3] = {{1}, {-2}, {3}}; a[1].f0 = -205; ASSERT(1, a[0].f0); ASSERT(-205, a[1].f0); ASSERT(3, a[2].f0);`,
    '#pragma pack(1)\nstruct s16 { signed f0 : 16; };\n#pragma pack()')).toBe('');
});
