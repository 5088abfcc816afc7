/* The GNU extensions the kernel library uses: statement expressions, typeof, attributes
   (always_inline, noinline, aligned, packed, may_alias, unused, noreturn, section), builtins
   (__builtin_expect, clz, ctz, popcount, bswap, memcpy, memset, constant_p, offsetof),
   #pragma GCC unroll, _Static_assert (case ranges and `?:`: gnu_extras.c). */
#include "test.h"

#define MAX(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); a_ > b_ ? a_ : b_; })
#define MIN(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); a_ < b_ ? a_ : b_; })
#define SWAP(x, y) do { __typeof__(x) t_ = (x); (x) = (y); (y) = t_; } while (0)

static inline __attribute__((always_inline)) int sq(int x) { return x * x; }
static __attribute__((noinline)) int cube(int x) { return x * x * x; }
static __attribute__((unused)) int never_called(void) { return 0; }
__attribute__((noreturn)) void exit(int);
struct __attribute__((packed)) packed { char c; int i; short s; };
typedef uint32_t __attribute__((may_alias)) word_alias;
static int tagged __attribute__((section(".data.tagged"))) = 17;
static __attribute__((aligned(16))) char aligned16[3];
static int likely_branch(int x) { if (__builtin_expect(x > 0, 1)) return 1; return 0; }
static int unlikely_branch(int x) { if (__builtin_expect(!!(x == 42), 0)) return 2; return 3; }
_Static_assert(sizeof(struct packed) == 7, "packed");

int main(void) {
  ASSERT(7, MAX(HIDE(3), 7));
  ASSERT(-2, MIN(HIDE(-2), 7));
  int calls = 0;
  ASSERT(6, MAX(++calls, 6));
  ASSERT(1, calls); /* evaluated once */
  long long big = MAX(HIDE(1LL << 40), 5LL);
  ASSERT(1LL << 40, big);
  int a = 1, b = 2;
  SWAP(a, b);
  ASSERT(2, a);
  ASSERT(1, b);
  ASSERT(10, ({ int t = 0; for (int i = 0; i < 5; i++) t += i; t; }));
  ASSERT(3, ({ 1; 2; 3; }));
  __typeof__(big) t2 = 5;
  ASSERT(8, sizeof t2);
  typeof(int *) ip = &a;
  ASSERT(2, *ip);
  __typeof__(a + 0LL) w = 1;
  ASSERT(8, sizeof w);

  ASSERT(49, sq(HIDE(7)));
  ASSERT(-27, cube(HIDE(-3)));
  ASSERT(7, sizeof(struct packed));
  ASSERT(1, offsetof(struct packed, i));
  ASSERT(5, __builtin_offsetof(struct packed, s));
  struct packed pk = {'p', HIDE(0x12345678), -3};
  ASSERT(0x12345678, pk.i);
  ASSERT(-3, pk.s);
  pk.i += 1;
  ASSERT(0x12345679, pk.i);
  unsigned char raw[8];
  memcpy(raw, &pk, 7);
  ASSERT(0x79, raw[1]);
  ASSERT(0x12, raw[4]);

  short halves[2] = {0x1234, 0x5678};
  word_alias *wa = (word_alias *)halves;
  ASSERT(0x56781234, *wa);
  ASSERT(17, tagged);
  ASSERT(0, (uintptr_t)aligned16 % 16);
  ASSERT(1, likely_branch(HIDE(5)));
  ASSERT(0, likely_branch(HIDE(-5)));
  ASSERT(2, unlikely_branch(HIDE(42)));
  ASSERT(3, unlikely_branch(HIDE(41)));
  ASSERT(5, __builtin_expect(HIDE(5), 0));

  ASSERT(28, __builtin_clz(HIDE(15u)));
  ASSERT(0, __builtin_clz(HIDE(0x80000000u)));
  ASSERT(4, __builtin_ctz(HIDE(16u)));
  ASSERT(31, __builtin_ctz(HIDE(0x80000000u)));
  ASSERT(3, __builtin_popcount(HIDE(7u)));
  ASSERT(32, __builtin_popcount(HIDE(0xffffffffu)));
  ASSERT(0x78563412, __builtin_bswap32(HIDE(0x12345678u)));
  ASSERT(0x3412, __builtin_bswap16(HIDE((uint16_t)0x1234)));
  ASSERT(1, __builtin_constant_p(3 * 4));
  char d[8];
  __builtin_memset(d, 'z', 8);
  ASSERT('z', d[7]);
  __builtin_memcpy(d, "gnu", 4);
  ASSERT(0, strcmp(d, "gnu"));

  int acc = 0;
#pragma GCC unroll 4
  for (int i = 0; i < 10; i++) acc += i * HIDE(3);
  ASSERT(135, acc);

  /* Labels with attributes and declarations after statements; __extension__. */
  __extension__ long long ext = 1LL << 33;
  ASSERT(1LL << 33, ext);
  return done();
}
