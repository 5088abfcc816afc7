/* 64-bit integers (register pairs on rv32): add/sub with carries, multiplication (64x64 and
   32x32->64), signed and unsigned division and remainder (the libc's helpers), shifts by every
   amount, signed and unsigned comparisons, conversions to and from 32-bit types. */
#include "test.h"

typedef long long i64;
typedef unsigned long long u64;

static u64 shl(u64 v, int s) { return v << s; }
static u64 lshr(u64 v, int s) { return v >> s; }
static i64 ashr(i64 v, int s) { return v >> s; }

/* Shifts by one bit at a time: the reference for the variable shifts. */
static u64 shl_slow(u64 v, int s) { while (s--) v += v; return v; }
static u64 lshr_slow(u64 v, int s) { while (s--) v = (v / 2); return v; }

int main(void) {
  i64 a = HIDE(0x123456789LL), b = HIDE(-0x100000001LL);
  u64 ua = (u64)a, max = HIDE(~0ULL);
  ASSERT(8, sizeof(i64));
  ASSERT(0x123456789LL + -0x100000001LL, a + b);
  ASSERT(0x22345678aLL, a - b);
  ASSERT(0, max + 1);
  ASSERT(0xffffffffULL + 1, HIDE(0xffffffffULL) + 1); /* carry out of the low word */
  ASSERT(0xffffffffULL, HIDE(0x100000000ULL) - 1);   /* borrow into the high word */
  ASSERT(-1, HIDE(0LL) - 1);
  ASSERT(0x123456789LL * -0x100000001LL, a * b);
  ASSERT(0xfffffffe00000001ULL, HIDE(0xffffffffULL) * HIDE(0xffffffffULL));
  ASSERT(0x1110c000, (u64)HIDE(0x1234u) * HIDE(0xf000u));
  ASSERT(-4294967296LL, (i64)HIDE(-65536) * HIDE(65536));
  ASSERT(0x3fffffff00000001LL, (i64)HIDE(0x7fffffff) * (i64)HIDE(0x7fffffff));
  ASSERT(0xfffffffe00000001ULL, (u64)HIDE(0xffffffffu) * HIDE(0xffffffffu));

  ASSERT(0x123456789LL / 1000, a / 1000);
  ASSERT(0x123456789LL % 1000, a % 1000);
  ASSERT(-0x123456789LL / 7, -a / 7);
  ASSERT(-0x123456789LL % 7, -a % 7);
  ASSERT(0x123456789LL / -0x100000001LL, a / b);
  ASSERT(0x123456789LL % -0x100000001LL, a % b);
  ASSERT(0xffffffffffffffffULL / 3, max / 3);
  ASSERT(0xffffffffffffffffULL % 10, max % 10);
  ASSERT(1, max / max);
  ASSERT(0x8000000000000000ULL / 0x100000000ULL, HIDE(0x8000000000000000ULL) / HIDE(0x100000000ULL));
  ASSERT(0, HIDE(5ULL) / HIDE(6ULL));
  ASSERT(5, HIDE(5ULL) % HIDE(6ULL));
  ASSERT(-9223372036854775807LL - 1, HIDE(-9223372036854775807LL - 1) / 1);

  /* Every shift amount, against repeated single-bit shifts. */
  u64 pat = HIDE(0x8123456789abcdefULL);
  int bad = 0;
  for (int s = 0; s < 64; s++) {
    int hs = HIDE(s);
    if (shl(pat, hs) != shl_slow(pat, s)) bad++;
    if (lshr(pat, hs) != lshr_slow(pat, s)) bad++;
    if ((u64)ashr((i64)pat, hs) != (lshr_slow(pat, s) | (s ? ~0ULL << (64 - s) : 0))) bad++;
  }
  ASSERT(0, bad);
  ASSERT(0x23456789abcdef00ULL, pat << 8);
  ASSERT(0x89abcdef00000000ULL, pat << 32);
  ASSERT(0x0000000081234567ULL, pat >> 32);
  ASSERT(0xffffffff81234567ULL, (u64)((i64)pat >> 32));
  ASSERT(0x812345, pat >> 40 << 8 >> 8 << 8 >> 8);
  ASSERT(1, pat >> 63);
  ASSERT(-1, (i64)pat >> 63);

  /* Comparisons: signed, unsigned, equal high words, equal low words. */
  i64 x = HIDE(0x100000000LL), y = HIDE(0xffffffffLL), n = HIDE(-1LL);
  ASSERT(1, x > y);
  ASSERT(0, x < y);
  ASSERT(1, n < y);
  ASSERT(0, (u64)n < (u64)y);
  ASSERT(1, (u64)n > (u64)x);
  ASSERT(1, x >= x);
  ASSERT(0, x != x);
  ASSERT(1, HIDE(0x100000001LL) > HIDE(0x100000000LL));
  ASSERT(1, HIDE(0x200000000LL) > HIDE(0x1ffffffffLL));
  ASSERT(1, HIDE(-0x100000000LL) < HIDE(-0xffffffffLL));
  ASSERT(0, HIDE(0x100000000LL) == HIDE(0x200000000LL));
  ASSERT(0, HIDE(0x100000001LL) == HIDE(0x100000000LL));
  ASSERT(1, HIDE(0LL) == 0);
  ASSERT(1, !HIDE(0LL));
  ASSERT(0, !HIDE(0x100000000LL));

  /* Conversions. */
  int i = HIDE(-5);
  unsigned u = HIDE(0xfffffffbu);
  ASSERT(-5, (i64)i);
  ASSERT(0xfffffffbULL, (u64)u);
  ASSERT(0xfffffffffffffffbULL, (u64)i);
  ASSERT(0x89abcdef, (unsigned)pat);
  ASSERT((int)0x89abcdef, (int)pat);
  ASSERT((short)0xcdef, (short)pat);
  ASSERT(0xef, (unsigned char)pat);
  ASSERT(-17, (signed char)pat);
  ASSERT(0xfffffffbULL + 0xfffffffbULL, (u64)u + u);
  ASSERT(0x1fffffff6LL, (i64)u + u);
  ASSERT(0xfffffff6, u + u); /* 32-bit wrap before the conversion */

  /* Bitwise operations and negation across both words. */
  ASSERT(0x0123456789abcdefULL ^ 0xffffffff00000000ULL, HIDE(0x0123456789abcdefULL) ^ 0xffffffff00000000ULL);
  ASSERT(0x89abcdefULL, pat & 0xffffffffULL);
  ASSERT(0xffffffff89abcdefULL, pat | 0x7effffff00000000ULL);
  ASSERT(~0x8123456789abcdefULL, ~pat);
  ASSERT(-0x123456789LL, -a);
  ASSERT(0x100000000LL, -(i64)HIDE(-0x100000000LL));

  /* Compound assignments and a 64-bit loop counter. */
  u64 acc = 1;
  for (i64 k = 0; k < 40; k++) acc *= 3;
  ASSERT(12157665459056928801ULL, acc);
  acc >>= 13;
  ASSERT(12157665459056928801ULL >> 13, acc);
  acc %= 1000003;
  ASSERT((12157665459056928801ULL >> 13) % 1000003, acc);
  u64 f = 1;
  for (unsigned k = 1; k <= 20; k++) f *= k;
  ASSERT(2432902008176640000ULL, f);
  ASSERT(2432902008176640000ULL / 19, f / HIDE(19u));
  return done();
}
