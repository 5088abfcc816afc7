/*
 * A tiny freestanding C library for bare RV32 programs: the string functions the compilers
 * call, printf with the usual flags, widths, precisions and length modifiers, and the 64-bit
 * division helpers that rv32 code calls. The platform provides putchar, fflush and exit:
 * src/sim/testing/runtime/sys.c (Linux ecalls: the same ELF runs on qemu-riscv32 and on our
 * simulator) or src/compiler/runtime/hal_siracusa.c (the Siracusa console and exit registers).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

int putchar(int c);
void exit(int code) __attribute__((noreturn));

int puts(const char *s) {
  while (*s) putchar(*s++);
  putchar('\n');
  return 0;
}

void abort(void) { exit(134); }

void __assert_fail(const char *expr, const char *file, int line);
int printf(const char *fmt, ...);
void __assert_fail(const char *expr, const char *file, int line) {
  printf("assertion failed: %s (%s:%d)\n", expr, file, line);
  abort();
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }

/* ---------------------------------------------------------------- strings */
void *memcpy(void *d, const void *s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  while (n--) *dp++ = *sp++;
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  if (dp < sp) while (n--) *dp++ = *sp++;
  else while (n--) dp[n] = sp[n];
  return d;
}

void *memset(void *d, int c, size_t n) {
  unsigned char *dp = d;
  while (n--) *dp++ = (unsigned char)c;
  return d;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (; n; n--, x++, y++) if (*x != *y) return *x - *y;
  return 0;
}

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) if (*a != *b || !*a) return (unsigned char)*a - (unsigned char)*b;
  return 0;
}

char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++)) {}
  return r;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return 0;
  }
}

/* ---------------------------------------------------------------- 64-bit division */
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
  uint64_t q = 0, r = 0;
  if (d == 0) { if (rem) *rem = n; return ~(uint64_t)0; }
  /* Both in 32 bits (the common case in the kernels): one divu / remu instead of 64 steps. */
  if ((n >> 32) == 0 && (d >> 32) == 0) {
    if (rem) *rem = (uint32_t)n % (uint32_t)d;
    return (uint32_t)n / (uint32_t)d;
  }
  for (int i = 63; i >= 0; i--) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) { r -= d; q |= (uint64_t)1 << i; }
  }
  if (rem) *rem = r;
  return q;
}

/* Bit counts for code built without CORE-V (which has cv.fl1 / cv.ff1 / cv.cnt); 0 gives 32. */
int __clzsi2(uint32_t x) { int n = 0; if (!x) return 32; while (!(x & 0x80000000u)) { x <<= 1; n++; } return n; }
int __ctzsi2(uint32_t x) { int n = 0; if (!x) return 32; while (!(x & 1u)) { x >>= 1; n++; } return n; }
int __popcountsi2(uint32_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }

uint64_t __udivdi3(uint64_t n, uint64_t d) { return udivmod64(n, d, 0); }
uint64_t __umoddi3(uint64_t n, uint64_t d) { uint64_t r; udivmod64(n, d, &r); return r; }
int64_t __divdi3(int64_t n, int64_t d) {
  uint64_t q = udivmod64(n < 0 ? -(uint64_t)n : (uint64_t)n, d < 0 ? -(uint64_t)d : (uint64_t)d, 0);
  return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}
int64_t __moddi3(int64_t n, int64_t d) {
  uint64_t r;
  udivmod64(n < 0 ? -(uint64_t)n : (uint64_t)n, d < 0 ? -(uint64_t)d : (uint64_t)d, &r);
  return n < 0 ? -(int64_t)r : (int64_t)r;
}

/* ---------------------------------------------------------------- printf */
typedef struct { char *buf; size_t cap, len; int to_stdout; } sink;

static void emit(sink *s, char c) {
  if (s->to_stdout) putchar(c);
  else if (s->len + 1 < s->cap) s->buf[s->len] = c;
  s->len++;
}

static void emit_n(sink *s, char c, int n) { while (n-- > 0) emit(s, c); }

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };

