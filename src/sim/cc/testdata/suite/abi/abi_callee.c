/* The callee side of the cross-compiler ABI test (see abi.h). */
#include "abi.h"

int shared_counter = 10;
const char shared_text[] = "shared";
struct b12 shared_struct = {1, 2, 3};
void bump_shared(void) { shared_counter += 5; shared_struct.c *= 2; }

int narrow_args(signed char a, unsigned char b, short c, unsigned short d, _Bool e, char f) { return a * 1 + b * 3 + c * 5 + d * 7 + e * 11 + f * 13; }
signed char ret_s8(int x) { return (signed char)(x + 1); }
unsigned char ret_u8(int x) { return (unsigned char)(x + 1); }
short ret_s16(int x) { return (short)(x + 1); }
unsigned short ret_u16(int x) { return (unsigned short)(x + 1); }
_Bool ret_bool(int x) { return x & 4; }
char ret_char(int x) { return (char)(x + 1); }
unsigned ret_u32(int x) { return (unsigned)x * 3u; }
int narrow_stack(int a, int b, int c, int d, int e, int f, int g, int h, signed char i, unsigned char j, short k, unsigned short l, _Bool m) {
  return a + b + c + d + e + f + g + h + i * 3 + j * 5 + k * 7 + l * 11 + m * 13;
}
int call_narrow(signed char (*f)(int), unsigned short (*g)(int), int (*h)(short, unsigned char, signed char), int x) {
  return f(x) * 1000 + g(x) + h((short)(x * 300), (unsigned char)(x + 1), (signed char)(x * 2));
}

long long ll_mix(int a, long long b, int c, long long d) { return a + b * 3 + c * 5 + d * 7; }
long long ll_late(int a, int b, int c, int d, int e, int f, int g, long long h, long long i) { return a + b + c + d + e + f + g + h * 2 + i * 3; }
unsigned long long ull_ops(unsigned long long a, unsigned long long b) { return (a / b) ^ (a % b) ^ (a << 3) ^ (b >> 5); }

