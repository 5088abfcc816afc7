/*
 * The kernels' fast paths against the formulas in 64 bits, on random parameters chosen to
 * land on both sides of each path's bound (multipliers too large for 32 bits, shifts 0 and 31,
 * clip limits, signed and unsigned inputs at their extremes, odd lengths, 1 to 8 cores).
 * Prints one line per kernel: "<name>: checked N, bad B".
 */
#include <stdio.h>
#include <stdlib.h>
#include "dpg_kernels.h"

int harness_cores = 1, harness_id = 0;

static uint32_t seed = 12345;
static uint32_t rnd(void) { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static int32_t between(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1)); }

static int64_t floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int64_t shr64(int64_t v, int64_t s) { return s >= 63 ? (v < 0 ? -1 : 0) : v >> s; }

/** Bytes at the extremes (0x00, 0x7f, 0x80, 0xff) or uniform. */
static void fill_bytes(uint8_t *p, uint32_t n) {
  const int mode = between(0, 2);
  for (uint32_t i = 0; i < n; i++) p[i] = mode == 0 ? (uint8_t)rnd() : mode == 1 ? (rnd() & 1 ? 0x80 : 0x7f) : (rnd() & 1 ? 0x00 : 0xff);
}

/** Runs a kernel call on every core of a random team. */
#define ON_ALL_CORES(call) do { harness_cores = between(1, 8); for (harness_id = 0; harness_id < harness_cores; harness_id++) call; } while (0)

static int64_t ld(const void *p, int t, uint32_t i) { return dpg_ld(p, (dpg_type_t)t, i); }

static void check_isoftmax(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 8000; it++) {
    /* odd iterations: exponentials near 2^15 and rows of close values, so row sums reach the
       bounds of the division's multiply-only paths (e*sum < 2^24, < 2^32) */
    const int wide = it & 1;
    const int32_t A = wide ? between(1, 2) : between(0, 3) == 0 ? -between(0, 2) : between(1, 3);
    const int32_t B = wide ? between(60, 128) : between(1, 250), C = between(-2500, 3000);
    const int32_t log2 = wide ? between(20, 300) : between(1, 60), nl = between(0, 3) == 0 ? between(2, 256) : 256;
    const int s = rnd() & 1;
    const uint32_t L = between(1, 70), rows = between(1, 5);
    uint8_t x[400], y[400];
    fill_bytes(x, rows * L);
    if (wide && (rnd() & 1)) for (uint32_t i = 0; i < rows * L; i++) x[i] = (uint8_t)(x[0] + between(0, 12));
    ON_ALL_CORES(dpg_isoftmax(x, s, y, rows, L, A, B, C, log2, nl));
    for (uint32_t r = 0; r < rows; r++) {
      int64_t mx = -1000, sum = 0, e[70];
      for (uint32_t j = 0; j < L; j++) { const int64_t v = s ? (int8_t)x[r * L + j] : x[r * L + j]; if (v > mx) mx = v; }
      for (uint32_t j = 0; j < L; j++) {
        const int64_t xt = (s ? (int8_t)x[r * L + j] : x[r * L + j]) - mx, z = floordiv(-xt, log2), p = xt + z * log2;
        sum += e[j] = shr64((int64_t)A * (p + B) * (p + B) + C, z);
      }
      for (uint32_t j = 0; j < L; j++, n++)
        bad += y[r * L + j] != (uint8_t)clamp64(sum > 0 ? floordiv(e[j] * (nl - 1), sum) : 0, 0, nl - 1);
    }
  }
  printf("isoftmax: checked %ld, bad %ld\n", n, bad);
}

