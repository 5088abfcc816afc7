/* `#pragma GCC unroll N` on loops whose trip count is known only at run time (opt/unroll.ts):
   a main loop of N copies run trip/N times, then the original loop for the rest. Counts from
   negative to past N, unsigned and signed bounds, steps of 1 and 4, `!=` tests counting up and
   down, a pointer induction variable, bounds next to the type's limits, values read after the
   loop. Each result against the same loop written without the pragma in main. */
#include "test.h"
#include <limits.h>

static int dot(const int *a, int n) {
  int s = 0;
#pragma GCC unroll 4
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}
static unsigned strided(const unsigned char *a, unsigned lo, unsigned hi) {
  unsigned s = 0;
#pragma GCC unroll 2
  for (unsigned i = lo; i < hi; i += 4) s = s * 3 + a[i];
  return s;
}
static int upto(const int *a, unsigned n, unsigned *last) {
  int s = 0;
  unsigned i = 0;
#pragma GCC unroll 8
  for (; i != n; i++) s ^= a[i] << (i & 7);
  *last = i;
  return s;
}
static int down(const int *a, int n) {
  int s = 1;
#pragma GCC unroll 4
  for (int i = n; i != 0; i--) s = s * 5 + a[i];
  return s;
}
static int shifts(short *d, int n, int z) {
#pragma GCC unroll 4
  for (int p = 0; p < n; p++) d[-p] = (short)(d[255 - p] >> z);
  return d[0] + d[-1];
}
static int bytes(const unsigned char *p, const unsigned char *end) {
  int s = 0;
#pragma GCC unroll 4
  for (; p < end; p++) s = s * 7 + *p;
  return s;
}
static long long near_max(int from) {
  long long s = 0;
#pragma GCC unroll 4
  for (int i = from; i < INT_MAX; i++) s += i & 0xff;
  return s;
}
static unsigned near_umax(unsigned from, unsigned to) {
  unsigned s = 0;
#pragma GCC unroll 2
  for (unsigned i = from; i < to; i += 4) s += i >> 28;
  return s;
}

static unsigned pairs(const unsigned char *a, unsigned n, unsigned *k_after) {
  unsigned s = 0, k = 0;
#pragma GCC unroll 2
  for (; k + 2 <= n; k += 2) s = s * 5 + a[k] * 3 + a[k + 1];
  *k_after = k;
  return s;
}
static int ahead(const int *a, int n) {
  int s = 0;
#pragma GCC unroll 4
  for (int i = 0; i + 3 < n; i++) s += a[i] - a[i + 3];
  return s;
}
static int wide_up(const int *a, int n) {
  int s = 0;
#pragma GCC unroll 2
  for (int i = -4; i <= n - 4; i += 2) s = s * 3 + a[i + 4];
  return s;
}

int main(void) {
  int a[64];
  unsigned char x[200];
  short sh[600];
  for (int i = 0; i < 64; i++) a[i] = i * 7 - 100;
  for (int i = 0; i < 200; i++) x[i] = (unsigned char)(i * 29 + 11);
  for (int n = -3; n <= 21; n++) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i] * (i + 1);
    ASSERT(s, dot(a, HIDE(n)));
    unsigned lo = n < 0 ? 5 : (unsigned)n, hi = 3 * lo + 2, t = 0;
    for (unsigned i = lo; i < hi; i += 4) t = t * 3 + x[i];
    ASSERT(t, strided(x, HIDE(lo), HIDE(hi)));
    ASSERT(0, strided(x, HIDE(hi), HIDE(lo)));
    if (n >= 0) {
      int u = 0;
      unsigned last = 99;
      for (unsigned i = 0; i != (unsigned)n; i++) u ^= a[i] << (i & 7);
      ASSERT(u, upto(a, HIDE((unsigned)n), &last));
      ASSERT(n, last);
      int v = 1;
      for (int i = n; i != 0; i--) v = v * 5 + a[i];
      ASSERT(v, down(a, HIDE(n)));
      ASSERT(0, bytes(x + n, x + HIDE(0)));
      int w = 0;
      for (const unsigned char *p = x; p < x + 3 * n; p++) w = w * 7 + *p;
      ASSERT(w, bytes(x, x + HIDE(3 * n)));
    }
    for (int i = 0; i < 600; i++) sh[i] = (short)(i * 3 - 700);
    int m = n < 0 ? 0 : n, z = m & 3;
    short e0 = m > 0 ? (short)(sh[300 + 255] >> z) : sh[300], e1 = m > 1 ? (short)(sh[300 + 254] >> z) : sh[299];
    ASSERT(e0 + e1, shifts(sh + 300, HIDE(n), HIDE(z)));
  }
  for (int n = -5; n <= 23; n++) {
    if (n >= 0) {
      unsigned p = 0, k = 0, ka = 77;
      for (; k + 2 <= (unsigned)n; k += 2) p = p * 5 + x[k] * 3 + x[k + 1];
      ASSERT(p, pairs(x, HIDE((unsigned)n), &ka));
      ASSERT(k, ka);
    }
    int q = 0, r = 0;
    for (int i = 0; i + 3 < n; i++) q += a[i] - a[i + 3];
    ASSERT(q, ahead(a, HIDE(n)));
    for (int i = -4; i <= n - 4; i += 2) r = r * 3 + a[i + 4];
    ASSERT(r, wide_up(a, HIDE(n)));
  }
  for (int k = 0; k <= 9; k++) {
    long long s = 0;
    for (int i = INT_MAX - k; i < INT_MAX; i++) s += i & 0xff;
    ASSERT(s, near_max(HIDE(INT_MAX - k)));
    unsigned u = 0, from = 0xffffffe0u + (unsigned)k;
    for (unsigned i = from; i < 0xfffffff8u; i += 4) u += i >> 28;
    ASSERT(u, near_umax(HIDE(from), HIDE(0xfffffff8u)));
  }
  return done();
}
