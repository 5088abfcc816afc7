/* A remainder beside the quotient of the same operands (opt/divrem.ts: a - (a / b) * b, one
   division): unsigned and signed, negative operands, the remainder before the quotient, the
   quotient in a later block, 64-bit operands, the index split of a flat position. */
#include "test.h"

static unsigned split(unsigned u, unsigned rows, unsigned cols, unsigned *r, unsigned *c) {
  *r = u % rows;
  *c = u / rows % cols;
  return u / (rows * cols);
}
static int sgn(int a, int b) { int r = a % b; int q = a / b; return r * 1000 + q; }
static int later(int a, int b, int k) {
  int q = a / b;
  if (k > 0) return q + a % b;
  return q;
}
static long long wide(long long a, long long b) { return a / b * 10 + a % b; }
/* Loop-invariant divisions (opt/licm.ts): by a divisor a test before the loop found non-zero
   (hoisted, even from a branch), and by one nothing tested (stays: with no iteration and a
   zero divisor it must not run). */
static unsigned tested(const unsigned *x, unsigned n, unsigned k, unsigned big) {
  if (n == 0) return 0;
  unsigned s = 0;
  for (unsigned i = 0; i < k; i++) s += x[i] > big ? x[i] : 65536u / n + x[i] % n;
  return s;
}
static unsigned untested(unsigned a, unsigned n, unsigned k) {
  unsigned s = 0;
  for (unsigned i = 0; i < k; i++) s += a / n + i;
  return s;
}

int main(void) {
  static const int v[] = {0, 1, -1, 7, -7, 13, -13, 100, -100, 2147483647, -2147483647};
  for (int i = 0; i < 11; i++)
    for (int j = 0; j < 11; j++) {
      int a = HIDE(v[i]), b = HIDE(v[j]);
      if (b == 0) continue;
      ASSERT((a % b) * 1000 + a / b, sgn(a, b));
      ASSERT(a / b + a % b, later(a, b, HIDE(1)));
      ASSERT(a / b, later(a, b, HIDE(0)));
      unsigned ua = (unsigned)a, ub = (unsigned)b, r, c;
      ASSERT(ua / (ub * 3u), split(ua, ub, HIDE(3u), &r, &c));
      ASSERT(ua % ub, r);
      ASSERT(ua / ub % 3u, c);
      long long la = (long long)a * 3, lb = b;
      ASSERT(la / lb * 10 + la % lb, wide(la, lb));
    }
  static const unsigned xs[6] = {5, 900, 17, 65535, 3, 1000000};
  ASSERT(0, tested(xs, HIDE(0u), HIDE(6u), HIDE(100u)));
  unsigned want = 0;
  for (unsigned i = 0; i < 6; i++) want += xs[i] > 100u ? xs[i] : 65536u / 7u + xs[i] % 7u;
  ASSERT(want, tested(xs, HIDE(7u), HIDE(6u), HIDE(100u)));
  ASSERT(0, untested(HIDE(5u), HIDE(0u), HIDE(0u)));
  ASSERT(3 * 2 + 3, untested(HIDE(13u), HIDE(6u), HIDE(3u)));
  return done();
}