static void check_ilayernorm(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 4000; it++) {
    const int s = rnd() & 1;
    const uint32_t L = between(1, 70), rows = between(1, 5), wl = between(0, 2) == 0 ? 1 : L, bl = between(0, 2) == 0 ? 1 : L;
    int32_t w[70], b[70];
    const int kind = between(0, 3);
    for (uint32_t j = 0; j < wl; j++)
      w[j] = kind == 0 ? between(-1000000, 1000000) * 8 : kind == 1 ? between(-32768, 32767) : kind == 2 ? (rnd() & 1 ? 8388607 : -8388608) : between(0, 99);
    for (uint32_t j = 0; j < bl; j++) b[j] = between(0, 1) ? between(-3000, 3000) : between(-4000000, 4000000) * 256;
    /* D: powers of two (the shift) and odd multiples (the divide by den*D'), now and then huge */
    const int dk = between(0, 3);
    const int32_t D = dk == 0 ? 1 << between(0, 20) : dk == 1 ? between(1, 99) * (1 << between(0, 12)) : dk == 2 ? between(1, 2000) : between(1, 0x7fffffff);
    const int range_kind = between(0, 2);
    const int32_t lo = range_kind == 0 ? between(-128, -119) : range_kind == 1 ? between(0, 10) : between(-256, 200);
    const int32_t hi = range_kind == 0 ? between(118, 127) : range_kind == 1 ? between(245, 255) : lo + between(0, 55);
    uint8_t x[400], y[400];
    fill_bytes(x, rows * L);
    ON_ALL_CORES(dpg_ilayernorm(x, s, w, wl, b, bl, y, rows, L, D, lo, hi));
    for (uint32_t r = 0; r < rows; r++) {
      int64_t sum = 0, sq = 0;
      for (uint32_t j = 0; j < L; j++) sum += s ? (int8_t)x[r * L + j] : x[r * L + j];
      const int64_t mean = sum / (int64_t)L;
      for (uint32_t j = 0; j < L; j++) { const int64_t d = (s ? (int8_t)x[r * L + j] : x[r * L + j]) - mean; sq += d * d; }
      const int64_t den = dpg_isqrt((uint64_t)(sq / L) + 1);
      for (uint32_t j = 0; j < L; j++, n++) {
        const int64_t nom = (s ? (int8_t)x[r * L + j] : x[r * L + j]) - mean;
        const int64_t v = nom * w[wl == 1 ? 0 : j] / den + b[bl == 1 ? 0 : j];
        bad += y[r * L + j] != (uint8_t)clamp64(floordiv(v, D), lo, hi);
      }
    }
  }
  printf("ilayernorm: checked %ld, bad %ld\n", n, bad);
}

/* iNoNorm's parameter walk (counters instead of (i / inner) % count) over random broadcasts. */
static void check_inonorm(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 3000; it++) {
    const int s = rnd() & 1;
    const uint32_t len = between(1, 300);
    int32_t wv[64], bv[64];
    const uint32_t wc = between(0, 2) == 0 ? 1 : between(1, 64), bc = between(0, 2) == 0 ? 1 : between(1, 64);
    const dpg_param_t w = {wv, between(1, 9), wc}, b = {bv, between(1, 9), bc};
    for (uint32_t j = 0; j < 64; j++) { wv[j] = between(-40000, 40000); bv[j] = between(-1000000, 1000000); }
    const int32_t mul = between(-3000, 3000), log2d = between(0, 30), lo = between(-128, -100), hi = between(100, 127);
    uint8_t x[300], y[300];
    fill_bytes(x, len);
    ON_ALL_CORES(dpg_inonorm(x, s, w, b, mul, log2d, y, len, lo, hi));
    for (uint32_t i = 0; i < len; i++, n++) {
      const int64_t wi = w.count == 1 ? wv[0] : wv[(i / w.inner) % w.count], bi = b.count == 1 ? bv[0] : bv[(i / b.inner) % b.count];
      const int64_t v = (s ? (int8_t)x[i] : x[i]) * wi + bi;
      bad += y[i] != (uint8_t)clamp64((v * mul) >> log2d, lo, hi);
    }
  }
  printf("inonorm: checked %ld, bad %ld\n", n, bad);
}

