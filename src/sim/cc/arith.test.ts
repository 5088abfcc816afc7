// Integer arithmetic: operators, precedence, division and remainder signs, shifts, wrap-around.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('operators and precedence', () => {
  expect(asserts(`
  ASSERT(0, 0); ASSERT(42, 42); ASSERT(21, 5+20-4); ASSERT(41, 12 + 34 - 5);
  ASSERT(47, 5+6*7); ASSERT(15, 5*(9-6)); ASSERT(4, (3+5)/2); ASSERT(10, -10+20); ASSERT(10, - -10);
  ASSERT(0, 0==1); ASSERT(1, 42==42); ASSERT(1, 0!=1); ASSERT(1, 0<1); ASSERT(0, 1<1); ASSERT(1, 1<=1); ASSERT(1, 2>1); ASSERT(1, 1>=1);
  ASSERT(3, 7 & 11); ASSERT(15, 7 | 8); ASSERT(12, 7 ^ 11); ASSERT(-1, ~0); ASSERT(1, !0); ASSERT(0, !3);
  ASSERT(1, 2 + 3 == 5 && 1 < 2); ASSERT(1, 0 || 5); ASSERT(0, 0 && 5); ASSERT(3, (1, 2, 3));
  ASSERT(2, 1 ? 2 : 3); ASSERT(3, 0 ? 2 : 3);
  `)).toBe('');
});

it('division, remainder and shifts', () => {
  expect(asserts(`
  ASSERT(-3, -7/2); ASSERT(-1, -7%2); ASSERT(1, 7%-2); ASSERT(-3, 7/-2);
  int m = -2147483647 - 1; ASSERT(1, m / -1 == m || 1);
  unsigned u = 0xffffffffu; ASSERT(2147483647, u / 2); ASSERT(1, u % 2);
  ASSERT(16, 1 << 4); ASSERT(-4, -16 >> 2); ASSERT(0x3fffffff, 0xffffffffu >> 2); ASSERT(1, (unsigned)-1 >> 31);
  int x = 5; x <<= 2; ASSERT(20, x); x >>= 1; ASSERT(10, x); x %= 3; ASSERT(1, x); x |= 6; ASSERT(7, x); x &= 5; ASSERT(5, x); x ^= 1; ASSERT(4, x);
  x *= -3; ASSERT(-12, x); x /= 5; ASSERT(-2, x); x -= 8; ASSERT(-10, x); x += 11; ASSERT(1, x);
  `)).toBe('');
});

it('increments, decrements and wrap-around', () => {
  expect(asserts(`
  int i = 3; ASSERT(3, i++); ASSERT(4, i); ASSERT(5, ++i); ASSERT(5, i--); ASSERT(3, --i);
  unsigned char c = 255; c++; ASSERT(0, c); signed char s = 127; s++; ASSERT(-128, s);
  unsigned short h = 0; h--; ASSERT(65535, h);
  int big = 2147483647; ASSERT(-2147483648LL, (int)((unsigned)big + 1));
  ASSERT(-2, (char)254 - 256 + 0 == -2 ? -2 : (signed char)254);
  `)).toBe('');
});

it('integer constants', () => {
  expect(asserts(`
  ASSERT(255, 0xff); ASSERT(8, 010); ASSERT(5, 0b101); ASSERT(97, 'a'); ASSERT(10, '\\n'); ASSERT(255, '\\xff');
  ASSERT(4, sizeof(0)); ASSERT(4, sizeof(0u)); ASSERT(4, sizeof(0L)); ASSERT(8, sizeof(0LL)); ASSERT(8, sizeof(2147483648)); ASSERT(4, sizeof(0x80000000));
  ASSERT(1, 0x80000000 > 0); ASSERT(1, -1 < 0); ASSERT(0, -1 < 0u);
  `)).toBe('');
});
