// The integer promotions and the usual arithmetic conversions (C99 6.3.1), on ilp32 with an
// unsigned plain char (RISC-V).
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('promotions and usual arithmetic conversions', () => {
  expect(asserts(`
  unsigned char uc = 200; signed char sc = -56; char c = 200; short s = -1; unsigned short us = 65535;
  ASSERT(400, uc + uc); ASSERT(144, sc + uc); ASSERT(200, c); ASSERT(1, c > 0); ASSERT(4, sizeof(uc + uc)); ASSERT(4, sizeof(+sc));
  ASSERT(-1, s); ASSERT(65535, us); ASSERT(65534, us + s); ASSERT(1, s < 0); ASSERT(1, us > s);
  ASSERT(0, -1 < 1u); ASSERT(1, -1 < 1LL); ASSERT(0, -1LL < 1ull); ASSERT(1, -1 < (unsigned short)1);
  ASSERT(4294967295LL, (unsigned)-1); ASSERT(1, (unsigned)-1 == -1); ASSERT(8, sizeof(1u + 1LL)); ASSERT(1, 1u + -2LL < 0);
  ASSERT(0x7fffffff, 0xfffffffeu >> 1); ASSERT(-1, (int)0xffffffffu >> 31); ASSERT(-2147483648LL, (int)(1u << 31));
  unsigned char m = 0x80; ASSERT(0x100, m << 1); ASSERT(0, (unsigned char)(m << 1)); ASSERT(-129, ~m + 0); ASSERT(4, sizeof(~m));
  _Bool bl = 5; ASSERT(1, bl); bl = 2; ASSERT(1, bl); ASSERT(1, sizeof bl);
  short sh = 0x7fff; sh++; ASSERT(-32768, sh); unsigned u = 3; int n = -5; ASSERT(1, u + n > 100); ASSERT(-2, (int)(u + n));
  long l = -1; unsigned long ul = 1; ASSERT(0, l < ul);
  `)).toBe('');
});