static void check_irmsnorm(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 4000; it++) {
    const int s = rnd() & 1;
    const uint32_t L = between(1, 70), rows = between(1, 5), wl = between(0, 2) == 0 ? 1 : L;
    int32_t w[70];
    const int kind = between(0, 3);
    for (uint32_t j = 0; j < wl; j++)
      w[j] = kind == 0 ? between(-1000000, 1000000) * 8 : kind == 1 ? between(-32768, 32767) : kind == 2 ? (rnd() & 1 ? 8388607 : -8388608) : between(0, 99);
    /* clip ranges of int8 and uint8 outputs, and narrow ones anywhere in [-256, 255] */
    const int range_kind = between(0, 2);
    const int32_t log2d = between(0, 3) == 0 ? between(0, 40) : between(0, 19);
    const int32_t lo = range_kind == 0 ? between(-128, -119) : range_kind == 1 ? between(0, 10) : between(-256, 200);
    const int32_t hi = range_kind == 0 ? between(118, 127) : range_kind == 1 ? between(245, 255) : lo + between(0, 55);
    uint8_t x[400], y[400];
    fill_bytes(x, rows * L);
    ON_ALL_CORES(dpg_irmsnorm(x, s, w, wl, y, rows, L, log2d, lo, hi));
    for (uint32_t r = 0; r < rows; r++) {
      int64_t sq = 0;
      for (uint32_t j = 0; j < L; j++) { const int64_t v = s ? (int8_t)x[r * L + j] : x[r * L + j]; sq += v * v; }
      const int64_t sd = dpg_isqrt((uint64_t)(sq / L) + 1);
      for (uint32_t j = 0; j < L; j++, n++) {
        const int64_t v = s ? (int8_t)x[r * L + j] : x[r * L + j];
        bad += y[r * L + j] != (uint8_t)clamp64(shr64(v * w[wl == 1 ? 0 : j] / sd, log2d), lo, hi);
      }
    }
  }
  printf("irmsnorm: checked %ld, bad %ld\n", n, bad);
}

/** A requantizer's clip range: int8, uint8 or a random sub-range. */
static void pick_range(int32_t *lo, int32_t *hi) {
  switch (between(0, 2)) {
    case 0: *lo = -128; *hi = 127; break;
    case 1: *lo = 0; *hi = 255; break;
    default: *lo = between(-100, -50); *hi = *lo + between(0, 150);
  }
}

static int32_t pick_mul(void) {
  return between(0, 2) == 0 ? between(-1000000, 1000000) * between(1, 2000) : between(0, 2) == 0 ? 1 << between(0, 20) : between(-35000, 35000);
}

static void check_requant_shift(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 20000; it++) {
    const int xt = between(0, 3);
    const uint32_t N = between(1, 61);
    int32_t m = pick_mul(), a = between(0, 2) == 0 ? (int32_t)(rnd() << 8) : between(-50000, 50000), lo, hi;
    const int32_t sh = between(0, 3) == 0 ? between(0, 1) * 31 : between(0, 31), off = between(0, 2) == 0 ? between(-128, 127) : 0;
    pick_range(&lo, &hi);
    int16_t x[64];
    uint8_t y[64];
    fill_bytes((uint8_t *)x, sizeof x);
    const dpg_param_t pm = {&m, 1, 1}, pa = {&a, 1, 1};
    const dpg_type_t yt = lo < 0 ? DPG_S8 : DPG_U8;
    ON_ALL_CORES(dpg_requant_shift(x, (dpg_type_t)xt, off, pm, pa, sh, lo, hi, y, yt, N));
    for (uint32_t i = 0; i < N; i++, n++) {
      const int64_t half = sh > 0 ? (int64_t)1 << (sh - 1) : 0;
      bad += y[i] != (uint8_t)clamp64(((ld(x, xt, i) + off) * m + a + half) >> sh, lo, hi);
    }
  }
  printf("requant_shift: checked %ld, bad %ld\n", n, bad);
}

static int64_t rq64(int64_t v, const dpg_rq_t *r) { return clamp64((v * r->mul + r->add) >> r->shift, r->lo, r->hi); }

