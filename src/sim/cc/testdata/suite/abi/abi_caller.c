/* The caller side of the cross-compiler ABI test (see abi.h): main and the callbacks. */
#include "../test.h"
#include "abi.h"

static int triple(int x) { return x * 3; }
static long long step(long long acc, int i) { return acc * 3 + i; }
static struct b12 rotate(struct b12 s, int k) { return (struct b12){s.b * k, s.c * k, s.a * k}; }
static uint32_t vbits(v4s v) { uint32_t u; memcpy(&u, &v, 4); return u; }
/* Callbacks the callee calls: their results and arguments cross from the callee's compiler. */
static signed char inc_s8(int x) { return (signed char)(x + 100); }
static unsigned short neg_u16(int x) { return (unsigned short)-x; }
static int mix_narrow(short a, unsigned char b, signed char c) { return a * 3 + b * 5 + c * 7; }
static struct b5 small_cb(struct b3 x, struct b7 y, struct al8 z) {
  struct b5 r = {{(char)(x.a + y.c[6]), (char)(x.c * 2), (char)y.c[0], (char)(z.a >> 4), (char)(y.c[3] + x.b)}};
  return r;
}
static long long vsum_here(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = vsum_list(n, ap);
  va_end(ap);
  return s;
}

int main(void) {
  ASSERT(-1 * 1 + 200 * 3 + -300 * 5 + 60000 * 7 + 1 * 11 + 250 * 13, narrow_args(HIDE(-1), HIDE(200), HIDE(-300), HIDE(60000), HIDE(5), (char)HIDE(250)));
  ASSERT(-128, ret_s8(HIDE(127)));
  ASSERT(0, ret_u8(HIDE(255)));
  ASSERT(-32768, ret_s16(HIDE(32767)));
  ASSERT(0, ret_u16(HIDE(65535)));
  ASSERT(1, ret_bool(HIDE(12)));
  ASSERT(0, ret_bool(HIDE(8)));
  ASSERT(0, ret_char(HIDE(255)));
  ASSERT(200, ret_char(HIDE(199)));
  ASSERT(0xfffffffdu, ret_u32(HIDE(-1)));
  ASSERT(36 + -3 * 3 + 250 * 5 + -2 * 7 + 65535 * 11 + 13,
         narrow_stack(1, 2, 3, 4, 5, 6, 7, 8, (signed char)HIDE(-3), (unsigned char)HIDE(250), (short)HIDE(-2), (unsigned short)HIDE(-1), (_Bool)HIDE(2)));
  /* f(27) = (signed char)127, g(27) = 65509, h((short)8100, 28, 54) */
  ASSERT(127 * 1000 + 65509 + 8100 * 3 + 28 * 5 + 54 * 7, call_narrow(inc_s8, neg_u16, mix_narrow, HIDE(27)));
  /* f(28) wraps to -128; h gets (short)8400, 29, (signed char)56 */
  ASSERT(-128 * 1000 + 65508 + 8400 * 3 + 29 * 5 + 56 * 7, call_narrow(inc_s8, neg_u16, mix_narrow, HIDE(28)));
  ASSERT(-56 * 1000 + 65436 + 30000 * 3 + 101 * 5 + -56 * 7, call_narrow(inc_s8, neg_u16, mix_narrow, HIDE(100)));

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

  struct b2 q2 = make_b2(HIDE(200));
  ASSERT(200, q2.a);
  ASSERT(144, q2.b);
  struct b4 q4 = make_b4(HIDE(30));
  ASSERT(30000, q4.s);
  ASSERT(-30, q4.c);
  struct b5 q5 = make_b5(HIDE(250));
  ASSERT(250, q5.c[0]);
  ASSERT(254, q5.c[4]);
  struct b7 q7 = make_b7(HIDE(100));
  ASSERT(100, q7.c[0]);
  ASSERT(-20, q7.c[3]);
  ASSERT(116, q7.c[6]);
  struct ci qc = make_ci(HIDE(7));
  ASSERT(7, qc.c);
  ASSERT(700000, qc.i);
  struct nest qn = make_nest(HIDE(40));
  ASSERT(42, qn.x.c);
  ASSERT(-40, qn.y);
  union u4 qu = make_u4(HIDE(1234));
  ASSERT(1234, qu.s[0]);
  ASSERT(-1234, qu.s[1]);
  ASSERT(7 * -6, make_al8(HIDE(-6)).a);
  v2i w = add_v2i((v2i){HIDE(1), -2}, (v2i){0x7fffffff, HIDE(5)});
  ASSERT(INT32_MIN, w[0]);
  ASSERT(3, w[1]);
  struct b9 q9 = make_b9(HIDE(30));
  ASSERT(240, q9.c[8]);
  ASSERT(90, q9.c[3]);
  struct b16 q16 = make_b16(HIDE(0x123456789LL));
  ASSERT(0x123456789LL, q16.a);
  ASSERT(-3 * 0x123456789LL, q16.b);
  ASSERT(200 + 144 * 2 + 30000 * 3 + -30 * 5 + 250 + 254 * 7 + 100 + 116 * 11 + 7 * 13 + 700000 + 1234 * 17 + -1234 * 19 + 40 + 42 * 23 + -40 * 29,
         take_small(q2, q4, q5, q7, qc, qu, qn));
  ASSERT(28 + 250 * 10 + 253 * 100 + 254 * 1000 + 9 * 10000, split_b5(1, 2, 3, 4, 5, 6, 7, q5, HIDE(9)));
  ASSERT(28 + -42 * 100 + 9 * 10000, split_al8(1, 2, 3, 4, 5, 6, 7, make_al8(HIDE(-6)), 9));
  ASSERT(36 + 9 * 10 + 35 * 100 + -1 * 10000, stack_al8(1, 2, 3, 4, 5, 6, 7, 8, 9, (struct al8){HIDE(35)}, -1));
  ASSERT(36 + 10 * 10 + 12 * 100 + 7 * 1000 + 21 * 10000 + 3 * 100000, stack_small(1, 2, 3, 4, 5, 6, 7, 8, make_b3(HIDE(10)), make_b6(7), 3));
  ASSERT(0 + 240 * 3 + 1 + -3 * 5 + 4 * 7, take_big(q9, (struct b16){0x100000000LL, HIDE(-3)}, 4));
  ASSERT(240, q9.c[8]);
  int side = 0;
  ASSERT(31 * 10 + 4, take_empty(HIDE(31), make_empty(&side), 4, make_empty(&side)));
  ASSERT(2, side);
  make_empty(&side);
  ASSERT(3, side);
  /* small_cb({5,6,7}, {-50,-45,...,-20}, {5000}): {5-20, 14, -50, 5000>>4, -35+6} */
  ASSERT((char)(5 - 20) + 14 * 2 + (char)-50 * 3 + (char)(5000 >> 4) * 4 + (char)(-35 + 6) * 5, via_small(small_cb, HIDE(5)));

  ASSERT(-5 + 11 * 12, many12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, HIDE(12)));
  ASSERT(7 + 0x100000000LL + 506 - 1, vsum(4, 0, 7, 1, 0x100000000LL, 2, (struct b8){5, 6}, 0, HIDE(-1)));
  struct b3 v3 = make_b3(HIDE(4));
  struct b8 v8 = {HIDE(1), 2};
  struct al8 va8 = {HIDE(9)};
  /* b8 in a7 and at sp+0, al8 at sp+8 (8-aligned); al8 in a6/a7 with a5 skipped; by address;
     empty; b5 and the long long on the stack. */
  ASSERT(102 + 4 + 50 + 600 + 102 + 9000, vsum(4, 2, v8, 3, v3, 2, v8, 4, va8));
  ASSERT(102 + 9000, vsum(2, 2, v8, 4, va8));
  ASSERT(6 + 8 + (0x300000000LL - 1) + 1 + 250 + 254 * 7 + 5, vsum(6, 5, (struct b12){1, 2, 3}, 6, (struct b6){2, HIDE(-2), 4}, 7, (struct b16){0x300000000LL, 1}, 8, (struct empty){}, 9, q5, 1, 5LL));
  ASSERT(1 + 654 + 102 + 2 + 9000 + 250 + 254 * 7 + 9000, vsum(7, 0, 1, 3, v3, 2, v8, 0, 2, 4, va8, 9, q5, 4, va8));
  /* call_vsum(f, 3) makes the same kinds of calls, from the callee's compiler to vsum_here. */
  ASSERT((302 + 321 + 302 + 3000) * 3 + 3302 * 5 + (53 + 14 + (3 * 0x100000000LL - 1) + 1 + 30 + 3) + (1 + 321 + 302 + 2 + 3000 + 30 + 3000),
         call_vsum(vsum_here, HIDE(3)));
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
