/*
 * dpg_kernels.h: the Deeploy Playground kernel library, the one header generated code includes.
 *
 * Every kernel is called inside a fork (hal_fork) by all cores of the fork; each core works on
 * its own share of the kernel's natural dimension (dpg_chunk) and writes disjoint outputs, so
 * the result is the same for any core count from 1 to 8. Kernels never allocate: scratch
 * buffers (im2col rows) come from the caller, one slice per core.
 *
 * One C function serves a kernel family of the catalogues (src/compiler/platforms, the kernel lists);
 * dtypes that only change how an element is loaded or stored are runtime arguments
 * (dpg_type_t), 8-bit inner loops are specialised by signedness. The bit-exact specification of
 * every kernel is the reference interpreter (src/compiler/ops); comments give the formula.
 *
 *   family (binding name)                    function
 *   Conv*_CHW / DWConv*_CHW / Conv*_HWC ...  dpg_conv            direct conv, int32 accumulator
 *   RequantizedConv*_HWC                     dpg_rq_conv_hwc     im2col + 4-way int8 dot products
 *   RequantizedPwConv*_HWC                   dpg_rq_pwconv_hwc   GEMM over pixels
 *   RequantizedDWConv*_HWC                   dpg_rq_dwconv_hwc   per-channel windows
 *   Gemm_* / MatMul_*                        dpg_gemm            int32 accumulator, trans flags
 *   RequantizedGemm_* / RequantizedMatMul_*  dpg_rq_gemm         A [M,K] x B [N,K], batched
 *   MaxPool*                                 dpg_maxpool
 *   Add_s32 / Sub_s32 / Mul_*                dpg_binary
 *   RequantShift_*                           dpg_requant_shift
 *   RequantizedAdd_*                         dpg_rq_add
 *   Relu / Clip / iHardswish / iGELU / TrueIntegerDiv and their Requantized forms: dpg_unary
 *   IntegerDiv / RQIntegerDiv                dpg_integer_div
 *   iRMSNorm / iLayerNorm / iNoNorm          dpg_irmsnorm / dpg_ilayernorm / dpg_inonorm
 *   iSoftmax / ITAMax / ITAPartialMax        dpg_isoftmax / dpg_itamax
 *   ReduceSum / ReduceMean / IntegerMean     dpg_reduce
 *   Transpose / Pad* / Slice / Concat / Gather / Copy   dpg_fill + dpg_copy_nd (strided copies)
 */
#ifndef DPG_KERNELS_H
#define DPG_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "hal.h"

/* ---- element types ---------------------------------------------------------------------------- */

typedef enum { DPG_S8 = 0, DPG_U8 = 1, DPG_S16 = 2, DPG_U16 = 3, DPG_S32 = 4, DPG_U32 = 5 } dpg_type_t;

/** Element i of a buffer of type t, as int32 (U32 values must stay below 2^31). */
static inline int32_t dpg_ld(const void *p, dpg_type_t t, uint32_t i) {
  switch (t) {
    case DPG_S8: return ((const int8_t *)p)[i];
    case DPG_U8: return ((const uint8_t *)p)[i];
    case DPG_S16: return ((const int16_t *)p)[i];
    case DPG_U16: return ((const uint16_t *)p)[i];
    case DPG_S32: return ((const int32_t *)p)[i];
    default: return (int32_t)((const uint32_t *)p)[i];
  }
}

/** Element i of an 8-bit buffer, int8 or uint8. */
static inline int32_t dpg_ld8(const void *p, int is_signed, uint32_t i) {
  return is_signed ? (int32_t)((const int8_t *)p)[i] : (int32_t)((const uint8_t *)p)[i];
}

/** Stores v (which fits t: codegen picked t from the value range) as element i. */
static inline void dpg_st(void *p, dpg_type_t t, uint32_t i, int32_t v) {
  switch (t) {
    case DPG_S8: ((int8_t *)p)[i] = (int8_t)v; break;
    case DPG_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case DPG_S16: ((int16_t *)p)[i] = (int16_t)v; break;
    case DPG_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case DPG_S32: ((int32_t *)p)[i] = v; break;
    default: ((uint32_t *)p)[i] = (uint32_t)v; break;
  }
}

static inline uint32_t dpg_size(dpg_type_t t) { return t <= DPG_U8 ? 1u : t <= DPG_U16 ? 2u : 4u; }