static void check_rq_add(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 6000; it++) {
    const int at = between(0, 1), bt = between(0, 1);
    dpg_rq_t rq[3];
    for (int k = 0; k < 3; k++) {
      rq[k].mul = pick_mul();
      rq[k].add = between(0, 2) == 0 ? (int32_t)(rnd() << 8) : between(-50000, 50000);
      rq[k].shift = between(0, 3) == 0 ? between(0, 1) * 31 : between(0, 31);
      pick_range(&rq[k].lo, &rq[k].hi);
    }
    if (between(0, 3) == 0) /* identity input requantizers (int8 residual adds) */
      for (int k = 0; k < 2; k++) rq[k] = (dpg_rq_t){1, 0, 0, between(0, 1) ? -128 : -129, between(0, 1) ? 127 : 128};
    /* [R, C] + [C] (b broadcast over rows) or [R, C] + [R, C]; one in four large enough for the
       table path (RQ_ADD_TABLE_MIN elements per core, few cores) */
    const int big = between(0, 3) == 0;
    const uint32_t R = between(1, 4), C = big ? between(1030, 1500) : between(1, 37), bcast = rnd() & 1;
    const dpg_walk_t walk = {2, {R, C}, {{(int32_t)C, 1}, {(int32_t)C, 1}, {bcast ? 0 : (int32_t)C, 1}}};
    static uint8_t a[6000], b[6000], y[6000];
    fill_bytes(a, R * C);
    fill_bytes(b, R * C);
    const dpg_type_t yt = rq[2].lo < 0 ? DPG_S8 : DPG_U8;
    if (big) {
      harness_cores = between(1, 4);
      for (harness_id = 0; harness_id < harness_cores; harness_id++) dpg_rq_add(a, (dpg_type_t)at, b, (dpg_type_t)bt, y, yt, &walk, rq);
    } else {
      ON_ALL_CORES(dpg_rq_add(a, (dpg_type_t)at, b, (dpg_type_t)bt, y, yt, &walk, rq));
    }
    for (uint32_t r = 0; r < R; r++)
      for (uint32_t c = 0; c < C; c++, n++) {
        const int64_t u = rq64(ld(a, at, r * C + c), &rq[0]), v = rq64(ld(b, bt, (bcast ? 0 : r * C) + c), &rq[1]);
        bad += y[r * C + c] != (uint8_t)rq64(u + v, &rq[2]);
      }
  }
  printf("rq_add: checked %ld, bad %ld\n", n, bad);
}

static void check_binary(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 6000; it++) {
    const dpg_binop_t op = (dpg_binop_t)between(0, 2);
    const int at = between(0, 1), bt = between(0, 1), yt = between(2, 4) == 3 ? DPG_S8 : between(0, 1) ? DPG_S16 : DPG_S32;
    const int32_t ao = between(0, 2) == 0 ? between(-16384, 16384) : 0, bo = between(0, 2) == 0 ? between(-300, 300) : 0;
    /* [R, C] op [C] (b broadcast over rows), [R, C] op [R, C] or [R, C] op [R, 1] (strided) */
    const uint32_t R = between(1, 4), C = between(1, 40), kind = between(0, 2);
    const dpg_walk_t walk = {2, {R, C}, {{(int32_t)C, 1}, {(int32_t)C, 1}, {kind == 0 ? 0 : kind == 1 ? (int32_t)C : 1, kind == 2 ? 0 : 1}}};
    static uint8_t a[200], b[200];
    static int32_t y[200];
    fill_bytes(a, R * C);
    fill_bytes(b, R * C);
    ON_ALL_CORES(dpg_binary(op, a, (dpg_type_t)at, ao, b, (dpg_type_t)bt, bo, y, (dpg_type_t)yt, &walk));
    for (uint32_t r = 0; r < R; r++)
      for (uint32_t c = 0; c < C; c++, n++) {
        const uint32_t ib = kind == 0 ? c : kind == 1 ? r * C + c : r;
        const int64_t u = ld(a, at, r * C + c) + ao, v = ld(b, bt, ib) + bo;
        const int64_t want = op == DPG_ADD ? u + v : op == DPG_SUB ? u - v : u * v;
        const int64_t got = ld(y, yt, r * C + c);
        bad += yt == DPG_S8 ? (int8_t)got != (int8_t)want : yt == DPG_S16 ? (int16_t)got != (int16_t)want : got != want;
      }
  }
  printf("binary: checked %ld, bad %ld\n", n, bad);
}

