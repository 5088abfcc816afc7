/* Minimum, maximum and absolute value written with ?: (rv/selects.ts makes them cv.max,
   cv.maxu, cv.min, cv.minu, cv.abs with CORE-V): each compare direction and operand order,
   signed and unsigned, equal operands, the extremes (INT_MIN's absolute value in unsigned arithmetic), a
   pointer maximum, a select whose other phi keeps the branch, and a running maximum in a loop. */
#include "test.h"
#include <limits.h>

static int smax(int a, int b) { return a > b ? a : b; }
static int smax2(int a, int b) { return a >= b ? a : b; }
static int smin(int a, int b) { return a < b ? a : b; }
static int smin2(int a, int b) { return b > a ? a : b; }
static int smax3(int a, int b) { return a <= b ? b : a; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static unsigned umin(unsigned a, unsigned b) { return a <= b ? a : b; }
static int sabs(int v) { return v < 0 ? -v : v; }
static int sabs2(int v) { return v >= 0 ? v : -v; }
static int sabs3(int v) { return v > 0 ? v : -v; }
static unsigned uabs(int v) { return v < 0 ? 0u - (unsigned)v : (unsigned)v; }
static const char *pmax(const char *p, const char *q) { return p > q ? p : q; }
static int both(int a, int b, int *other) {
  int m, o;
  if (a > b) { m = a; o = 1; } else { m = b; o = 2; }
  *other = o;
  return m;
}
static unsigned largest(const int *v, int n) {
  unsigned m = 0;
  for (int i = 0; i < n; i++) { unsigned x = v[i] < 0 ? 0u - (unsigned)v[i] : (unsigned)v[i]; m = x > m ? x : m; }
  return m;
}

int main(void) {
  static const int vals[] = {0, 1, -1, 7, -7, 100, -100, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1};
  const int n = sizeof vals / sizeof vals[0];
  for (int i = 0; i < n; i++) {
    int a = HIDE(vals[i]);
    for (int j = 0; j < n; j++) {
      int b = HIDE(vals[j]);
      ASSERT(a > b ? a : b, smax(a, b));
      ASSERT(a > b ? a : b, smax2(a, b));
      ASSERT(a < b ? a : b, smin(a, b));
      ASSERT(a < b ? a : b, smin2(a, b));
      ASSERT(a > b ? a : b, smax3(a, b));
      unsigned ua = (unsigned)a, ub = (unsigned)b;
      ASSERT(ua > ub ? ua : ub, umax(ua, ub));
      ASSERT(ua < ub ? ua : ub, umin(ua, ub));
      int o = 0;
      ASSERT(a > b ? a : b, both(a, b, &o));
      ASSERT(a > b ? 1 : 2, o);
    }
    long long want = a < 0 ? -(long long)a : a;
    if (a != INT_MIN) { /* -INT_MIN overflows: undefined in C (the unsigned form below is not) */
      ASSERT(want, sabs(a));
      ASSERT(want, sabs2(a));
      ASSERT(want, sabs3(a));
    }
    ASSERT(want, uabs(a));
  }
  char buf[8];
  ASSERT(buf + 5, pmax(HIDE(buf + 5), HIDE(buf + 2)));
  ASSERT(buf + 3, pmax(HIDE(buf + 0), HIDE(buf + 3)));
  ASSERT(0x80000000u, largest(vals, HIDE(n)));
  ASSERT(100, largest(vals, HIDE(7)));
  ASSERT(0, largest(vals, HIDE(0)));
  return done();
}
