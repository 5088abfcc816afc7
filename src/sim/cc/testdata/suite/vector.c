/* GCC vector types of 4 bytes (the Deeploy tutorial's SIMD kernels): int8 x 4 and uint8 x 4,
   int16 x 2, elementwise + - * / & | ^ << >> ~ and unary minus with wrap-around per lane,
   comparisons (lanes of 0 / -1), scalars splatted, element reads and writes, vectors in memory,
   as arguments and results, reinterpreted as int. */
#include "test.h"

typedef int8_t v4s __attribute__((vector_size(4)));
typedef uint8_t v4u __attribute__((vector_size(4)));
typedef int16_t v2s __attribute__((vector_size(4)));

static v4s add4(v4s a, v4s b) { return a + b; }
static int dot4(v4s a, v4s b) { int s = 0; for (int i = 0; i < 4; i++) s += a[i] * b[i]; return s; }
static uint32_t bits(v4s v) { uint32_t u; memcpy(&u, &v, 4); return u; }
static uint32_t ubits(v4u v) { uint32_t u; memcpy(&u, &v, 4); return u; }
static uint32_t hbits(v2s v) { uint32_t u; memcpy(&u, &v, 4); return u; }

int main(void) {
  ASSERT(4, sizeof(v4s));
  ASSERT(4, _Alignof(v4s));
  ASSERT(4, sizeof(v2s));

  v4s a = {1, -2, 127, -128};
  v4s b = {HIDE(10), 20, 1, -1};
  ASSERT(0x7f80120b, bits(add4(a, b)));
  v4s c = a + b;
  ASSERT(11, c[0]);
  ASSERT(18, c[1]);
  ASSERT(-128, c[2]); /* 127 + 1 wraps */
  ASSERT(127, c[3]);  /* -128 - 1 wraps */
  c = a - b;
  ASSERT(-9, c[0]);
  ASSERT(-22, c[1]);
  ASSERT(126, c[2]);
  ASSERT(-127, c[3]);
  c = a * b;
  ASSERT(10, c[0]);
  ASSERT(-40, c[1]);
  ASSERT(127, c[2]);
  ASSERT(-128, c[3]); /* -128 * -1 wraps */
  c = b / (v4s){3, 3, 1, -1};
  ASSERT(3, c[0]);
  ASSERT(6, c[1]);
  ASSERT(1, c[3]);
  c = a & b;
  ASSERT(0, c[0]);
  ASSERT(1, c[2]);
  c = a | b;
  ASSERT(11, c[0]);
  ASSERT(-1, c[3]);
  c = a ^ b;
  ASSERT(11, c[0]);
  ASSERT(127, c[3]);
  c = ~a;
  ASSERT(-2, c[0]);
  ASSERT(127, c[3]);
  c = -a;
  ASSERT(-1, c[0]);
  ASSERT(-128, c[3]); /* -(-128) wraps */
  c = a << 1;
  ASSERT(2, c[0]);
  ASSERT(-2, c[2]);
  c = a >> 1; /* arithmetic per lane */
  ASSERT(-1, c[1]);
  ASSERT(-64, c[3]);
  c = a + 1; /* the scalar is splatted */
  ASSERT(2, c[0]);
  ASSERT(-128, c[2]);
  c = a * 2;
  ASSERT(-4, c[1]);

  v4s eq = a == (v4s){1, 0, 127, 0};
  ASSERT(-1, eq[0]);
  ASSERT(0, eq[1]);
  ASSERT(-1, eq[2]);
  v4s gt = a > b;
  ASSERT(0, gt[0]);
  ASSERT(-1, gt[2]);
  ASSERT(0, gt[3]);
  ASSERT(10 - 40 + 127 + 128, dot4(a, b));

  /* Unsigned lanes: wrap to 0..255, logical shifts, unsigned compare. */
  v4u u = {250, 5, 128, 0};
  v4u v = u + (v4u){10, 251, 128, 255};
  ASSERT(4, v[0]);
  ASSERT(0, v[1]);
  ASSERT(0, v[2]);
  ASSERT(255, v[3]);
  v = u >> 1;
  ASSERT(125, v[0]);
  ASSERT(64, v[2]);
  v4s ugt = (v4s)(u > (v4u){5, 5, 5, 5});
  ASSERT(-1, ugt[0]);
  ASSERT(0, ugt[1]);
  ASSERT(-1, ugt[2]);
  ASSERT(0x008005fa, ubits(u));

  /* int16 x 2. */
  v2s h = {HIDE(30000), -30000};
  v2s h2 = h + (v2s){10000, -10000};
  ASSERT(-25536, h2[0]);
  ASSERT(25536, h2[1]);
  h2 = h >> 4;
  ASSERT(1875, h2[0]);
  ASSERT(-1875, h2[1]);
  ASSERT(0x8ad07530, hbits(h));

  /* Element writes, vectors in arrays and through pointers, casts to and from int. */
  v4s w = {0};
  w[2] = HIDE(55);
  ASSERT(0x00370000, bits(w));
  v4s arr[3] = {{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
  v4s sum = {0};
  for (int i = 0; i < 3; i++) sum += arr[i];
  ASSERT(0x06060606, bits(sum));
  v4s *pv = &arr[1];
  *pv *= 5;
  ASSERT(10, arr[1][3]);
  ASSERT(0x0a0a0a0a, (int)arr[1]);
  v4s from_int = (v4s)HIDE(0x04fd02ff);
  ASSERT(-1, from_int[0]);
  ASSERT(2, from_int[1]);
  ASSERT(-3, from_int[2]);
  ASSERT(4, from_int[3]);
  return done();
}
