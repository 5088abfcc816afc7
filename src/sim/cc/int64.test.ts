// 64-bit integers: arithmetic, division and remainder (signed, unsigned), shifts across the
// word boundary, comparisons, conversions to and from 32-bit types.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('long long arithmetic', () => {
  expect(asserts(`
  long long a = 0x123456789LL, b = -3; ASSERT(0x123456786LL, a + b); ASSERT(-0x369d0369bLL, a * b); ASSERT(-0x61172283LL, a / b); ASSERT(0, a % b);
  unsigned long long u = 0xffffffffffffffffULL; ASSERT(1, u / u); ASSERT(0x7fffffffffffffffLL, u >> 1); ASSERT(1, u > 0); ASSERT(1, (long long)u < 0);
  ASSERT(0x100000000LL, 1LL << 32); ASSERT(-2, -8LL >> 2); ASSERT(0x80000000LL, (long long)1 << 31);
  int i = -1; unsigned w = 0xffffffffu; ASSERT(-1, (long long)i); ASSERT(0xffffffffLL, (long long)w); ASSERT(0x89, (unsigned char)a);
  ASSERT(0x23456789, (int)a); ASSERT(1, a > i); ASSERT(0, a == (int)a); ASSERT(8, sizeof(a + 1));
  long long c = 5; c += 1LL << 40; c <<= 1; ASSERT(0x2000000000aLL, c); c--; ASSERT(0x20000000009LL, c);
  unsigned long long x = 10000000000ULL; ASSERT(3, x / 3000000000ULL); ASSERT(1000000000, x % 3000000000ULL);
  `)).toBe('');
});
