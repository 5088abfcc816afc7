// Statements: if, loops, break/continue, switch (fallthrough, default), goto, nested scopes.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('if, while, for, do-while', () => {
  expect(asserts(`
  int x = 0; if (1) x = 2; else x = 3; ASSERT(2, x); if (0) x = 2; else x = 3; ASSERT(3, x);
  int i = 0, s = 0; while (i < 10) { s += i; i++; } ASSERT(45, s);
  s = 0; for (int j = 0; j < 10; j++) { if (j == 5) continue; if (j == 8) break; s += j; } ASSERT(23, s);
  s = 0; i = 0; do { s += i; } while (++i < 5); ASSERT(10, s);
  s = 0; i = 100; do s++; while (i < 10); ASSERT(1, s);
  for (;;) { s = 42; break; } ASSERT(42, s);
  { int x = 5; ASSERT(5, x); } ASSERT(3, x);
  `)).toBe('');
});

it('switch', () => {
  expect(asserts(`
  int r = 0;
  for (int i = 0; i < 6; i++) {
    switch (i) {
    case 0: r += 1;
    case 1: r += 10; break;
    case 3: { r += 100; break; }
    default: r += 1000;
    case 5: r += 10000;
    }
  }
  ASSERT(1 + 10 + 10 + 100 + 2 * (1000 + 10000) + 10000, r);
  switch (7) { case 1: r = 0; } ASSERT(1 + 10 + 10 + 100 + 2 * (1000 + 10000) + 10000, r);
  long long w = 5; switch (w) { case 5LL: r = 5; break; default: r = 6; } ASSERT(5, r);
  unsigned char c = 200; switch (c) { case 200: r = 1; break; default: r = 2; } ASSERT(1, r);
  `)).toBe('');
});

it('goto and labels', () => {
  expect(asserts(`
  int i = 0;
  again: i++; if (i < 5) goto again; ASSERT(5, i);
  goto skip; i = 100; skip: ASSERT(5, i);
  `)).toBe('');
});

it('recursion and the comma operator in loops', () => {
  expect(asserts(`ASSERT(55, fib(10)); int a, b; for (a = 0, b = 10; a < b; a++, b--); ASSERT(5, a);`,
    'int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }')).toBe('');
});
