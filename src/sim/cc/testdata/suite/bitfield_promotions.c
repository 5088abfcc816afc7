/* The integer promotions of bit-fields (C99 6.3.1.1p2): a field narrower than int promotes to
   int whatever its declared type, so an `unsigned f : 18` compares, divides and widens as a
   signed int; a field as wide as int keeps its signedness; a wider one (long long) its type.
   Also through what clang treats as the field's value: an assignment or compound assignment to
   it, a prefix ++ / --, the right side of a comma (a postfix ++ / -- has the declared type).
   csmith seed 885: `(c, -10L) >= g.s.f4` with `const unsigned f4 : 18` was an unsigned compare. */
#include "test.h"

#pragma pack(push)
#pragma pack(1)
struct in { int32_t x; const unsigned f4 : 18; signed f5 : 25; };
#pragma pack(pop)
struct outer { unsigned a : 22; struct in s; };
struct bits {
  unsigned u18 : 18;
  unsigned u31 : 31;
  unsigned u32 : 32;
  int s10 : 10;
  unsigned short us : 12;
  unsigned char uc : 3;
  _Bool b : 1;
  unsigned long long ull20 : 20;
  unsigned long long ull32 : 32;
  unsigned long long ull40 : 40;
};

static struct outer g[2][3] = {{{1, {2, 140, -2346}}, {3, {4, 5, 6}}}, {{7, {8, 9, 10}}, {11, {12, 345, -4003}}}};

static int vsum(int n, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += __builtin_va_arg(ap, int);
  __builtin_va_end(ap);
  return s;
}

int main(void) {
  struct bits b = {0};
  b.u18 = HIDE(5); b.u31 = HIDE(7); b.u32 = HIDE(9); b.s10 = HIDE(-3); b.us = HIDE(100); b.uc = HIDE(6); b.b = HIDE(1);
  b.ull20 = HIDE(11); b.ull32 = HIDE(13); b.ull40 = HIDE(15);
  long m10 = HIDE(-10L);
  int m1 = HIDE(-1);

  /* Narrower than int: int arithmetic. */
  ASSERT(0, m10 >= b.u18);
  ASSERT(1, b.u18 > m1);
  ASSERT(1, b.u31 > m1);
  ASSERT(1, b.ull20 > m1);
  ASSERT(1, b.us > m1);
  ASSERT(1, b.uc > m1);
  ASSERT(1, b.b > m1);
  ASSERT(-2, b.u18 / -2);
  ASSERT(-2, b.u18 / m1 / 2);
  ASSERT(-5, b.u18 - 10LL);
  ASSERT(-5LL, (long long)(b.u18 - 10));
  ASSERT(-1, (b.u18 - 6) >> 3);
  ASSERT(-5, -b.u18);
  ASSERT(-6, ~b.u18);
  ASSERT(4, sizeof(b.ull20 + 0));
  ASSERT(-5LL, (long long)((HIDE(1) ? b.u18 : 0) - 10));
  ASSERT(1, (HIDE(1) ? b.u18 : b.u31) > m1);
  ASSERT(14, vsum(3, b.u18, b.ull20, -2));

  /* As wide as int: unsigned stays unsigned, signed is int. */
  ASSERT(0, b.u32 > m1);
  ASSERT(0, b.ull32 > m1);
  ASSERT(0xfffffff6LL, (long long)(b.u32 - 19));
  ASSERT(1, b.s10 < 0);
  ASSERT(-1, b.s10 / 3);

  /* Wider than int: its own type (unsigned long long). */
  ASSERT(0, b.ull40 > m1);
  ASSERT(8, sizeof(b.ull40 + 0));

  /* Compound assignment computes in the promoted type. */
  b.u18 = HIDE(100);
  b.u18 /= HIDE(-3);
  ASSERT(0x3ffdf, b.u18); /* -33 in 18 bits */
  b.u18 = HIDE(9);
  b.u18 %= HIDE(-4);
  ASSERT(1, b.u18);
  b.u32 = HIDE(100);
  b.u32 /= HIDE(-3);
  ASSERT(0, b.u32); /* 100 / 0xfffffffd */

  /* The value of =, op=, prefix ++ / -- and ',' on a field promotes like the field. */
  b.u18 = 3;
  ASSERT(1, (b.u18 = HIDE(4)) > m1);
  ASSERT(1, (b.u18 += 1) > m1);
  ASSERT(1, (++b.u18) > m1);
  ASSERT(1, (--b.u18) > m1);
  ASSERT(1, (HIDE(0), b.u18) > m1);
  ASSERT(0, (b.u18++) > m1); /* clang: a postfix ++ has the declared type, unsigned int */
  ASSERT(6, b.u18);
  ASSERT(1, (b.u32 = HIDE(4)) > 2u);
  ASSERT(0, (b.u32 = HIDE(4)) > m1);

  /* A switch on a field promotes it too. */
  int k = 0;
  b.u18 = 0x3ffff;
  switch (b.u18) { case -1: k = 1; break; case 0x3ffff: k = 2; break; default: k = 3; }
  ASSERT(2, k);

  /* Nested, const and packed, as csmith writes it. */
  int i = HIDE(1), j = HIDE(1);
  ASSERT(0, (HIDE(0), -10L) >= g[0][0].s.f4);
  ASSERT(0, (HIDE(0), -10L) >= g[i][j].s.f4);
  ASSERT(1, (((HIDE(0), -10L) >= g[i][j].s.f4) ^ 1u) & g[i][j].s.f5);
  ASSERT(1, g[i][j].s.f5 < g[i][j].a);
  ASSERT(-1, (g[1][1].s.f4 - 346) / 1);
  return done();
}
