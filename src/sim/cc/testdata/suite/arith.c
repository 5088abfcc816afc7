/* Integer arithmetic on int and unsigned: operators, precedence, wrap-around, division and
   remainder signs, shifts, comparisons, division by constants against division at run time. */
#include "test.h"
#include <limits.h>

static int div_by(int a, int b) { return a / b; }
static int rem_by(int a, int b) { return a % b; }
static unsigned udiv_by(unsigned a, unsigned b) { return a / b; }
static unsigned urem_by(unsigned a, unsigned b) { return a % b; }

static void constant_divisors(void) {
  /* Every divisor the back end may turn into a multiply, for values around the edges. */
  static const int xs[] = {0, 1, -1, 2, -2, 6, -6, 7, -7, 99, -99, 1000, -1000, 32767, -32768, 65535, INT_MAX, INT_MIN + 1, INT_MIN};
  int bad = 0;
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    int x = HIDE(xs[i]);
    if (x / 3 != div_by(x, 3) || x % 3 != rem_by(x, 3)) bad++;
    if (x / 7 != div_by(x, 7) || x % 7 != rem_by(x, 7)) bad++;
    if (x / 10 != div_by(x, 10) || x % 10 != rem_by(x, 10)) bad++;
    if (x / -5 != div_by(x, -5) || x % -5 != rem_by(x, -5)) bad++;
    if (x / 16 != div_by(x, 16) || x % 16 != rem_by(x, 16)) bad++;
    if (x / 641 != div_by(x, 641) || x % 641 != rem_by(x, 641)) bad++;
    unsigned u = (unsigned)x;
    if (u / 3 != udiv_by(u, 3) || u % 3 != urem_by(u, 3)) bad++;
    if (u / 7 != udiv_by(u, 7) || u % 7 != urem_by(u, 7)) bad++;
    if (u / 10 != udiv_by(u, 10) || u % 10 != urem_by(u, 10)) bad++;
    if (u / 64 != udiv_by(u, 64) || u % 64 != urem_by(u, 64)) bad++;
    if (u / 0x80000001u != udiv_by(u, 0x80000001u)) bad++;
  }
  ASSERT(0, bad);
}

int main(void) {
  ASSERT(0, 0);
  ASSERT(42, 42);
  ASSERT(21, 5 + 20 - 4);
  ASSERT(41, 12 + 34 - 5);
  ASSERT(47, 5 + 6 * 7);
  ASSERT(15, 5 * (9 - 6));
  ASSERT(4, (3 + 5) / 2);
  ASSERT(-10, -10);
  ASSERT(10, - -10);
  ASSERT(10, - - +10);
  ASSERT(7, 1 + 2 * 3);

  int a = HIDE(17), b = HIDE(5), n = HIDE(-17);
  ASSERT(22, a + b);
  ASSERT(12, a - b);
  ASSERT(85, a * b);
  ASSERT(3, a / b);
  ASSERT(2, a % b);
  ASSERT(-3, n / b);
  ASSERT(-2, n % b);
  ASSERT(3, n / -b);
  ASSERT(-2, n % -b);
  ASSERT(-3, a / -b);
  ASSERT(2, a % -b);
  ASSERT(-85, n * b);
  ASSERT(1, a & b);
  ASSERT(21, a | b);
  ASSERT(20, a ^ b);
  ASSERT(-18, ~a);
  ASSERT(0, !a);
  ASSERT(1, !!a);
  ASSERT(544, a << b);
  ASSERT(0, a >> b);
  ASSERT(-1, n >> b);
  ASSERT(-9, n >> 1);
  ASSERT(0x7ffffff7, (unsigned)n >> 1);
  ASSERT(-2147483648LL, (int)(1u << 31));
  ASSERT(1, HIDE(INT_MIN) < 0);

  /* Unsigned wrap-around is defined; signed overflow is not, so it is not tested. */
  unsigned u = HIDE(0xffffffffu);
  ASSERT(0, u + 1);
  ASSERT(0xfffffffe, u * 2);
  ASSERT(0xffffffff, 0u - 1);
  ASSERT(1, u / u);
  ASSERT(0x7fffffff, u / 2);
  ASSERT(0x55555555, u / 3);
  ASSERT(0, u % 3);
  ASSERT(1, u > 5);
  ASSERT(0, (int)u > 5);
  ASSERT(1, HIDE(-1) < HIDE(1));
  ASSERT(0, (unsigned)HIDE(-1) < (unsigned)HIDE(1));
  ASSERT(0, HIDE(-1) < 1u); /* -1 converts to unsigned */

  /* Comparisons yield int 0 or 1. */
  ASSERT(1, a > b);
  ASSERT(0, a < b);
  ASSERT(1, a >= 17);
  ASSERT(1, a <= 17);
  ASSERT(0, a == b);
  ASSERT(1, a != b);
  ASSERT(4, sizeof(a < b));
  ASSERT(2, (a > b) + (b < a));

  /* Compound assignment, increments. */
  int x = HIDE(10);
  x += 5; ASSERT(15, x);
  x -= 3; ASSERT(12, x);
  x *= 4; ASSERT(48, x);
  x /= 5; ASSERT(9, x);
  x %= 4; ASSERT(1, x);
  x <<= 6; ASSERT(64, x);
  x >>= 2; ASSERT(16, x);
  x |= 3; ASSERT(19, x);
  x &= 6; ASSERT(2, x);
  x ^= 7; ASSERT(5, x);
  ASSERT(5, x++);
  ASSERT(6, x);
  ASSERT(7, ++x);
  ASSERT(7, x--);
  ASSERT(5, --x);
  x = 3;
  int z = (x += 2, x * 10);
  ASSERT(50, z);
  ASSERT(5, x);

  /* Ternary and logical operators, with side effects that must not happen. */
  int calls = 0;
  ASSERT(1, a > 0 || ++calls);
  ASSERT(0, a < 0 && ++calls);
  ASSERT(0, calls);
  ASSERT(1, a > 0 && ++calls);
  ASSERT(1, calls);
  ASSERT(17, a > b ? a : b);
  ASSERT(5, a < b ? a : b);
  ASSERT(3, 0 ? 1 : 2 ? 3 : 4);

  /* Powers of two, odd shifts and mixed operations the back end may combine. */
  unsigned w = HIDE(0x12345678u);
  ASSERT(0x23456780, w << 4);
  ASSERT(0x01234567, w >> 4);
  ASSERT(0x78, w & 0xff);
  ASSERT(0x5678, w & 0xffff);
  ASSERT(0x1234, w >> 16);
  ASSERT(0x56781234, (w << 16) | (w >> 16));
  ASSERT(0x12345678u * 9, w * 9);
  ASSERT(0x12345678u * 0xfffffffbu, w * -5);
  ASSERT(0x12345678 + 2047, w + 2047);
  ASSERT(0x12345678 + 2048, w + 2048);
  ASSERT(0x12345678 - 2048, w - 2048);
  ASSERT(0x12345678 - 2049, w - 2049);
  ASSERT(0x12345678 ^ 0xfffff800, w ^ -2048);
  int s = HIDE(-100);
  ASSERT(-25, s / 4);
  ASSERT(-33, s / 3);
  ASSERT(-1, s % 3);
  ASSERT(0, s % 4);
  ASSERT(-12, s / 8);
  ASSERT(-4, s % 8);
  ASSERT(100, s < 0 ? -s : s);

  constant_divisors();
  return done();
}