/* ---- parameters --------------------------------------------------------------------------------
 * A requant multiplier or bias laid over a kernel's output: flat output element i uses
 * v[(i / inner) % count] (a scalar: inner 1, count 1; per HWC channel: inner 1, count C; per
 * CHW channel: inner H*W, count C; per Gemm row: inner N, count M). Codegen materialises any
 * other broadcast. */
typedef struct {
  const int32_t *v;
  uint32_t inner;
  uint32_t count;
} dpg_param_t;

static inline int32_t dpg_param_at(const dpg_param_t *p, uint32_t i) {
  return p->count == 1 ? p->v[0] : p->v[(i / p->inner) % p->count];
}

/* ---- work split ------------------------------------------------------------------------------ */

/** The share [*lo, *hi) of [0, n) the calling core works on: contiguous chunks of ceil(n/cores). */
static inline void dpg_chunk(uint32_t n, uint32_t *lo, uint32_t *hi) {
  uint32_t cores = (uint32_t)hal_num_cores(), id = (uint32_t)hal_core_id();
  uint32_t per = (n + cores - 1) / cores;
  uint32_t a = id * per, b = a + per;
  *lo = a < n ? a : n;
  *hi = b < n ? b : n;
}

/* ---- arithmetic helpers --------------------------------------------------------------------- */

static inline int32_t dpg_clamp(int64_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/** clip(floor((acc*mul + add) / 2^shift), lo, hi) exactly (64-bit product; '>>' floors). */
static inline int32_t dpg_requant(int64_t acc, int32_t mul, int64_t add, int32_t shift, int32_t lo, int32_t hi) {
  return dpg_clamp((acc * mul + add) >> shift, lo, hi);
}

/** floor(a / b) for b != 0 (C's '/' truncates toward zero). */
static inline int64_t dpg_floordiv(int64_t a, int64_t b) {
  /* Operands that fit 32 bits use the core's divider: RV32 has no 64-bit divide, and the
     libcall costs hundreds of cycles (iSoftmax divides three times per element). */
  if (a == (int32_t)a && b == (int32_t)b && a != INT32_MIN) {
    const int32_t a32 = (int32_t)a, b32 = (int32_t)b, q32 = a32 / b32;
    return (a32 % b32 != 0 && ((a32 < 0) != (b32 < 0))) ? q32 - 1 : q32;
  }
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/** Largest r with r*r <= n (n >= 0). */
static inline uint32_t dpg_isqrt(uint64_t n) {
  uint64_t r = 0, bit = (uint64_t)1 << 62;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= r + bit) { n -= r + bit; r = (r >> 1) + bit; }
    else r >>= 1;
    bit >>= 2;
  }
  return (uint32_t)r;
}

/* ---- strided N-d views ----------------------------------------------------------------------- */

#define DPG_MAX_RANK 6

/** Walks `rank` dims of `shape` with element strides per operand (0 = broadcast). */
typedef struct {
  uint32_t rank;
  uint32_t shape[DPG_MAX_RANK];
  int32_t stride[3][DPG_MAX_RANK];
} dpg_walk_t;

/** Position in a walk: the coordinates and each operand's element offset. */
typedef struct {
  uint32_t idx[DPG_MAX_RANK];
  int32_t off[3];
} dpg_cursor_t;

/** The cursor at flat element i of the walk (row-major over shape). */
static inline void dpg_cursor_at(dpg_cursor_t *c, const dpg_walk_t *w, uint32_t i) {
  c->off[0] = c->off[1] = c->off[2] = 0;
  for (int d = (int)w->rank - 1; d >= 0; d--) {
    const uint32_t q = i % w->shape[d];
    i /= w->shape[d];
    c->idx[d] = q;
    for (int k = 0; k < 3; k++) c->off[k] += (int32_t)q * w->stride[k][d];
  }
}

/** Advances the cursor by one element (an odometer over the dims). */
static inline void dpg_cursor_next(dpg_cursor_t *c, const dpg_walk_t *w) {
  for (int d = (int)w->rank - 1; d >= 0; d--) {
    for (int k = 0; k < 3; k++) c->off[k] += w->stride[k][d];
    if (++c->idx[d] < w->shape[d]) return;
    for (int k = 0; k < 3; k++) c->off[k] -= w->stride[k][d] * (int32_t)w->shape[d];
    c->idx[d] = 0;
  }
}

/**
 * *d = *s for the dims in use, a word at a time. Kernels copy their walk (an L2 constant) to the
 * stack; a struct assignment would call the freestanding memcpy, a byte loop: ~16 cycles a byte
 * from L2, 1.6 K cycles per call for a whole walk.
 */