static void check_hardswish(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 1500; it++) {
    const int xt = between(0, 1);
    const uint32_t N = between(0, 1) ? between(1, 40) : between(1024, 3000);
    int32_t m = between(0, 3) == 0 ? between(-1000000, 1000000) * 64 : between(-3000, 3000), a = between(-50000, 50000);
    const int32_t three = between(0, 200), six = between(0, 400), c = between(0, 60), off = between(0, 2) == 0 ? between(-128, 127) : 0;
    const int32_t sh = between(0, 3) == 0 ? between(0, 1) * 31 : between(0, 31);
    int32_t lo, hi;
    pick_range(&lo, &hi);
    const dpg_unary_t f = {DPG_HARDSWISH, three, six, c, 1, {&m, 1, 1}, {&a, 1, 1}, sh, lo, hi};
    static uint8_t x[3000], y[3000];
    fill_bytes(x, N);
    harness_cores = N >= 1024 ? between(1, 2) : between(1, 8);
    for (harness_id = 0; harness_id < harness_cores; harness_id++) dpg_unary(x, (dpg_type_t)xt, off, y, lo < 0 ? DPG_S8 : DPG_U8, N, &f);
    for (uint32_t i = 0; i < N; i++, n++) {
      const int64_t v = ld(x, xt, i) + off, t = clamp64(v + three, 0, six), h = v * (t * c);
      const int64_t half = sh > 0 ? (int64_t)1 << (sh - 1) : 0;
      bad += y[i] != (uint8_t)clamp64((h * m + a + half) >> sh, lo, hi);
    }
  }
  printf("hardswish: checked %ld, bad %ld\n", n, bad);
}

/** The reference: element i of the walk (row-major over its shape) copied from stride[1] to stride[0]. */
static void check_copy_nd(void) {
  long n = 0, bad = 0;
  for (int it = 0; it < 6000; it++) {
    /* a transpose of a [A, B, C] byte tensor: dst [A, B, C] order, src strides of a permuted layout;
       C a multiple of 4 half the time (the word copies) */
    const uint32_t A = between(1, 6), B = between(1, 9), C = between(0, 1) ? 4 * between(1, 4) : between(1, 9);
    const int perm = between(0, 2);
    const int32_t src_str[3][3] = {{B * C, C, 1}, {C, A * C, 1}, {1, C * A, A}};
    const dpg_walk_t walk = {3, {A, B, C}, {{(int32_t)(B * C), (int32_t)C, 1}, {src_str[perm][0], src_str[perm][1], src_str[perm][2]}, {0, 0, 0}}};
    static uint8_t x[1000], y[1000]; /* up to 6 * 9 * 16 */
    fill_bytes(x, A * B * C);
    ON_ALL_CORES(dpg_copy_nd(y, DPG_S8, x, DPG_S8, &walk));
    for (uint32_t a = 0; a < A; a++)
      for (uint32_t b = 0; b < B; b++)
        for (uint32_t c = 0; c < C; c++, n++)
          bad += y[(a * B + b) * C + c] != x[a * walk.stride[1][0] + b * walk.stride[1][1] + c * walk.stride[1][2]];
  }
  printf("copy_nd: checked %ld, bad %ld\n", n, bad);
}

/* Conv weights: at the extremes (-128, 127: the accumulator bound is reached with x at its own) or uniform. */
static void fill_weights(int8_t *w, uint32_t n) {
  const int mode = between(0, 2);
  for (uint32_t i = 0; i < n; i++) w[i] = mode == 0 ? (int8_t)rnd() : mode == 1 ? -128 : (int8_t)(rnd() & 1 ? -128 : 127);
}

/* Per-channel multipliers around the 32-bit bound for |acc| <= acc_max (either side, either sign), addends small or large. */
static void conv_params(int32_t *m, int32_t *a, uint32_t n, int64_t acc_max) {
  const int32_t at = (int32_t)(0x7fffffff / acc_max);
  for (uint32_t i = 0; i < n; i++) {
    m[i] = between(0, 3) == 0 ? between(-40, 40) : (at + between(-3, 3)) * (rnd() & 1 ? 1 : -1);
    a[i] = between(0, 2) == 0 ? between(-(1 << 20), 1 << 20) : between(-3000, 3000);
  }
}

