/* Variadic functions: int, long long (an aligned register pair, or the stack), pointers,
   va_copy, passing a va_list on, many variadic arguments (beyond the eight registers), the
   libc's vsnprintf. */
#include "test.h"
#include <stdarg.h>

static int sum_ints(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static long long sum_lls(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long long);
  va_end(ap);
  return s;
}

/* A format of its own: i int, l long long, s string (its length), c char, p pointer to int. */
static long long mixed(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  long long s = 0;
  for (const char *f = fmt; *f; f++) {
    switch (*f) {
    case 'i': s = s * 3 + va_arg(ap, int); break;
    case 'l': s = s * 3 + va_arg(ap, long long); break;
    case 's': s = s * 3 + (long long)strlen(va_arg(ap, const char *)); break;
    case 'c': s = s * 3 + (char)va_arg(ap, int); break;
    case 'p': s = s * 3 + *va_arg(ap, int *); break;
    }
  }
  va_end(ap);
  return s;
}

static int sum_list(int n, va_list ap) { int s = 0; while (n--) s += va_arg(ap, int); return s; }
static int forward(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = sum_list(n, ap);
  va_end(ap);
  return s;
}

/* Reads the list twice through va_copy. */
static int twice(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  int a = 0, b = 0;
  for (int i = 0; i < n; i++) a += va_arg(ap, int);
  for (int i = 0; i < n; i++) b += va_arg(again, int) * 2;
  va_end(again);
  va_end(ap);
  return a * 1000 + b;
}

/* Seven fixed arguments: the variadic ones start in a7, a long long then goes to the stack. */
static long long late(int a, int b, int c, int d, int e, int f, int g, ...) {
  va_list ap;
  va_start(ap, g);
  long long x = va_arg(ap, long long);
  int y = va_arg(ap, int);
  va_end(ap);
  return a + b + c + d + e + f + g + x + y;
}

struct pair { int a, b; };
static int structs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) { struct pair p = va_arg(ap, struct pair); s += p.a * 10 + p.b; }
  va_end(ap);
  return s;
}

static int fmt(char *buf, size_t n, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int r = vsnprintf(buf, n, f, ap);
  va_end(ap);
  return r;
}

int main(void) {
  ASSERT(0, sum_ints(0));
  ASSERT(1, sum_ints(1, 1));
  ASSERT(6, sum_ints(3, 1, 2, 3));
  ASSERT(120, sum_ints(15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  ASSERT(-3, sum_ints(2, HIDE(-1), -2));
  ASSERT(0x300000003LL, sum_lls(3, 0x100000001LL, 0x100000001LL, 0x100000001LL));
  ASSERT(-1, sum_lls(1, HIDE(-1LL)));
  ASSERT(0x100000000LL * 5, sum_lls(5, 0x100000000LL, 0x100000000LL, 0x100000000LL, 0x100000000LL, 0x100000000LL));
  int seven = 7;
  ASSERT(((((1 * 3 + 0x100000000LL) * 3 + 5) * 3 + 'x') * 3 + 7), mixed("ilscp", 1, 0x100000000LL, "hello", 'x', &seven));
  ASSERT((2 * 3 + 3) * 3 + 4, mixed("lil", 2LL, 3, 4LL));
  ASSERT(10, forward(4, 1, 2, 3, 4));
  ASSERT(6012, twice(3, 1, 2, 3));
  ASSERT(28 + 0x100000000LL + 9, late(1, 2, 3, 4, 5, 6, 7, 0x100000000LL, 9));
  ASSERT(12 + 34 + 56, structs(3, (struct pair){1, 2}, (struct pair){3, 4}, (struct pair){5, 6}));

  char buf[64];
  ASSERT(14, fmt(buf, sizeof buf, "%d|%x|%s|%c|%lld", -42, 255u, "ab", 'z', -5LL));
  ASSERT(0, strcmp(buf, "-42|ff|ab|z|-5"));
  ASSERT(11, fmt(buf, 6, "%05d|%-4s|", 42, "x"));
  ASSERT(0, strcmp(buf, "00042"));
  return done();
}