struct b1 make_b1(char c) { return (struct b1){c}; }
struct b3 make_b3(char a) { return (struct b3){a, (char)(a + 1), (char)(a + 2)}; }
struct b6 make_b6(short a) { return (struct b6){a, (short)-a, (short)(a * 3)}; }
struct b8 make_b8(int a, int b) { return (struct b8){a, b}; }
struct bll make_bll(long long v) { return (struct bll){v * 2}; }
struct b12 make_b12(int a) { return (struct b12){a, a * 2, a * 3}; }
struct b24 make_b24(int a) { struct b24 r = {(long long)a << 33, {a, a + 1, a + 2, a + 3}}; return r; }
int take_aggregates(struct b1 a, struct b3 b, struct b6 c, struct b8 d, struct bll e, struct b12 f, struct b24 g) {
  return a.c + b.a + b.b + b.c + c.a + c.b + c.c + d.a * 2 + d.b * 3 + (int)(e.v >> 32) + (int)e.v + f.a + f.b + f.c + (int)(g.a >> 33) + g.b[0] + g.b[3];
}
int take_late_b8(int a, int b, int c, int d, int e, int f, int g, struct b8 h, struct b8 i) { return a + b + c + d + e + f + g + h.a * 10 + h.b * 100 + i.a * 1000 + i.b * 10000; }
struct bits flip_bits(struct bits b) { struct bits r = {b.lo ^ 31u, -b.mid, b.hi + 1}; return r; }
union u8 swap_halves(union u8 u) { union u8 r; r.h[0] = u.h[3]; r.h[1] = u.h[2]; r.h[2] = u.h[1]; r.h[3] = u.h[0]; return r; }
v4s add_v4s(v4s a, v4s b) { return a + b; }
struct b2 make_b2(int a) { return (struct b2){(unsigned char)a, (unsigned char)(a * 2)}; }
struct b4 make_b4(int a) { return (struct b4){(short)(a * 1000), (signed char)-a}; }
struct b5 make_b5(int a) { struct b5 r; for (int i = 0; i < 5; i++) r.c[i] = (char)(a + i); return r; }
struct b7 make_b7(int a) { struct b7 r; for (int i = 0; i < 7; i++) r.c[i] = (signed char)(a - i * 40); return r; }
struct ci make_ci(int a) { return (struct ci){(char)a, a * 100000}; }
struct nest make_nest(int a) { return (struct nest){{(char)a, (char)(a + 1), (char)(a + 2)}, (signed char)-a}; }
union u4 make_u4(int a) { union u4 u; u.s[0] = (short)a; u.s[1] = (short)-a; return u; }
struct al8 make_al8(int a) { return (struct al8){a * 7}; }
v2i add_v2i(v2i a, v2i b) { return a + b; }
struct b9 make_b9(int a) { struct b9 r; for (int i = 0; i < 9; i++) r.c[i] = (char)(a * i); return r; }
struct b16 make_b16(long long a) { return (struct b16){a, -a * 3}; }
int take_small(struct b2 a, struct b4 b, struct b5 c, struct b7 d, struct ci e, union u4 f, struct nest g) {
  return a.a + a.b * 2 + b.s * 3 + b.c * 5 + c.c[0] + c.c[4] * 7 + d.c[0] + d.c[6] * 11 + e.c * 13 + e.i + f.s[0] * 17 + f.s[1] * 19 + g.x.a + g.x.c * 23 + g.y * 29;
}
int split_b5(int a, int b, int c, int d, int e, int f, int g, struct b5 h, int i) { return a + b + c + d + e + f + g + h.c[0] * 10 + h.c[3] * 100 + h.c[4] * 1000 + i * 10000; }
long long split_al8(int a, int b, int c, int d, int e, int f, int g, struct al8 h, int i) { return a + b + c + d + e + f + g + h.a * 100LL + i * 10000LL; }
long long stack_al8(int a, int b, int c, int d, int e, int f, int g, int h, int x, struct al8 s, int y) { return a + b + c + d + e + f + g + h + x * 10LL + s.a * 100LL + y * 10000LL; }
int stack_small(int a, int b, int c, int d, int e, int f, int g, int h, struct b3 s, struct b6 t, int y) {
  return a + b + c + d + e + f + g + h + s.a * 10 + s.c * 100 + t.a * 1000 + t.c * 10000 + y * 100000;
}
int take_big(struct b9 a, struct b16 b, int c) {
  int r = a.c[0] + a.c[8] * 3 + (int)(b.a >> 32) + (int)b.b * 5 + c * 7;
  a.c[8] = 0; b.a = 0; /* the callee may write its copies; the caller's objects stay */
  return r + a.c[8] + (int)b.a;
}
int take_empty(int a, struct empty e, int b, struct empty f) { (void)e; (void)f; return a * 10 + b; }
struct empty make_empty(int *p) { *p += 1; return (struct empty){}; }
int via_small(struct b5 (*f)(struct b3, struct b7, struct al8), int k) {
  struct b3 x = {(char)k, (char)(k + 1), (char)(k + 2)};
  struct b7 y;
  for (int i = 0; i < 7; i++) y.c[i] = (signed char)(k * i - 50);
  struct b5 r = f(x, y, (struct al8){k * 1000});
  return r.c[0] + r.c[1] * 2 + r.c[2] * 3 + r.c[3] * 4 + r.c[4] * 5;
}

int many12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) {
  return a - b + c - d + e - f + g - h + i - j + k * l;
}
long long vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = vsum_list(n, ap);
  va_end(ap);
  return s;
}
long long call_vsum(long long (*f)(int, ...), int k) {
  struct b8 p8 = {k, 2};
  struct b3 p3 = {1, 2, (char)k};
  struct al8 a8 = {k};
  struct b12 p12 = {k, 20, 30};
  struct b6 p6 = {(short)k, -5, 6};
  struct b16 p16 = {k * 0x100000000LL, 1};
  struct b5 p5 = {{9, 0, 0, 0, (char)k}};
  struct empty e = {};
  /* Where the anonymous arguments go: p8 in a2/a3, then in a7 and at sp+0, a8 at sp+8; a8 in
     a6/a7 (a5 skipped); p12 and p16 by address, e nowhere, p5 at sp+8, the long long at sp+24;
     p8 in a6/a7, a8 at sp+16 (sp+12 skipped) and at sp+40. */
  return f(4, 2, p8, 3, p3, 2, p8, 4, a8) * 3 + f(2, 2, p8, 4, a8) * 5 +
         f(6, 5, p12, 6, p6, 7, p16, 8, e, 9, p5, 1, (long long)k) + f(7, 0, 1, 3, p3, 2, p8, 0, 2, 4, a8, 9, p5, 4, a8);
}

int apply_twice(int (*f)(int), int x) { return f(f(x)); }
long long fold(long long (*f)(long long, int), long long init, int n) { for (int i = 0; i < n; i++) init = f(init, i); return init; }
struct b12 via_callback(struct b12 (*f)(struct b12, int), int k) { struct b12 s = {k, k + 1, k + 2}; return f(s, k); }
