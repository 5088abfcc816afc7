/* The C shapes the back end selects special instructions for (CORE-V min/max/abs/clip,
   post-increment loads and stores, branches against small immediates, multiply-accumulate), with
   their edge cases: ties, INT_MIN/INT_MAX bounds, unsigned variants, negative strides, zero-trip
   loops and 8/16-bit elements. Each is checked against a plainly written reference. */
#include "test.h"
#include <limits.h>

static int smax(int a, int b) { return a > b ? a : b; }
static int smin(int a, int b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static int sabs(int a) { return a < 0 ? -a : a; }
static int clip8(int v) { return v < -128 ? -128 : v > 127 ? 127 : v; }
static int clipu8(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
static int clip_to(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int relu(int v) { return v > 0 ? v : 0; }

static int dot_s8(const int8_t *a, const int8_t *b, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
static int dot_u8s8(const uint8_t *a, const int8_t *b, int n) { int s = 0; while (n--) s += *a++ * *b++; return s; }
static long long sum_s16(const int16_t *p, int n) { long long s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
static void requant(const int32_t *in, int8_t *out, int n, int mul, int shift) {
  for (int i = 0; i < n; i++) { int v = (in[i] * mul) >> shift; *out++ = (int8_t)clip8(v); }
}
static void copy_back(uint8_t *dst, const uint8_t *src, int n) { for (int i = n - 1; i >= 0; i--) dst[i] = src[i]; }
static int count_small(const int *p, int n) { int c = 0; for (int i = 0; i < n; i++) { if (p[i] == 5) c += 1; if (p[i] < -3) c += 10; if (p[i] >= 16) c += 100; } return c; }

int main(void) {
  static const int vals[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, INT_MAX, INT_MIN, INT_MIN + 1, 1000, -1000};
  enum { N = sizeof vals / sizeof vals[0] };
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int a = HIDE(vals[i]);
    if (clip8(a) != (a < -128 ? -128 : (a > 127 ? 127 : a))) bad++;
    if (clipu8(a) != (a < 0 ? 0 : (a > 255 ? 255 : a))) bad++;
    if (relu(a) != (a > 0 ? a : 0)) bad++;
    if (a != INT_MIN && sabs(a) != (a < 0 ? -a : a)) bad++;
    for (int j = 0; j < N; j++) {
      int b = HIDE(vals[j]);
      int mx = a, mn = a;
      if (b > mx) mx = b;
      if (b < mn) mn = b;
      if (smax(a, b) != mx || smin(a, b) != mn) bad++;
      unsigned ua = (unsigned)a, ub = (unsigned)b, umx = ua, umn = ua;
      if (ub > umx) umx = ub;
      if (ub < umn) umn = ub;
      if (umax(ua, ub) != umx || umin(ua, ub) != umn) bad++;
      if (b >= 0 && clip_to(a, -b - 1, b) != (a < -b - 1 ? -b - 1 : a > b ? b : a)) bad++;
    }
  }
  ASSERT(0, bad);
  ASSERT(127, clip8(HIDE(INT_MAX)));
  ASSERT(-128, clip8(HIDE(INT_MIN)));
  ASSERT(0, clipu8(HIDE(INT_MIN)));
  ASSERT(INT_MAX, sabs(HIDE(-INT_MAX)));
  ASSERT(0x80000000u, umax(HIDE(0x80000000u), 5));
  ASSERT(5, umin(HIDE(0x80000000u), 5));

  int8_t a[37], b[37];
  uint8_t ua[37];
  int ref = 0, uref = 0;
  for (int i = 0; i < 37; i++) {
    a[i] = (int8_t)(i * 29 - 100);
    b[i] = (int8_t)(50 - i * 7);
    ua[i] = (uint8_t)(i * 29 - 100);
    ref += a[i] * b[i];
    uref += ua[i] * b[i];
  }
  ASSERT(ref, dot_s8(a, b, HIDE(37)));
  ASSERT(uref, dot_u8s8(ua, b, HIDE(37)));
  ASSERT(0, dot_s8(a, b, HIDE(0)));
  ASSERT(a[0] * b[0], dot_s8(a, b, HIDE(1)));

  int16_t h[21];
  long long href = 0;
  for (int i = 0; i < 21; i++) { h[i] = (int16_t)(i * 4000 - 40000); href += h[i]; }
  ASSERT(href, sum_s16(h, 21));

  int32_t acc[8] = {0, 1000, -1000, 100000, -100000, 127 * 64, -128 * 64, 12345};
  int8_t q[8];
  requant(acc, q, 8, HIDE(3), 6);
  ASSERT(0, q[0]);
  ASSERT(46, q[1]);
  ASSERT(-47, q[2]);
  ASSERT(127, q[3]);
  ASSERT(-128, q[4]);
  ASSERT(127, q[5]);
  ASSERT(-128, q[6]);
  ASSERT(127, q[7]);

  uint8_t src[10], dst[10];
  for (int i = 0; i < 10; i++) { src[i] = (uint8_t)(i * 25); dst[i] = 0; }
  copy_back(dst, src, 10);
  ASSERT(0, memcmp(dst, src, 10));
  copy_back(dst, src, 0);

  int small[8] = {5, -4, 16, 15, -3, 5, 100, -100};
  ASSERT(2 + 20 + 200, count_small(small, 8));
  return done();
}
