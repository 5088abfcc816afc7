/* Counted loops of the shapes the back end turns into CORE-V hardware loops (rv/hwloop.ts), and
   the ones it must leave alone: up and down, steps 1, 2, 4 and -4, < <= > >= != tests, signed and
   unsigned and pointer counters, variable bounds giving 0, 1 and many iterations (also with the
   first test failing in a do-while), a counter that only counts, a 3-level nest, bodies with a
   call or a break, a body of one instruction. Each result is checked against a closed form. */
#include "test.h"

static __attribute__((noinline)) int ident(int x) { return HIDE(x); }

static int up(int lo, int hi, int step_is_2) {
  int s = 0;
  if (step_is_2) for (int i = lo; i < hi; i += 2) s += i;
  else for (int i = lo; i < hi; i++) s += i;
  return s;
}
static int up4_le(int lo, int hi) { int s = 0; for (int i = lo; i <= hi; i += 4) s = s * 3 + i; return s; }
static int down4(int hi, int lo) { int s = 0; for (int i = hi; i > lo; i -= 4) s = s * 5 + i; return s; }
static int down_ge(int hi, int lo) { int s = 0; for (int i = hi; i >= lo; i--) s = s * 7 + i; return s; }
static unsigned count_only(unsigned n) { unsigned x = 1; for (unsigned k = n; k; k--) x = x * 3 + 1; return x; }
static unsigned up_unsigned(unsigned lo, unsigned hi) { unsigned s = 0; for (unsigned i = lo; i < hi; i += 2) s += i ^ 0x55; return s; }
static int ne_up(int lo, int hi) { int s = 0; for (int i = lo; i != hi; i++) s += i * i; return s; }
static int sum_ptr(const short *p, const short *end) { int s = 0; for (; p < end; p++) s += *p; return s; }
static int do_while(int i, int n) { int s = 0; do { s += i; i++; } while (i < n); return s; }
static void scale(int *a, int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 3 + 1; }
static int tiny(int n) { int x = 0; for (int i = 0; i < n; i++) x += 3; return x; }
/* A variable start against a constant bound (the constant is the body's own, block-local). */
static __attribute__((noinline)) int from_to64(const int *p, int s) { int t = 0; for (int i = s; i < 64; i++) t += p[i]; return t; }

static long long nest3(int a, int b, int c) {
  long long s = 0;
  for (int i = 0; i < a; i++)
    for (int j = 0; j < b; j++)
      for (int k = 0; k < c; k += 2) s += i * 100 + j * 10 + k;
  return s;
}

static int with_call(int n) { int s = 0; for (int i = 0; i < n; i++) s += ident(i); return s; }
static int with_break(const int *a, int n) { int i; for (i = 0; i < n; i++) if (a[i] < 0) break; return i; }

/* The test reads j + 8 after j += 8 (row_max8's shape), and j is read after the loop. */
static int ahead(const unsigned char *x, unsigned L, unsigned *last) {
  unsigned j = 0;
  int s = 0;
  for (j = 4; j + 8 <= L; j += 8) s = s * 3 + x[j] + x[j + 4];
  *last = j;
  for (; j < L; j++) s += x[j];
  return s;
}
static int ahead_ref(const unsigned char *x, unsigned L, unsigned *last) {
  int s = 0;
  unsigned j = 4;
  while (j + 8 <= L) { s = s * 3 + x[j] + x[j + 4]; j += 8; }
  *last = j;
  while (j < L) s += x[j++];
  return s;
}
/* Strides known only at run time (a transpose's rows): pointers stepped by a register. */
static void strided(unsigned char *d, const unsigned char *s, unsigned n, int sd, int ss) {
  for (unsigned k = 0; k < n; k++) d[(int)k * sd] = s[(int)k * ss];
}
static int strided16(const short *s, unsigned n, int ss) { int t = 0; for (unsigned k = 0; k < n; k++) t = t * 3 + s[(int)k * ss + 1]; return t; }
/* A pointer stepped by 4 up to an end it meets exactly (`while (a != end)`). */
static int words_ne(const int *a, const int *end) { int s = 0; while (a != end) { s = s * 3 + *a; a += 2; } return s; }
static int down_ne(int n) { int s = 0; for (int i = n; i != 0; i -= 4) s = s * 5 + i; return s; }
/* An induction variable and a running sum both read after the loop. */
static int after(int n, int *i_out) { int i = 0, s = 0; for (; i < n; i += 2) s += i; *i_out = i; return s; }