/* One integer conversion: digits of v in base, then sign / prefix / padding per the flags. */
static void fmt_int(sink *s, uint64_t v, int neg, int base, int upper, int flags, int width, int prec) {
  char digits[24];
  int n = 0;
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  /* 32-bit division while the value fits: the 64-bit helper is a slow bit-by-bit loop. */
  while (v >> 32) { digits[n++] = set[v % (unsigned)base]; v /= (unsigned)base; }
  for (uint32_t w = (uint32_t)v; w; w /= (unsigned)base) digits[n++] = set[w % (unsigned)base];
  if (prec < 0) prec = 1; else flags &= ~F_ZERO;
  int zeros = prec > n ? prec - n : 0;
  if ((flags & F_ALT) && base == 8 && zeros == 0 && (n == 0 || digits[n - 1] != '0')) zeros = 1;
  const char *prefix = neg ? "-" : (flags & F_PLUS) ? "+" : (flags & F_SPACE) ? " " : "";
  const char *hexp = ((flags & F_ALT) && base == 16 && n) ? (upper ? "0X" : "0x") : "";
  int len = (int)strlen(prefix) + (int)strlen(hexp) + zeros + n;
  int pad = width > len ? width - len : 0;
  if (!(flags & (F_LEFT | F_ZERO))) emit_n(s, ' ', pad);
  for (const char *p = prefix; *p; p++) emit(s, *p);
  for (const char *p = hexp; *p; p++) emit(s, *p);
  if (flags & F_ZERO) emit_n(s, '0', pad);
  emit_n(s, '0', zeros);
  while (n) emit(s, digits[--n]);
  if (flags & F_LEFT) emit_n(s, ' ', pad);
}

static int vformat(sink *s, const char *f, va_list ap) {
  for (; *f; f++) {
    if (*f != '%') { emit(s, *f); continue; }
    f++;
    int flags = 0;
    for (;; f++) {
      if (*f == '-') flags |= F_LEFT;
      else if (*f == '0') flags |= F_ZERO;
      else if (*f == '+') flags |= F_PLUS;
      else if (*f == ' ') flags |= F_SPACE;
      else if (*f == '#') flags |= F_ALT;
      else break;
    }
    int width = 0, prec = -1;
    if (*f == '*') { width = va_arg(ap, int); if (width < 0) { flags |= F_LEFT; width = -width; } f++; }
    else while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') { prec = va_arg(ap, int); f++; }
      else while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
    }
    int lng = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char */
    for (;; f++) {
      if (*f == 'l') lng = lng == 1 ? 2 : 1;
      else if (*f == 'h') lng = lng == -1 ? -2 : -1;
      else if (*f == 'z' || *f == 't') lng = 1;
      else if (*f == 'j') lng = 2;
      else break;
    }
    switch (*f) {
      case 'd': case 'i': {
        int64_t v = lng == 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
        if (lng == -1) v = (short)v;
        if (lng == -2) v = (signed char)v;
        fmt_int(s, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, 0, flags, width, prec);
        break;
      }
      case 'u': case 'x': case 'X': case 'o': {
        uint64_t v = lng == 2 ? va_arg(ap, unsigned long long) : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
        if (lng == -1) v = (unsigned short)v;
        if (lng == -2) v = (unsigned char)v;
        int base = *f == 'o' ? 8 : *f == 'u' ? 10 : 16;
        fmt_int(s, v, 0, base, *f == 'X', flags & ~(F_PLUS | F_SPACE), width, prec);
        break;
      }
      case 'p':
        fmt_int(s, (uintptr_t)va_arg(ap, void *), 0, 16, 0, F_ALT, width, prec);
        break;
      case 'c': {
        int pad = width > 1 ? width - 1 : 0;
        if (!(flags & F_LEFT)) emit_n(s, ' ', pad);
        emit(s, (char)va_arg(ap, int));
        if (flags & F_LEFT) emit_n(s, ' ', pad);
        break;
      }
      case 's': {
        const char *str = va_arg(ap, const char *);
        if (!str) str = "(null)";
        int n = 0;
        while (str[n] && (prec < 0 || n < prec)) n++;
        int pad = width > n ? width - n : 0;
        if (!(flags & F_LEFT)) emit_n(s, ' ', pad);
        for (int i = 0; i < n; i++) emit(s, str[i]);
        if (flags & F_LEFT) emit_n(s, ' ', pad);
        break;
      }
      case '%': emit(s, '%'); break;
      case 0: return (int)s->len;
      default: emit(s, '%'); emit(s, *f); break;
    }
  }
  return (int)s->len;
}

int vprintf(const char *fmt, va_list ap) {
  sink s = {0, 0, 0, 1};
  return vformat(&s, fmt, ap);
}

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  sink s = {buf, n, 0, 0};
  int len = vformat(&s, fmt, ap);
  if (n) buf[s.len < n ? s.len : n - 1] = 0;
  return len;
}

int snprintf(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return len;
}

int sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(buf, (size_t)-1 >> 1, fmt, ap);
  va_end(ap);
  return len;
}