static inline void dpg_walk_copy(dpg_walk_t *d, const dpg_walk_t *s) {
  const uint32_t r = s->rank;
  d->rank = r;
  for (uint32_t i = 0; i < r; i++) {
    d->shape[i] = s->shape[i];
    for (int k = 0; k < 3; k++) d->stride[k][i] = s->stride[k][i];
  }
}

/**
 * Places the cursor at flat element i and returns the length of the run from there along the
 * innermost dim, at most hi - i: kernels that work a run at a time move the cursor once per run.
 */
static inline uint32_t dpg_run_at(dpg_cursor_t *c, const dpg_walk_t *w, uint32_t i, uint32_t hi) {
  dpg_cursor_at(c, w, i);
  const uint32_t last = w->rank - 1, left = w->shape[last] - c->idx[last];
  return left < hi - i ? left : hi - i;
}

/** Elements a walk visits. */
static inline uint32_t dpg_walk_size(const dpg_walk_t *w) {
  uint32_t n = 1;
  for (uint32_t d = 0; d < w->rank; d++) n *= w->shape[d];
  return n;
}

/* ---- convolutions ---------------------------------------------------------------------------- */

/** A 1-D or 2-D window (1-D: H = KH = OH = 1). Padding is implicit zeros. */
typedef struct {
  uint32_t N, C, H, W, M, KH, KW, OH, OW, group;
  uint32_t stride_h, stride_w, pad_top, pad_left;
} dpg_conv_geom_t;

/** Layout: CHW (x[N,C,H,W], w[M,C/g,KH,KW], y[N,M,OH,OW]) or HWC (x[N,H,W,C], w[M,KH,KW,C/g], y[N,OH,OW,M]). */
typedef enum { DPG_CHW = 0, DPG_HWC = 1 } dpg_layout_t;

void dpg_conv(const void *x, dpg_type_t xt, int32_t x_off, const int8_t *w, const int32_t *bias,
              void *y, dpg_type_t yt, const dpg_conv_geom_t *g, dpg_layout_t layout);

void dpg_rq_conv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                     int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g,
                     uint8_t *im2col);
void dpg_rq_pwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, uint32_t pixels, uint32_t C, uint32_t M);
void dpg_rq_dwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g);

void dpg_maxpool(const void *x, dpg_type_t t, void *y, const dpg_conv_geom_t *g, dpg_layout_t layout);

/* ---- matrix products ------------------------------------------------------------------------- */

/** A batched product: batch t reads A at a_off[t] (or t*M*K when a_off is NULL), B likewise. */
typedef struct {
  uint32_t batch, M, K, N;
  int trans_a, trans_b;
  const uint32_t *a_off, *b_off;
} dpg_gemm_geom_t;

/** y = alpha * sum_k (A + a_off)(B + b_off) + beta * c (c.v NULL: no bias), int32 accumulator. */
void dpg_gemm(const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt, int32_t b_off,
              dpg_param_t c, int32_t alpha, int32_t beta, void *y, dpg_type_t yt, const dpg_gemm_geom_t *g);
void dpg_rq_gemm(const uint8_t *a, int a_signed, const uint8_t *b, int b_signed, dpg_param_t mul,
                 dpg_param_t add, int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_gemm_geom_t *g);

/* ---- elementwise ----------------------------------------------------------------------------- */

typedef enum { DPG_ADD = 0, DPG_SUB = 1, DPG_MUL = 2 } dpg_binop_t;

void dpg_binary(dpg_binop_t op, const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt,
                int32_t b_off, void *y, dpg_type_t yt, const dpg_walk_t *walk);

/** One of RequantizedAdd's requantizers: clip((v*mul + add) >> shift, lo, hi). */
typedef struct { int32_t mul, add, shift, lo, hi; } dpg_rq_t;

void dpg_rq_add(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y, dpg_type_t yt,
                const dpg_walk_t *walk, const dpg_rq_t rq[3]);

void dpg_requant_shift(const void *x, dpg_type_t xt, int32_t x_off, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, void *y, dpg_type_t yt, uint32_t n);

typedef enum {
  DPG_RELU = 0,       /* max(x, 0) */
  DPG_CLIP = 1,       /* clamp(x, a, b) */
  DPG_HARDSWISH = 2,  /* x * (clip(x + a, 0, b) * c): a = three, b = six, c = one_over_six */
  DPG_GELU = 3,       /* x * floor((one + sign(x)*(one - (min(|x|, -b) + b)^2)) / 2): a = b, b = one */
  DPG_SCALE = 4       /* x * a (TrueIntegerDiv's constant coefficient) */
} dpg_unop_t;

