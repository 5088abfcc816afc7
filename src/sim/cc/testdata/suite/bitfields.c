/* Bit-fields: layout (ilp32: fields packed in their declared type's unit, never straddling one),
   signed and unsigned fields read with the right extension, read-modify-write that leaves the
   neighbours alone, full-width fields, zero-width fields, bit-fields by value and in unions. */
#include "test.h"

struct flags { unsigned a : 1, b : 2, c : 3; signed d : 4; unsigned e : 22; };
struct wide { unsigned lo : 31; unsigned hi : 1; int full : 32; };
struct gap { char x; unsigned y : 4; unsigned : 0; unsigned z : 4; };
struct over { unsigned a : 20; unsigned b : 20; };
struct sh { short s : 5; unsigned short u : 11; };
struct pair { int a : 10; int b : 10; };

static struct pair mkpair(int a, int b) { struct pair p = {a, b}; return p; }
static int pairsum(struct pair p) { return p.a + p.b; }

struct flags gflags = {1, 2, 5, -3, 123456};

int main(void) {
  ASSERT(4, sizeof(struct flags));
  ASSERT(8, sizeof(struct wide));
  ASSERT(8, sizeof(struct gap));
  ASSERT(8, sizeof(struct over));
  ASSERT(2, sizeof(struct sh));

  struct flags f = {0};
  f.a = 1;
  f.b = 3;
  f.c = 7;
  f.d = -8;
  f.e = 0x3fffff;
  ASSERT(1, f.a);
  ASSERT(3, f.b);
  ASSERT(7, f.c);
  ASSERT(-8, f.d);
  ASSERT(0x3fffff, f.e);
  f.d = 7;
  ASSERT(7, f.d);
  f.d += 1; /* 8 does not fit in 4 signed bits: wraps to -8 (implementation-defined, both compilers wrap) */
  ASSERT(-8, f.d);
  f.b = HIDE(5); /* truncated to 2 bits */
  ASSERT(1, f.b);
  ASSERT(7, f.c);
  ASSERT(0x3fffff, f.e);
  uint32_t raw;
  memcpy(&raw, &f, 4);
  ASSERT(0xfffffe3b, raw); /* a=1, b=01, c=111, d=1000, e all ones */

  ASSERT(1, gflags.a);
  ASSERT(2, gflags.b);
  ASSERT(5, gflags.c);
  ASSERT(-3, gflags.d);
  ASSERT(123456, gflags.e);
  gflags.c--;
  ASSERT(4, gflags.c);
  ASSERT(-3, gflags.d);

  struct wide w = {HIDE(0x7fffffffu), 1, -5};
  ASSERT(0x7fffffff, w.lo);
  ASSERT(1, w.hi);
  ASSERT(-5, w.full);
  w.lo++;
  ASSERT(0, w.lo);
  ASSERT(1, w.hi);

  struct gap g = {'a', 9, 3};
  ASSERT(9, g.y);
  ASSERT(3, g.z);
  unsigned char gb[8];
  memcpy(gb, &g, 8);
  ASSERT('a', gb[0]);
  ASSERT(9, gb[1]);
  ASSERT(3, gb[4]);

  struct over o = {0xfffff, 0xabcde};
  ASSERT(0xfffff, o.a);
  ASSERT(0xabcde, o.b);
  uint32_t ow[2];
  memcpy(ow, &o, 8);
  ASSERT(0xfffff, ow[0]);
  ASSERT(0xabcde, ow[1]);

  struct sh s = {-16, 2047};
  ASSERT(-16, s.s);
  ASSERT(2047, s.u);
  s.s = 15;
  ASSERT(15, s.s);
  ASSERT(2047, s.u);

  ASSERT(-1, pairsum(mkpair(HIDE(-512), 511)));
  struct pair p = mkpair(100, -200);
  ASSERT(-200, p.b);

  union { struct flags f; uint32_t w; } u = {.w = 0};
  u.f.e = 1;
  ASSERT(1u << 10, u.w);
  return done();
}