/* A random conv geometry with at least one output: windows 1..4 (3x3 half the time), strides 1..2, padding 0..2. */
static dpg_conv_geom_t conv_geometry(uint32_t C, uint32_t M, uint32_t group) {
  dpg_conv_geom_t g;
  for (;;) {
    g.N = between(1, 2), g.C = C, g.M = M, g.group = group;
    g.H = between(1, 12), g.W = between(1, 12);
    g.KH = between(0, 1) ? 3 : between(1, 4), g.KW = g.KH == 3 && between(0, 3) ? 3 : between(1, 4);
    g.stride_h = between(1, 2), g.stride_w = between(1, 2);
    g.pad_top = between(0, 2), g.pad_left = between(0, 2);
    const uint32_t pb = between(0, 2), pr = between(0, 2);
    if (g.H + g.pad_top + pb < g.KH || g.W + g.pad_left + pr < g.KW) continue;
    g.OH = (g.H + g.pad_top + pb - g.KH) / g.stride_h + 1, g.OW = (g.W + g.pad_left + pr - g.KW) / g.stride_w + 1;
    return g;
  }
}

/* dpg_rq_dwconv_hwc and dpg_rq_conv_hwc: every path (the depthwise copy, channel runs, small images, im2col blocks of
   one to three pixels, channel groups shared by the cores) against the sum and requant in 64 bits, with inputs and weights at their extremes and multipliers on
   both sides of the 32-bit bound. */
static void check_convs(void) {
  long n = 0, bad = 0;
  static uint8_t x[2 * 12 * 12 * 16], y[2 * 12 * 12 * 40], col[8 * 3 * 128 + 8 * 4 * 4 * 16];
  static int8_t w[40 * 4 * 4 * 16];
  for (int it = 0; it < 6000; it++) {
    const int dw = it & 1, s = rnd() & 1;
    const uint32_t C = between(dw ? 2 : 1, 16), M = dw ? C : between(0, 2) ? between(1, 12) : between(13, 40);
    const dpg_conv_geom_t g = conv_geometry(C, M, dw ? C : 1);
    const uint32_t K = g.KH * g.KW * (dw ? 1 : C);
    int32_t m[40], a[40], lo, hi;
    conv_params(m, a, M, (int64_t)K * (s ? 128 : 255) * 128);
    pick_range(&lo, &hi);
    const int32_t sh = between(0, 3) == 0 ? between(0, 1) * 31 : between(8, 31);
    const dpg_param_t pm = {m, 1, M}, pa = {a, 1, M}; /* per channel: inner 1, count M */
    fill_bytes(x, g.N * g.H * g.W * C);
    fill_weights(w, M * K);
    if (dw) ON_ALL_CORES(dpg_rq_dwconv_hwc(x, s, w, pm, pa, sh, lo, hi, y, &g));
    else ON_ALL_CORES(dpg_rq_conv_hwc(x, s, w, pm, pa, sh, lo, hi, y, &g, col));
    for (uint32_t p = 0; p < g.N * g.OH * g.OW; p++) {
      const uint32_t ow = p % g.OW, oh = p / g.OW % g.OH, b = p / (g.OW * g.OH);
      for (uint32_t o = 0; o < M; o++, n++) {
        int64_t acc = 0;
        for (uint32_t kh = 0; kh < g.KH; kh++)
          for (uint32_t kw = 0; kw < g.KW; kw++) {
            const int32_t ih = (int32_t)(oh * g.stride_h + kh) - (int32_t)g.pad_top, iw = (int32_t)(ow * g.stride_w + kw) - (int32_t)g.pad_left;
            if (ih < 0 || ih >= (int32_t)g.H || iw < 0 || iw >= (int32_t)g.W) continue;
            const uint8_t *xp = x + ((b * g.H + (uint32_t)ih) * g.W + (uint32_t)iw) * C;
            if (dw) acc += (int64_t)(s ? (int8_t)xp[o] : xp[o]) * w[(o * g.KH + kh) * g.KW + kw];
            else
              for (uint32_t c = 0; c < C; c++) acc += (int64_t)(s ? (int8_t)xp[c] : xp[c]) * w[((o * g.KH + kh) * g.KW + kw) * C + c];
          }
        bad += y[p * M + o] != (uint8_t)clamp64((acc * m[o] + a[o]) >> sh, lo, hi);
      }
    }
  }
  printf("convs: checked %ld, bad %ld\n", n, bad);
}

int main(void) {
  check_isoftmax();
  check_irmsnorm();
  check_ilayernorm();
  check_inonorm();
  check_requant_shift();
  check_rq_add();
  check_binary();
  check_hardswish();
  check_copy_nd();
  check_convs();
  return 0;
}
