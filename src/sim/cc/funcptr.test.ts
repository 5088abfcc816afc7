// Function pointers: taking addresses, calling through them, arrays and struct members of
// them, typedefs, passing them as arguments, returning them.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('function pointers', () => {
  expect(asserts(`
  int (*f)(int, int) = add; ASSERT(5, f(2, 3)); ASSERT(5, (*f)(2, 3)); f = &mul; ASSERT(6, f(2, 3));
  binop ops[] = {add, mul}; ASSERT(12, ops[1](3, 4)); ASSERT(7, apply(ops[0], 3, 4));
  struct T t = {mul}; ASSERT(20, t.fn(4, 5)); ASSERT(9, choose(1)(4, 5)); ASSERT(1, f == mul); ASSERT(0, f == add);
  void (*v)(int *) = inc; int n = 1; v(&n); ASSERT(2, n);
  `, `
  int add(int a, int b) { return a + b; } int mul(int a, int b) { return a * b; }
  typedef int (*binop)(int, int);
  int apply(binop f, int a, int b) { return f(a, b); }
  struct T { int (*fn)(int, int); };
  int (*choose(int i))(int, int) { return i ? add : mul; }
  static void inc(int *p) { ++*p; }
  `)).toBe('');
});
