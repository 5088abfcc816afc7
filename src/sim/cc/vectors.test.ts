// GCC vector types: vector_size(4) of int8 (the Deeploy tutorial's SIMD kernels): elementwise
// operators with wrap-around per lane, element access, scalars splatted, casts to int.
import { expect, it } from 'vitest';
import { asserts, ccError } from './front-util';

it('int8 x 4 vectors', () => {
  expect(asserts(`
  v4s a = {1, 2, 3, 127}, b = {10, 20, 30, 1}; v4s c = a + b; ASSERT(11, c[0]); ASSERT(33, c[2]); ASSERT(-128, c[3]);
  c = a * b; ASSERT(40, c[1]); c = b - a; ASSERT(-126, c[3]); c = a & b; ASSERT(2, c[2]); c = a << 1; ASSERT(-2, c[3]);
  c = -a; ASSERT(-3, c[2]); c = a + 1; ASSERT(4, c[2]); c[1] = 99; ASSERT(99, c[1]); ASSERT(4, sizeof(v4s)); ASSERT(4, _Alignof(v4s));
  ASSERT(0x7f030201, (int)a); v4u u = {250, 1, 2, 3}; u += (v4u){10, 0, 0, 0}; ASSERT(4, u[0]); c = (v4s)0x01020304; ASSERT(4, c[0]);
  ASSERT(-1, (a == a)[0]); ASSERT(0, (a > b)[0]); ASSERT(-1, (a > b)[3]); ASSERT(267, dot(a, b));
  `, `typedef signed char v4s __attribute__((vector_size(4))); typedef unsigned char v4u __attribute__((vector_size(4)));
      int dot(v4s a, v4s b) { int s = 0; for (int i = 0; i < 4; i++) s += a[i] * b[i]; return s; }`)).toBe('');
});

it('8-byte vectors; wider ones are refused at their declaration', () => {
  expect(asserts(`v4h a = {1, 2, 3, 4}, b = {10, 20, 30, 40}; v4h c = a + b; ASSERT(11, c[0]); ASSERT(44, c[3]); ASSERT(8, sizeof(v4h));`,
    'typedef short v4h __attribute__((vector_size(8)));')).toBe('');
  expect(ccError('typedef int v4i __attribute__((vector_size(16)));\nint f(v4i x) { return x[0]; }'))
    .toMatch(/^\/t\/main\.c:1:\d+: vector_size\(16\) is not supported: vectors of at most 8 bytes/);
});
