/* Locals aligned beyond the stack's 16 bytes (_Alignas, aligned attributes, over-aligned struct
   types): each must sit at an address of its alignment, also in a function that calls others
   and in a recursive one whose frames are not aligned to it by chance. */
#include "test.h"

struct line { _Alignas(64) unsigned char bytes[64]; };

static int misaligned(const void *p, unsigned a) { return (int)((uintptr_t)p % a); }

static int depth(int n) {
  _Alignas(32) int v[3] = {n, n, n};
  if (misaligned(v, 32)) return -1000;
  return n == 0 ? v[0] : depth(n - 1) + v[1];
}

int main(void) {
  char pad = HIDE(1);
  _Alignas(32) char buf32[3];
  __attribute__((aligned(64))) int buf64[2];
  struct line l;
  buf32[0] = pad;
  buf64[0] = pad;
  l.bytes[0] = pad;
  ASSERT(0, misaligned(buf32, 32));
  ASSERT(0, misaligned(buf64, 64));
  ASSERT(0, misaligned(&l, 64));
  ASSERT(64, _Alignof(struct line));
  ASSERT(15, depth(HIDE(5)));
  return done();
}
