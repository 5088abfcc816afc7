/* Bit-fields of packed records: a field's storage unit (its declared type) may run past the
   record, so only the bytes its bits cover may be read and written. csmith seed 68: a 2-byte
   packed `struct { signed f0 : 16; }` local was written through a 4-byte unit, clobbering its
   neighbours and reading past the top of the stack. */
#include "test.h"

#pragma pack(push)
#pragma pack(1)
struct s16 { signed f0 : 16; };
struct odd { char c; unsigned a : 12; signed b : 9; long long w : 40; };
#pragma pack(pop)

struct s16 arr[3] = {{1}, {-2}, {3}};

int main(void) {
  ASSERT(2, sizeof(struct s16));
  ASSERT(9, sizeof(struct odd));
  /* Writing one element leaves its neighbours alone. */
  arr[1].f0 = -205;
  ASSERT(1, arr[0].f0);
  ASSERT(-205, arr[1].f0);
  ASSERT(3, arr[2].f0);
  struct s16 l[2] = {{HIDE(7)}, {HIDE(-8)}};
  l[0].f0 = HIDE(0x7fff);
  ASSERT(32767, l[0].f0);
  ASSERT(-8, l[1].f0);
  /* Fields across byte boundaries, signed and unsigned, one wider than 32 bits. */
  struct odd o = {HIDE(5), HIDE(4000), HIDE(-200), HIDE(-3)};
  ASSERT(5, o.c);
  ASSERT(4000, o.a);
  ASSERT(-200, o.b);
  ASSERT(-3, o.w);
  o.b = HIDE(511);
  o.w = HIDE(0x7fffffffffLL);
  ASSERT(4000, o.a);
  ASSERT(-1, o.b);
  ASSERT(0x7fffffffffLL, o.w);
  o.a += HIDE(95);
  ASSERT(4095, o.a);
  ASSERT(5, o.c);
  ASSERT(-1, o.b);
  return done();
}
