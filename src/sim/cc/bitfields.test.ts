// Bit-fields (csmith uses them; the project's C does not): layout, signed and unsigned fields,
// read-modify-write, compound assignment, initialisers (local and static).
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('bit-fields', () => {
  expect(asserts(`
  ASSERT(4, sizeof(struct B)); ASSERT(8, sizeof(struct C)); struct B b = {0}; b.a = 5; b.s = -3; b.u = 1000;
  ASSERT(5, b.a); ASSERT(-3, b.s); ASSERT(1000, b.u); b.a += 3; ASSERT(0, b.a); b.s--; ASSERT(-4, b.s); ASSERT(1000, b.u);
  struct B c = {1, -1, 7}; ASSERT(1, c.a); ASSERT(-1, c.s); ASSERT(7, c.u); ASSERT(3, gb.a); ASSERT(-2, gb.s); ASSERT(99, gb.u);
  struct C d = {.y = 0x1ffff, .x = 1}; ASSERT(0x1ffff, d.y); ASSERT(1, d.x); d.y = -1; ASSERT(0x3ffff, d.y); ASSERT(1, d.x);
  `, `struct B { unsigned a : 3; int s : 4; unsigned u : 20; }; struct C { char x; unsigned y : 18; int : 0; short z; };
      struct B gb = {3, -2, 99};`)).toBe('');
});
