/* The caller side of the cross-compiler ABI test (see abi.h): main and the callbacks. */
#include "../test.h"
#include "abi.h"

static int triple(int x) { return x * 3; }
static long long step(long long acc, int i) { return acc * 3 + i; }
static struct b12 rotate(struct b12 s, int k) { return (struct b12){s.b * k, s.c * k, s.a * k}; }
static uint32_t vbits(v4s v) { uint32_t u; memcpy(&u, &v, 4); return u; }

int main(void) {
  ASSERT(-1 * 1 + 200 * 3 + -300 * 5 + 60000 * 7 + 1 * 11 + 250 * 13, narrow_args(HIDE(-1), HIDE(200), HIDE(-300), HIDE(60000), HIDE(5), (char)HIDE(250)));
  ASSERT(-128, ret_s8(HIDE(127)));
  ASSERT(0, ret_u8(HIDE(255)));
  ASSERT(-32768, ret_s16(HIDE(32767)));
  ASSERT(0, ret_u16(HIDE(65535)));
  ASSERT(1, ret_bool(HIDE(12)));
  ASSERT(0, ret_bool(HIDE(8)));

  ASSERT(1 + 3 * 0x100000000LL + 5 * 2 + 7 * -3LL, ll_mix(HIDE(1), 0x100000000LL, 2, -3LL));
  ASSERT(28 + 2 * 0x200000001LL + 3 * -0x100000000LL, ll_late(1, 2, 3, 4, 5, 6, 7, HIDE(0x200000001LL), -0x100000000LL));
  unsigned long long a = HIDE(0xfedcba9876543210ULL), b = HIDE(0x12345ULL);
  ASSERT((a / b) ^ (a % b) ^ (a << 3) ^ (b >> 5), ull_ops(a, b));

  ASSERT('x', make_b1(HIDE('x')).c);
  ASSERT(12, make_b3(HIDE(10)).c);
  ASSERT(-7, make_b6(HIDE(7)).b);
  struct b8 p8 = make_b8(HIDE(5), -6);
  ASSERT(-6, p8.b);
  ASSERT(0x200000000LL, make_bll(HIDE(0x100000000LL)).v);
  ASSERT(12, make_b12(HIDE(4)).c);
  struct b24 p24 = make_b24(HIDE(3));
  ASSERT(3LL << 33, p24.a);
  ASSERT(6, p24.b[3]);
  ASSERT('a' + 30 + 31 + 32 + 7 - 7 + 21 + 10 + -18 + 1 + 2 + 2 + 4 + 6 + 3 + 3 + 6,
         take_aggregates(make_b1('a'), make_b3(30), make_b6(7), (struct b8){5, -6}, (struct bll){0x100000002LL}, make_b12(2), make_b24(3)));
  ASSERT(28 + 10 + 200 + 3000 + 40000, take_late_b8(1, 2, 3, 4, 5, 6, 7, (struct b8){1, 2}, (struct b8){HIDE(3), 4}));
  struct bits bt = flip_bits((struct bits){HIDE(3u), -100, 65535});
  ASSERT(28, bt.lo);
  ASSERT(100, bt.mid);
  ASSERT(0, bt.hi);
  union u8 u = {HIDE(0x1111222233334444ULL)};
  ASSERT(0x4444333322221111ULL, swap_halves(u).v);
  v4s va = {1, 2, 3, 127}, vb = {HIDE(10), 20, 30, 1};
  ASSERT(0x8021160b, vbits(add_v4s(va, vb)));

  ASSERT(-5 + 11 * 12, many12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, HIDE(12)));
  ASSERT(7 + 0x100000000LL + 506 - 1, vsum(4, 0, 7, 1, 0x100000000LL, 2, (struct b8){5, 6}, 0, HIDE(-1)));
  ASSERT(45, apply_twice(triple, HIDE(5)));
  ASSERT(((1 * 3 + 0) * 3 + 1) * 3 + 2, fold(step, HIDE(1LL), 3));
  struct b12 r = via_callback(rotate, HIDE(2));
  ASSERT(6, r.a);
  ASSERT(8, r.b);
  ASSERT(4, r.c);

  ASSERT(10, shared_counter);
  bump_shared();
  ASSERT(15, shared_counter);
  ASSERT(6, shared_struct.c);
  ASSERT(0, strcmp(shared_text, "shared"));
  return done();
}
