/* Calls with many arguments: more than the eight argument registers (the rest on the stack,
   each in a 4-byte slot, 8-byte aligned for long long), long long split between a7 and the
   stack, chars and shorts (extended by the caller), structs mixed in, results of calls as
   arguments, and a callee that calls with many arguments itself. */
#include "test.h"

static int sum10(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}
static int sum16(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l, int m, int n, int o, int p) {
  return a - b + c - d + e - f + g - h + i - j + k - l + m - n + o * p;
}
/* 7 ints then a long long: it does not fit in a7 alone, so it goes to the stack whole. */
static long long ll_split(int a, int b, int c, int d, int e, int f, int g, long long x) { return a + b + c + d + e + f + g + x; }
/* A long long after an odd number of ints takes the next even register pair. */
static long long ll_align(int a, long long x, int b, long long y) { return a * 1000 + x + b + y * 3; }
static long long ll_many(long long a, long long b, long long c, long long d, long long e, long long f) { return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6; }
static int small(char a, signed char b, unsigned char c, short d, unsigned short e, _Bool f, char g, short h, signed char i, unsigned short j) {
  return a + b + c + d + e + f + g + h + i + j;
}
struct two { int a, b; };
struct three { int a, b, c; };
static int with_structs(int a, struct two b, int c, struct three d, int e, struct two f, int g, int h, struct two i) {
  return a + b.a * 10 + b.b * 100 + c + d.a + d.b + d.c + e + f.a + f.b + g + h + i.a * 1000 + i.b * 10000;
}
static int relay(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k) {
  return sum10(k, j, i, h, g, f, e, d, c, b) + a;
}
static unsigned char ret_char(int a, int b, int c, int d, int e, int f, int g, int h, int i) { return (unsigned char)(a + b + c + d + e + f + g + h + i); }
static short ret_short(int a, int b, int c, int d, int e, int f, int g, int h, short i) { return (short)(a + i); }

/* Rotates its arguments while recursing: every stack argument is read back after a call. */
static int chain(int n, int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) {
  if (n == 0) return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
  int r = chain(n - 1, j, a, b, c, d, e, f, g, h, i);
  return r + a - j;
}

int main(void) {
  ASSERT(1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 + 100, sum10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
  ASSERT(-55, sum10(HIDE(-1), -1, -1, -1, -1, -1, -1, -1, -1, HIDE(-1)));
  ASSERT(-7 + 15 * 16, sum16(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, HIDE(16)));
  ASSERT(28 + 0x100000000LL, ll_split(1, 2, 3, 4, 5, 6, 7, HIDE(0x100000000LL)));
  ASSERT(1000 + 0x100000000LL + 2 + 3 * 0x200000000LL, ll_align(HIDE(1), 0x100000000LL, 2, 0x200000000LL));
  ASSERT(21 * 0x100000001LL, ll_many(0x100000001LL, 0x100000001LL, 0x100000001LL, 0x100000001LL, 0x100000001LL, HIDE(0x100000001LL)));
  /* Each argument converted to its parameter's type by the caller. */
  ASSERT(89441, small(HIDE(456), HIDE(251), HIDE(-6), HIDE(64536), HIDE(-5536), HIDE(7), 'z', 30000, HIDE(128), HIDE(65537)));
  ASSERT(153393, with_structs(1, (struct two){2, 3}, 4, (struct three){5, 6, 7}, 8, (struct two){9, 10}, 11, 12, (struct two){HIDE(13), 14}));
  ASSERT(276, relay(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, HIDE(11)));
  ASSERT(132, ret_char(100, 100, 100, 100, 100, 100, 100, 100, HIDE(100)));
  ASSERT(-2, ret_short(1, 0, 0, 0, 0, 0, 0, 0, HIDE(-3)));
  /* Arguments that are calls with many arguments themselves. */
  ASSERT(550, sum10(0, 0, 0, 0, 0, 0, 0, 0, 0, sum10(1, 1, 1, 1, 1, 1, 1, 1, 1, HIDE(1))));
  ASSERT(385, chain(HIDE(10), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)); /* ten rotations: back in order, the a - j terms cancel */
  ASSERT(273, chain(HIDE(3), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
  return done();
}
