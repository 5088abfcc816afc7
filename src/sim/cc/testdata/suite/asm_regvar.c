/* Explicit register variables (`register T x __asm__("reg")`) as inline asm operands: the value
   is in that register when the asm starts, and an output bound to a register is read from it.
   The runtime's ecall wrapper (src/sim/testing/runtime/sys.c) binds a0, a1, a2 and a7 this way. */
#include "test.h"

static int combine(int a, int b, int c) {
  register int x10 __asm__("a0") = a;
  register int x11 __asm__("a1") = b;
  register int x17 __asm__("a7") = c;
  int r;
  __asm__("add %0, a0, a1\n\tsub %0, %0, a7" : "=&r"(r) : "r"(x10), "r"(x11), "r"(x17));
  return r;
}

static int from_t1(void) {
  register int v __asm__("t1");
  __asm__("li t1, 77" : "=r"(v));
  return v;
}

/* A read-write operand bound to a register, as sys.c's "+r"(x10). */
static long bump_a0(long x) {
  register long a0 __asm__("a0") = x;
  register long a2 __asm__("a2") = 5;
  __asm__ volatile("add a0, a0, a2" : "+r"(a0) : "r"(a2) : "memory");
  return a0;
}

int main(void) {
  ASSERT(3 + 4 - 5, combine(HIDE(3), HIDE(4), HIDE(5)));
  ASSERT(-100, combine(HIDE(0), HIDE(-1), HIDE(99)));
  ASSERT(77, from_t1());
  ASSERT(47, bump_a0(HIDE(42L)));
  return done();
}
