/* The callee side of the cross-compiler ABI test (see abi.h). */
#include <stdarg.h>
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

int many12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) {
  return a - b + c - d + e - f + g - h + i - j + k * l;
}
long long vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = 0;
  for (int i = 0; i < n; i++) {
    int tag = va_arg(ap, int);
    if (tag == 0) s += va_arg(ap, int);
    else if (tag == 1) s += va_arg(ap, long long);
    else { struct b8 p = va_arg(ap, struct b8); s += p.a * 100 + p.b; }
  }
  va_end(ap);
  return s;
}

int apply_twice(int (*f)(int), int x) { return f(f(x)); }
long long fold(long long (*f)(long long, int), long long init, int n) { for (int i = 0; i < n; i++) init = f(init, i); return init; }
struct b12 via_callback(struct b12 (*f)(struct b12, int), int k) { struct b12 s = {k, k + 1, k + 2}; return f(s, k); }