/** y = f(x + x_off), then, when `requant` is set, clip((f*mul + add + 2^(shift-1)) >> shift, lo, hi). */
typedef struct {
  dpg_unop_t op;
  int32_t a, b, c;
  int requant;
  dpg_param_t mul, add;
  int32_t shift, lo, hi;
} dpg_unary_t;

void dpg_unary(const void *x, dpg_type_t xt, int32_t x_off, void *y, dpg_type_t yt, uint32_t n, const dpg_unary_t *f);

/** IntegerDiv: floor(a*Delta*eta / (b*eta + eps) + 1/2), optionally requantized as in dpg_unary_t. */
void dpg_integer_div(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y, dpg_type_t yt,
                     const dpg_walk_t *walk, int32_t delta, int32_t eta, int32_t eps, const dpg_unary_t *rq);

/* ---- rows: norms and softmaxes (over the last axis) ------------------------------------------- */

void dpg_irmsnorm(const uint8_t *x, int x_signed, const int32_t *w, uint32_t w_len, uint8_t *y,
                  uint32_t rows, uint32_t L, int32_t log2d, int32_t lo, int32_t hi);
void dpg_ilayernorm(const uint8_t *x, int x_signed, const int32_t *w, uint32_t w_len, const int32_t *b,
                    uint32_t b_len, uint8_t *y, uint32_t rows, uint32_t L, int32_t D, int32_t lo, int32_t hi);
void dpg_inonorm(const uint8_t *x, int x_signed, dpg_param_t w, dpg_param_t b, int32_t mul, int32_t log2d,
                 uint8_t *y, uint32_t n, int32_t lo, int32_t hi);
void dpg_isoftmax(const uint8_t *x, int x_signed, uint8_t *y, uint32_t rows, uint32_t L,
                  int32_t coeff_a, int32_t coeff_b, int32_t coeff_c, int32_t log2, int32_t n_levels);
/** ITAMax (group_width = L) and ITAPartialMax (groups of group_width columns, output scaled to n/2-1). */
void dpg_itamax(const uint8_t *x, int x_signed, uint8_t *y, uint32_t rows, uint32_t L, uint32_t group_width,
                int32_t n_levels, int partial);

/* ---- reductions -------------------------------------------------------------------------------
 * Output element o (walk over the kept dims, stride[0] into x) sums the x elements of the
 * reduced dims (walk `red`, stride[0]); mean = floor(sum/count + 1/2). */
void dpg_reduce(const void *x, dpg_type_t xt, void *y, dpg_type_t yt, const dpg_walk_t *kept,
                const dpg_walk_t *red, int mean);

/* ---- data movement ------------------------------------------------------------------------- */

/** dst[i] = v for i in [0, n), split over the cores. */
void dpg_fill(void *dst, dpg_type_t t, uint32_t n, int32_t v);
/**
 * Copies the elements of `walk` from src (offsets stride[1]) to dst (stride[0]), split over the
 * elements. Same types: raw copies of 1, 2 or 4 bytes; different types: converted values.
 */
void dpg_copy_nd(void *dst, dpg_type_t dt, const void *src, dpg_type_t st, const dpg_walk_t *walk);

/* ---- tiles (tile.c): DMA of a box of a tensor between its home buffer and a dense L1 tile ---- */

/** A row-major tensor in its home buffer: its shape and bytes per element. */
typedef struct {
  uint32_t rank;
  uint32_t shape[DPG_MAX_RANK];
  uint32_t elem;
} dpg_tensor_dims_t;

/**
 * Queues the transfers of the box [start, start + size) of tensor t, at `home`, into the dense
 * L1 buffer `l1` (out = 0) or from it back to home (out = 1): one 2D transfer per set of
 * contiguous rows. Called by the controller; returns the last transfer's id (0 when the box is
 * empty): transfers complete in order, so hal_dma_wait on it waits for all.
 */
hal_dma_t dpg_dma_box(void *l1, void *home, const dpg_tensor_dims_t *t, const uint32_t *start, const uint32_t *size, int out);

/** Waits for transfer `id` and every one queued before it; 0 (nothing queued) returns at once. */
static inline void dpg_dma_wait(hal_dma_t id) {
  if (id) hal_dma_wait(id);
}

#endif
