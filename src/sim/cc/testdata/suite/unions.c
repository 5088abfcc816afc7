/* Unions: size and alignment, reading a member other than the last written (bytes reinterpreted),
   unions inside structs and structs inside unions, unions by value. */
#include "test.h"

union word { uint32_t u; int32_t i; uint16_t h[2]; uint8_t b[4]; };
union big { char c; long long ll; short s[5]; };
struct tagged { int kind; union { int i; char s[8]; struct { short a, b; } pair; } as; };

static union word flip(union word w) { uint8_t t = w.b[0]; w.b[0] = w.b[3]; w.b[3] = t; return w; }
static int kind_value(struct tagged t) { return t.kind == 0 ? t.as.i : t.kind == 1 ? t.as.s[1] : t.as.pair.a + t.as.pair.b; }

int main(void) {
  ASSERT(4, sizeof(union word));
  ASSERT(16, sizeof(union big));
  ASSERT(8, _Alignof(union big));
  union word w;
  w.u = HIDE(0xdeadbeefu);
  ASSERT(0xef, w.b[0]);
  ASSERT(0xde, w.b[3]);
  ASSERT(0xdead, w.h[1]);
  ASSERT(-559038737, w.i);
  w.b[0] = 0;
  ASSERT(0xdeadbe00u, w.u);
  union word f = flip(w);
  ASSERT(0x00adbedeu, f.u);
  ASSERT(0xdeadbe00u, w.u);

  union big bg = {.ll = -1};
  ASSERT(-1, bg.s[3]);
  ASSERT(255, (unsigned char)bg.c);
  bg.c = 0;
  ASSERT(-256, bg.ll);

  struct tagged t = {0, {.i = 42}};
  ASSERT(42, kind_value(t));
  t.kind = 1;
  strcpy(t.as.s, "xyz");
  ASSERT('y', kind_value(t));
  t.kind = 2;
  t.as.pair.a = 30;
  t.as.pair.b = 12;
  ASSERT(42, kind_value(t));
  ASSERT(12, sizeof t);

  /* A union initialised by its first member, and one with a designated later member. */
  union word z = {7};
  ASSERT(7, z.u);
  union word d = {.b = {1, 2, 3, 4}};
  ASSERT(0x04030201, d.u);

  /* Type punning between float-free integer views of a 64-bit value. */
  union { uint64_t v; uint32_t w[2]; } p = {HIDE(0x0123456789abcdefULL)};
  ASSERT(0x89abcdef, p.w[0]);
  ASSERT(0x01234567, p.w[1]);
  p.w[1] = 0;
  ASSERT(0x89abcdefULL, p.v);
  return done();
}