static long long ref_up(long long lo, long long hi, long long st) { long long s = 0; for (long long i = lo; i < hi; i += st) s += i; return s; }

int main(void) {
  int z = HIDE(0), one = HIDE(1), ten = HIDE(10), big = HIDE(1000);
  ASSERT(ref_up(0, 10, 1), up(z, ten, 0));
  ASSERT(0, up(ten, z, 0));           /* 0 iterations */
  ASSERT(0, up(z, z, 0));
  ASSERT(0, up(z, one, 0));           /* 1 iteration */
  ASSERT(ref_up(-7, 1000, 1), up(-7, big, 0));
  ASSERT(ref_up(0, 10, 2), up(z, ten, 1));
  ASSERT(ref_up(1, 10, 2), up(one, ten, 1));
  ASSERT(ref_up(3, 4, 2), up(HIDE(3), HIDE(4), 1));
  ASSERT(0, up(ten, one, 1));

  int s = 0;
  for (int i = 1; i <= 9; i += 4) s = s * 3 + i;
  ASSERT(s, up4_le(one, HIDE(9)));
  ASSERT(1, up4_le(one, one));
  ASSERT(0, up4_le(ten, one));
  s = 0;
  for (int i = 10; i <= 22; i += 4) s = s * 3 + i;
  ASSERT(s, up4_le(ten, HIDE(22)));

  s = 0;
  for (int i = 1000; i > -3; i -= 4) s = s * 5 + i;
  ASSERT(s, down4(big, HIDE(-3)));
  ASSERT(0, down4(z, z));
  ASSERT(10, down4(ten, HIDE(9)));
  ASSERT(10 * 7 + 9, down_ge(ten, HIDE(9)));
  ASSERT(0, down_ge(z, one));
  ASSERT(1, down_ge(one, one));

  unsigned x = 1;
  for (int k = 0; k < 17; k++) x = x * 3 + 1;
  ASSERT(x, count_only(HIDE(17u)));
  ASSERT(1, count_only(HIDE(0u)));
  ASSERT(4, count_only(HIDE(1u)));

  unsigned us = 0;
  for (unsigned i = 0xfffffff0u; i < 0xffffff00u + 0xf9u; i += 2) us += i ^ 0x55;
  ASSERT(us, up_unsigned(HIDE(0xfffffff0u), HIDE(0xfffffff9u)));
  ASSERT(0, up_unsigned(HIDE(5u), HIDE(5u)));
  ASSERT(0x55u ^ 4u, up_unsigned(HIDE(4u), HIDE(5u)));

  ASSERT(0 + 1 + 4 + 9, ne_up(z, HIDE(4)));
  ASSERT(9 + 16, ne_up(HIDE(-4), HIDE(-2)));

  short v[37];
  for (int i = 0; i < 37; i++) v[i] = (short)(i * 11 - 150);
  int want = 0;
  for (int i = 0; i < 37; i++) want += i * 11 - 150;
  ASSERT(want, sum_ptr(v, v + HIDE(37)));
  ASSERT(0, sum_ptr(v + HIDE(5), v + 5));
  ASSERT(v[3], sum_ptr(v + 3, v + HIDE(4)));

  ASSERT(5, do_while(HIDE(5), z));    /* the first test fails: one pass */
  ASSERT(5 + 6 + 7, do_while(HIDE(5), HIDE(8)));

  int a[23];
  for (int i = 0; i < 23; i++) a[i] = i - 4;
  scale(a, HIDE(23));
  for (int i = 0; i < 23; i++) ASSERT((i - 4) * 3 + 1, a[i]);
  scale(a, HIDE(1));
  ASSERT(((0 - 4) * 3 + 1) * 3 + 1, a[0]);
  ASSERT((1 - 4) * 3 + 1, a[1]);

  ASSERT(30, tiny(ten));
  ASSERT(0, tiny(z));
  ASSERT(3, tiny(one));

  long long n3 = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 9; k += 2) n3 += i * 100 + j * 10 + k;
  ASSERT(n3, nest3(HIDE(3), HIDE(4), HIDE(9)));
  ASSERT(0, nest3(HIDE(3), z, HIDE(9)));
  ASSERT(0, nest3(one, one, one));

  ASSERT(45, with_call(ten));
  int b[8] = {3, 1, 4, 1, -5, 9, 2, 6};
  ASSERT(4, with_break(b, HIDE(8)));
  ASSERT(3, with_break(b, HIDE(3)));

  unsigned char bytes[40];
  for (int i = 0; i < 40; i++) bytes[i] = (unsigned char)(i * 7 + 3);
  for (unsigned L = 0; L <= 40; L += 3) {
    unsigned l1 = 99, l2 = 98;
    ASSERT(ahead_ref(bytes, HIDE(L), &l2), ahead(bytes, HIDE(L), &l1));
    ASSERT(l2, l1);
  }
  {
    unsigned char src[64], dst[64];
    for (int i = 0; i < 64; i++) src[i] = (unsigned char)(i * 5 + 1);
    for (int i = 0; i < 64; i++) dst[i] = 0;
    strided(dst, src, HIDE(8), HIDE(3), HIDE(7));
    for (int k = 0; k < 8; k++) ASSERT(src[k * 7], dst[k * 3]);
    strided(dst + 40, src + 63, HIDE(9), HIDE(-2), HIDE(-5));
    for (int k = 0; k < 9; k++) ASSERT(src[63 - k * 5], dst[40 - k * 2]);
    strided(dst, src + 5, HIDE(4), HIDE(1), HIDE(0));
    for (int k = 0; k < 4; k++) ASSERT(src[5], dst[k]);
    strided(dst, src, z, HIDE(1), HIDE(1));
    short sh[40];
    for (int i = 0; i < 40; i++) sh[i] = (short)(i * 37 - 500);
    int t = 0;
    for (int k = 0; k < 6; k++) t = t * 3 + sh[k * 6 + 1];
    ASSERT(t, strided16(sh, HIDE(6), HIDE(6)));
  }
  {
    int w[16];
    for (int i = 0; i < 16; i++) w[i] = i * i - 7;
    for (int m = 0; m <= 16; m += 2) {
      int s = 0;
      for (int i = 0; i < m; i += 2) s = s * 3 + w[i];
      ASSERT(s, words_ne(w, w + HIDE(m)));
    }
    for (int n = 4; n <= 24; n += 4) {
      int s = 0;
      for (int i = n; i != 0; i -= 4) s = s * 5 + i;
      ASSERT(s, down_ne(HIDE(n)));
    }
  }
  for (int n = -3; n <= 9; n++) {
    int i_out = -1;
    int s = 0, k = 0;
    for (; k < n; k += 2) s += k;
    ASSERT(s, after(HIDE(n), &i_out));
    ASSERT(n <= 0 ? 0 : k, i_out);
  }
  int d[64];
  for (int i = 0; i < 64; i++) d[i] = i;
  ASSERT(63 * 64 / 2, from_to64(d, z));
  ASSERT(60 + 61 + 62 + 63, from_to64(d, HIDE(60)));
  ASSERT(63, from_to64(d, HIDE(63)));
  ASSERT(0, from_to64(d, HIDE(64)));
  ASSERT(0, from_to64(d, HIDE(70)));

  int c = 0;
  for (int i = 0; i < 300; i += 3) c++; /* a constant count */
  ASSERT(100, HIDE(c));
  return done();
}
