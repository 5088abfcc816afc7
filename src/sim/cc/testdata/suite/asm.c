/* GCC-style inline asm with rv32imc instructions: "r" inputs, "=r" outputs, "+r" read-write
   operands, "i" immediates, several outputs, matching constraints ("0"), "memory" clobbers
   around loads and stores the compiler cannot see, asm in loops and in inline functions, and
   operands that are locals, globals, array elements and expressions. */
#include "test.h"

static int g = 5;

static inline int add_asm(int a, int b) { int r; __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static inline unsigned rotl(unsigned v, unsigned s) {
  unsigned l, r;
  __asm__("sll %0, %2, %3\n\tsrl %1, %2, %4" : "=&r"(l), "=&r"(r) : "r"(v), "r"(s), "r"(32 - s));
  return l | r;
}
static int load_via_asm(const int *p) { int v; __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(p) : "memory"); return v; }
static void store_via_asm(int *p, int v) { __asm__ volatile("sw %1, 0(%0)" : : "r"(p), "r"(v) : "memory"); }

int main(void) {
  int a = HIDE(20), b = HIDE(22);
  ASSERT(42, add_asm(a, b));
  int r;
  __asm__("sub %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  ASSERT(-2, r);
  __asm__("addi %0, %0, 100" : "+r"(a));
  ASSERT(120, a);
  __asm__("slli %0, %1, %2" : "=r"(r) : "r"(b), "i"(3));
  ASSERT(176, r);
  __asm__("xori %0, %1, %2" : "=r"(r) : "r"(b), "i"(-1));
  ASSERT(~22, r);
  __asm__("mul %0, %1, %2" : "=r"(r) : "r"(a), "0"(b));
  ASSERT(120 * 22, r);
  __asm__("mulh %0, %1, %2" : "=r"(r) : "r"(HIDE(-0x40000000)), "r"(HIDE(8)));
  ASSERT(-2, r);
  __asm__("mulhu %0, %1, %2" : "=r"(r) : "r"(HIDE(0x80000000u)), "r"(HIDE(6u)));
  ASSERT(3, r);
  ASSERT(0x23456781, rotl(HIDE(0x12345678u), 4));
  ASSERT(0x81234567, rotl(HIDE(0x12345678u), 28));

  /* Two outputs, one of them read-write. */
  unsigned lo = HIDE(0xffffffffu), carry;
  __asm__("addi %0, %0, 1\n\tseqz %1, %0" : "+r"(lo), "=r"(carry));
  ASSERT(0, lo);
  ASSERT(1, carry);

  /* Memory through asm: the compiler must not keep g in a register across it. */
  g = 7;
  ASSERT(7, load_via_asm(&g));
  store_via_asm(&g, 99);
  ASSERT(99, g);
  int arr[4] = {1, 2, 3, 4};
  store_via_asm(&arr[2], 33);
  ASSERT(33, arr[2]);
  ASSERT(4, load_via_asm(arr + 3));

  /* asm in a loop with a loop-carried "+r" operand. */
  int acc = 0;
  for (int i = 0; i < 10; i++) __asm__("add %0, %0, %1" : "+r"(acc) : "r"(i));
  ASSERT(45, acc);

  /* An operand that is an expression; an empty template that only ties the value. */
  __asm__("addi %0, %1, -1" : "=r"(r) : "r"(a * 2 + b));
  ASSERT(261, r);
  int tied = HIDE(8);
  __asm__("" : "+r"(tied));
  ASSERT(8, tied);
  __asm__ volatile("" ::: "memory");

  /* Compare-and-branch inside asm with local labels. */
  int m;
  __asm__("mv %0, %1\n\tbge %1, %2, 1f\n\tmv %0, %2\n1:" : "=&r"(m) : "r"(HIDE(3)), "r"(HIDE(9)));
  ASSERT(9, m);
  return done();
}
