/* Register pressure: more live values than registers (spills and reloads), live across calls
   (callee-saved registers and the stack), 64-bit values in pairs, many accumulators in a loop,
   and deep expression trees. */
#include "test.h"

static int noise(int x) { return HIDE(x); }

/* 24 values live at once, all needed after a call. */
static unsigned many_live(unsigned seed) {
  unsigned v0 = seed + 0, v1 = seed * 3, v2 = seed ^ 0x55, v3 = seed - 7, v4 = seed << 2, v5 = seed | 9;
  unsigned v6 = seed * seed, v7 = seed + 100, v8 = seed & 0xf0, v9 = ~seed, v10 = seed >> 1, v11 = seed * 11;
  unsigned v12 = seed + 12, v13 = seed * 13, v14 = seed - 14, v15 = seed ^ 15, v16 = seed + 16, v17 = seed * 17;
  unsigned v18 = seed - 18, v19 = seed | 19, v20 = seed + 20, v21 = seed * 21, v22 = seed ^ 22, v23 = seed + 23;
  unsigned c = (unsigned)noise((int)seed);
  return v0 + v1 - v2 + v3 * 2 - v4 + v5 + v6 - v7 + v8 + v9 + v10 - v11 + v12 + v13 - v14 + v15 + v16 - v17 + v18 + v19 - v20 + v21 + v22 - v23 + c;
}

static unsigned many_live_ref(unsigned seed) {
  unsigned t = 0;
  t += seed; t += seed * 3; t -= seed ^ 0x55; t += (seed - 7) * 2; t -= seed << 2; t += seed | 9; t += seed * seed; t -= seed + 100;
  t += seed & 0xf0; t += ~seed; t += seed >> 1; t -= seed * 11; t += seed + 12; t += seed * 13; t -= seed - 14; t += seed ^ 15;
  t += seed + 16; t -= seed * 17; t += seed - 18; t += seed | 19; t -= seed + 20; t += seed * 21; t += seed ^ 22; t -= seed + 23;
  return t + seed;
}

/* Twelve 64-bit values live across calls. */
static unsigned long long many_live64(unsigned long long s) {
  unsigned long long a = s, b = s * 3, c = s + 0x100000000LL, d = s ^ 0x5555555555LL, e = s << 7, f = s - 1;
  unsigned long long g = s >> 3, h = s * s, i = ~s, j = s | 0xff00000000LL, k = s + 99, l = s * (unsigned long long)-5;
  unsigned long long x = (unsigned long long)noise((int)s);
  unsigned long long y = (unsigned long long)noise((int)(s >> 32));
  return a + b - c + d - e + f + g - h + i + j - k + l + x + y;
}

/* Sixteen accumulators in one loop. */
static void accumulate(const int *in, int n, int *out) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0, a8 = 0, a9 = 0, a10 = 0, a11 = 0, a12 = 0, a13 = 0, a14 = 0, a15 = 0;
  for (int i = 0; i < n; i++) {
    int v = in[i];
    a0 += v; a1 += v * 2; a2 ^= v; a3 += v & 1; a4 = a4 > v ? a4 : v; a5 += v >> 1; a6 -= v; a7 += i * v;
    a8 |= v; a9 += v * v; a10 += (v < 50); a11 += a0; a12 += a1 - a0; a13 ^= a11; a14 += v % 7; a15 += a3 * v;
  }
  int r[16] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15};
  for (int i = 0; i < 16; i++) out[i] = r[i];
}

static void accumulate_ref(const int *in, int n, int *out) {
  for (int k = 0; k < 16; k++) out[k] = 0;
  for (int i = 0; i < n; i++) {
    int v = in[i];
    out[0] += v; out[1] += v * 2; out[2] ^= v; out[3] += v & 1; if (v > out[4]) out[4] = v; out[5] += v >> 1; out[6] -= v; out[7] += i * v;
    out[8] |= v; out[9] += v * v; out[10] += (v < 50); out[11] += out[0]; out[12] += out[1] - out[0]; out[13] ^= out[11]; out[14] += v % 7; out[15] += out[3] * v;
  }
}

int main(void) {
  int bad = 0;
  for (int s = -50; s < 50; s += 7) bad += many_live(HIDE((unsigned)s)) != many_live_ref((unsigned)s);
  ASSERT(0, bad);
  ASSERT(many_live_ref(123456u), many_live(HIDE(123456u)));

  unsigned long long s = HIDE(0x123456789ULL);
  unsigned long long want = s + s * 3 - (s + 0x100000000LL) + (s ^ 0x5555555555LL) - (s << 7) + (s - 1) + (s >> 3) - s * s + ~s + (s | 0xff00000000LL) - (s + 99) + s * (unsigned long long)-5
    + (unsigned long long)(long long)(int)s + (unsigned long long)(long long)(int)(s >> 32);
  ASSERT(want, many_live64(s));

  int in[100], out[16], ref[16];
  for (int i = 0; i < 100; i++) in[i] = (i * 37 + 11) % 101;
  accumulate(in, 100, out);
  accumulate_ref(in, 100, ref);
  int diff = 0;
  for (int i = 0; i < 16; i++) diff += out[i] != ref[i];
  ASSERT(0, diff);
  ASSERT(ref[9], out[9]);

  /* A deep expression tree over eight inputs. */
  int a = HIDE(3), b = HIDE(5), c = HIDE(7), d = HIDE(11), e = HIDE(13), f = HIDE(17), g = HIDE(19), h = HIDE(23);
  int t = ((a * b + c * d) * (e * f - g * h) + (a - b) * (c + d) * (e - f) * (g + h)) ^ ((a + b + c + d) * (e + f + g + h) - (a * h + b * g + c * f + d * e));
  ASSERT(((3 * 5 + 7 * 11) * (13 * 17 - 19 * 23) + (3 - 5) * (7 + 11) * (13 - 17) * (19 + 23)) ^ ((3 + 5 + 7 + 11) * (13 + 17 + 19 + 23) - (3 * 23 + 5 * 19 + 7 * 17 + 11 * 13)), t);
  return done();
}
