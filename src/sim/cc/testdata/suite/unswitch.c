/* Loops that branch on a value from outside them (opt/unswitch.ts copies such a loop, one copy
   per way): a kernel's signedness flag, a mode chosen per call, a test that leaves the loop, a
   flag in a loop whose values are read after it (through the exit's phis), two flags in one
   loop, a flag tested in an inner loop of a nest. Each result against a loop written without
   the flag. */
#include "test.h"

static int sum8(const unsigned char *x, int n, int is_signed) {
  int s = 0;
  for (int i = 0; i < n; i++) s += is_signed ? (int)(signed char)x[i] : (int)x[i];
  return s;
}
static int mode(const int *a, int n, int m, int *last) {
  int s = 0, i;
  for (i = 0; i < n; i++) {
    if (m) s = s * 3 + a[i]; else s -= a[i] * 2;
    *last = s;
  }
  return s + i;
}
static int find(const int *a, int n, int stop_at_neg, int v) {
  int i;
  for (i = 0; i < n; i++) {
    if (stop_at_neg) { if (a[i] < 0) break; }
    else if (a[i] == v) break;
  }
  return i;
}
static unsigned two(const unsigned char *x, int n, int f, int g) {
  unsigned h = 5;
  for (int i = 0; i < n; i++) {
    unsigned v = x[i];
    if (f) v ^= 0x5a;
    if (g) h = h * 33 + v; else h += v << (i & 3);
  }
  return h;
}
static long long nest(const int *a, int rows, int cols, int neg) {
  long long s = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) s += neg ? -a[r * cols + c] : a[r * cols + c] * (r + 1);
  return s;
}

int main(void) {
  unsigned char x[37];
  int a[37];
  for (int i = 0; i < 37; i++) { x[i] = (unsigned char)(i * 29 + 200); a[i] = i * 7 - 40; }
  for (int n = 0; n <= 37; n += 6) {
    int s = 0, u = 0;
    for (int i = 0; i < n; i++) { s += (signed char)x[i]; u += x[i]; }
    ASSERT(s, sum8(x, HIDE(n), HIDE(1)));
    ASSERT(u, sum8(x, HIDE(n), HIDE(0)));
    int m1 = 0, m0 = 0, l1 = -1, l0 = -1, k1 = -1, k0 = -1;
    for (int i = 0; i < n; i++) { m1 = m1 * 3 + a[i]; m0 -= a[i] * 2; l1 = m1; l0 = m0; }
    ASSERT(m1 + n, mode(a, HIDE(n), HIDE(1), &k1));
    ASSERT(m0 + n, mode(a, HIDE(n), HIDE(0), &k0));
    if (n) { ASSERT(l1, k1); ASSERT(l0, k0); }
    unsigned h[2][2];
    for (int f = 0; f < 2; f++) for (int g = 0; g < 2; g++) {
      unsigned r = 5;
      for (int i = 0; i < n; i++) { unsigned v = x[i] ^ (f ? 0x5a : 0); r = g ? r * 33 + v : r + (v << (i & 3)); }
      h[f][g] = r;
      ASSERT(h[f][g], two(x, HIDE(n), HIDE(f), HIDE(g)));
    }
  }
  ASSERT(5, find(a, HIDE(37), HIDE(0), HIDE(-5)));
  ASSERT(0, find(a, HIDE(37), HIDE(1), HIDE(0)));
  ASSERT(37, find(a, HIDE(37), HIDE(0), HIDE(1)));
  int b[6] = {3, 1, 4, 1, -5, 9};
  ASSERT(4, find(b, HIDE(6), HIDE(1), HIDE(0)));
  long long p = 0, q = 0;
  for (int r = 0; r < 4; r++) for (int c = 0; c < 9; c++) { p -= a[r * 9 + c]; q += a[r * 9 + c] * (r + 1); }
  ASSERT(p, nest(a, HIDE(4), HIDE(9), HIDE(1)));
  ASSERT(q, nest(a, HIDE(4), HIDE(9), HIDE(0)));
  return done();
}
