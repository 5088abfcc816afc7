/*
 * conv_hwc.c: the cluster's requantized convolutions on channels-last int8/uint8 data, in the
 * PULP-NN style: y = clip((conv(x, w) * mul + add) >> shift, lo, hi), where add already holds
 * the rounding 2^(shift-1) (RequantizedConv's add'). Outputs are 8-bit: the low byte of the
 * clipped value is the int8 or uint8 result alike.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

static inline uint8_t rq8(int32_t acc, const dpg_param_t *mul, const dpg_param_t *add, uint32_t i, int32_t shift,
                          int32_t lo, int32_t hi) {
  return (uint8_t)dpg_requant(acc, dpg_param_at(mul, i), dpg_param_at(add, i), shift, lo, hi);
}

static inline __attribute__((always_inline)) int32_t ld8(int sgn, const uint8_t *p) {
  return sgn ? (int32_t)*(const int8_t *)p : (int32_t)*p;
}

/*
 * How a requant is computed, a compile-time constant in each specialised copy: RQ_WIDE when
 * acc*mul + add may not fit 32 bits (or shift is outside [0, 31]), the exact 64-bit path;
 * otherwise 32 bits with the clip as max and min (RQ_32), or one instruction when lo is 0
 * (RQ_CLIPU) or -hi - 1 (RQ_CLIPS: int8's [-128, 127]).
 */
enum { RQ_32 = 0, RQ_WIDE = 1, RQ_CLIPU = 2, RQ_CLIPS = 3 };

static inline __attribute__((always_inline)) uint8_t conv_rq(int mode, int32_t acc, int32_t mul, int32_t add, int32_t shift,
                                                             int32_t lo, int32_t hi) {
  if (mode == RQ_WIDE) return (uint8_t)dpg_requant(acc, mul, add, shift, lo, hi);
  const int32_t v = dpg_add_sra(acc * mul, add, shift);
  if (mode == RQ_CLIPU) return (uint8_t)dpg_clipu(v, (uint32_t)hi);
  if (mode == RQ_CLIPS) return (uint8_t)dpg_clips(v, hi);
  return (uint8_t)dpg_clip32(v, lo, hi);
}

/** The mode of a 32-bit requant clipping to [lo, hi]. */
static inline int rq_clip_mode(int32_t lo, int32_t hi) {
  return hi < 0 ? RQ_32 : lo == 0 ? RQ_CLIPU : lo == -hi - 1 ? RQ_CLIPS : RQ_32;
}

static inline uint32_t abs32(int32_t v) { return v < 0 ? 0u - (uint32_t)v : (uint32_t)v; }

/** A requant parameter that is a function of the channel alone: scalar, or inner 1 and a count dividing C (v[c % count]). */
static inline int per_channel(const dpg_param_t *q, uint32_t C) { return q->count == 1 || (q->inner == 1 && C % q->count == 0); }
static inline int32_t channel_value(const dpg_param_t *q, uint32_t c) { return q->v[c < q->count ? c : c % q->count]; }

/* ---- dpg_rq_conv_hwc ---------------------------------------------------------------------------
 * Dense conv (group 1). For each output pixel, the window (KH x KW x C bytes, zeros in the
 * padding) is gathered once into the core's im2col row; then the output channels are dot
 * products of that row with the channels' weights [KH, KW, C], four int8 products per
 * instruction, four channels at a time so each word of the row is loaded once for four, and, for
 * rows of up to CONV_SLOT_ROW bytes, up to CONV_ROWS pixels at a time so each weight word is
 * loaded once for all of them (a 3 x 4 register block: 7 loads for 12 dot products). The sums
 * go to the stack and one loop requantizes them. `im2col` holds that many rows of (K + 3) & ~3
 * bytes per busy core (kernels/scratch.ts reserves them).
 *
 * The requant parameters (in L2: 15 cycles a load) are copied to the stack once per call, up to
 * CONV_CHANNELS channels at a time (more channels: the pixels are gone through once per window of
 * channels). Within a window the cores share (slot of pixels, CONV_GROUP channels) units, each
 * core a contiguous run: KeywordSpotting's first conv (100 pixels, 64 channels) gives each of 8
 * cores 17 of 34 slots x 4 groups, not 13 or 9 pixels.
 */
#define CONV_CHANNELS 64
/* The cores share (slot of pixels, group of this many channels) units, so a layer whose pixels
   do not divide evenly still keeps every core equally busy (kernels/scratch.ts: IM2COL_GROUP). */
#define CONV_GROUP 16
/* im2col rows of at most this many bytes come CONV_ROWS at a time (kernels/scratch.ts: IM2COL_SLOT_ROW, IM2COL_ROWS). */
#define CONV_SLOT_ROW 128
#define CONV_ROWS 3

typedef struct {
  const uint8_t *x;
  const int8_t *w; /* channel m0's weights */
  uint8_t *y;      /* pixel 0, channel m0 */
  uint8_t *col;    /* this core's im2col rows */
  uint32_t rows, row_bytes; /* rows (pixels at a time) and their stride */
  uint32_t C, H, W, M, KH, KW, OH, OW, sh, sw, pt, pl, K;
  uint32_t p0, p1, channels; /* pixels [p0, p1), channels [m0, m0 + channels) */
  const int32_t *mul, *add;  /* the channels' parameters */
  int32_t shift, lo, hi;
} conv_t;

/** n bytes from src to dst, a word at a time while four are left. */
static inline __attribute__((always_inline)) void conv_copy(uint8_t *dst, const uint8_t *src, uint32_t n) {
  for (; n >= 4; n -= 4, src += 4, dst += 4) dpg_store4u(dst, dpg_load4u(src));
  for (; n; n--) *dst++ = *src++;
}

static inline __attribute__((always_inline)) void conv_zero(uint8_t *dst, uint32_t n) {
  for (; n; n--) *dst++ = 0;
}

/**
 * `rows` rows of n bytes, `stride` apart in src, back to back into dst: a window whose rows lie
 * inside the input's columns. Rows of one word (a 4-wide window of one channel, say) are one
 * load and one store each; down-counting loops keep the hardware loops' set-up short.
 */
static inline __attribute__((always_inline)) void conv_copy_rows(uint8_t *dst, const uint8_t *src, uint32_t rows,
                                                                 uint32_t n, uint32_t stride) {
  if (n == 4) {
    for (uint32_t r = rows; r; r--, src += stride, dst += 4) dpg_store4u(dst, dpg_load4u(src));
    return;
  }
  const uint32_t words = n >> 2, rest = n & 3;
  for (uint32_t r = rows; r; r--, src += stride - n) {
    for (uint32_t k = words; k; k--, src += 4, dst += 4) dpg_store4u(dst, dpg_load4u(src));
    for (uint32_t k = rest; k; k--) *dst++ = *src++;
  }
}

/**
 * The im2col row of pixel (n, oh, ow): the window's KH*KW*C bytes, zeros in the padding. The
 * window's rows [kh0, kh1) lie inside the input's rows, and in each the taps [kw0, kw1) inside
 * its columns are KW' * C adjacent bytes of x: one copy per row, or, with no column of the
 * window in the padding, one copy of all those rows.
 */
static inline __attribute__((always_inline)) void conv_gather(const conv_t *g, uint8_t *dst, uint32_t n, uint32_t oh, uint32_t ow) {
  const uint32_t C = g->C, H = g->H, W = g->W, KH = g->KH, KW = g->KW, row_bytes = KW * C;
  const int32_t ih0 = (int32_t)(oh * g->sh) - (int32_t)g->pt, iw0 = (int32_t)(ow * g->sw) - (int32_t)g->pl;
  /* The taps [kw0, kw1) of a row inside the input's columns, the rows [kh0, kh1) inside its rows. */
  const uint32_t kw0 = iw0 < 0 ? (uint32_t)-iw0 < KW ? (uint32_t)-iw0 : KW : 0;
  const int32_t right = (int32_t)W - iw0;
  const uint32_t kw1 = right <= (int32_t)kw0 ? kw0 : (uint32_t)right < KW ? (uint32_t)right : KW;
  const uint32_t kh0 = ih0 < 0 ? (uint32_t)-ih0 < KH ? (uint32_t)-ih0 : KH : 0;
  const int32_t below = (int32_t)H - ih0;
  uint32_t kh1 = below <= (int32_t)kh0 ? kh0 : (uint32_t)below < KH ? (uint32_t)below : KH;
  if (kw1 == kw0) kh1 = kh0; /* every column in the padding */
  const uint32_t lead = kw0 * C, body = (kw1 - kw0) * C, tail = row_bytes - lead - body;
  conv_zero(dst, kh0 * row_bytes);
  if (kh1 > kh0) { /* rows with taps inside the input (with none, src would point outside x) */
    const uint8_t *src = g->x + ((n * H + (uint32_t)(ih0 + (int32_t)kh0)) * W + (uint32_t)(iw0 + (int32_t)kw0)) * C;
    uint8_t *d = dst + kh0 * row_bytes;
    if (!lead && !tail) {
      conv_copy_rows(d, src, kh1 - kh0, row_bytes, W * C);
    } else {
      for (uint32_t kh = kh0; kh < kh1; kh++, d += row_bytes, src += W * C) {
        conv_zero(d, lead);
        conv_copy(d + lead, src, body);
        conv_zero(d + lead + body, tail);
      }
    }
  }
  conv_zero(dst + kh1 * row_bytes, (KH - kh1) * row_bytes);
}

/*
 * The dot products of NP (1..3) pixels' im2col rows (word-aligned, `rb` bytes apart from col)
 * with NB (1..4) weight rows K bytes apart from wm, into acc[p * CONV_CHANNELS + b]: an NP x NB
 * register block, each word of a row loaded once for NB channels and each weight word once for
 * NP pixels.
 */
static inline __attribute__((always_inline)) void conv_dots(int sgn, int NP, int NB, const uint8_t *col, uint32_t rb,
                                                            const uint8_t *wm, uint32_t K, int32_t *out) {
  int32_t acc[3][4];
  const uint8_t *xp[3], *wp[4];
  for (int p = 0; p < NP; p++) xp[p] = col + p * rb;
  for (int b = 0; b < NB; b++) wp[b] = wm + b * K;
  uint32_t words = K >> 2;
  if (words) { /* the first word sets the accumulators: no zeroing */
    uint32_t xw[3], ww[4];
    for (int p = 0; p < NP; p++) xw[p] = dpg_load4_inc(&xp[p]);
    for (int b = 0; b < NB; b++) ww[b] = dpg_load4_inc(&wp[b]);
    for (int p = 0; p < NP; p++)
      for (int b = 0; b < NB; b++) acc[p][b] = sgn ? dpg_dot4_ss(xw[p], ww[b]) : dpg_dot4_us(xw[p], ww[b]);
    words--;
  } else {
    for (int p = 0; p < NP; p++)
      for (int b = 0; b < NB; b++) acc[p][b] = 0;
  }
  /* Post-incrementing loads (dpg_load4_inc: no index register, no add per word), all of them
     before the products (they stay in program order): no product waits on its load. */
  for (; words; words--) {
    uint32_t xw[3], ww[4];
    for (int p = 0; p < NP; p++) xw[p] = dpg_load4_inc(&xp[p]);
    for (int b = 0; b < NB; b++) ww[b] = dpg_load4_inc(&wp[b]);
    /* x unsigned: the unsigned operand goes first */
    for (int p = 0; p < NP; p++)
      for (int b = 0; b < NB; b++)
        acc[p][b] = sgn ? dpg_sdot4_ss(acc[p][b], xw[p], ww[b]) : dpg_sdot4_us(acc[p][b], xw[p], ww[b]);
  }
  for (uint32_t k = K & 3; k; k--) {
    int32_t xv[3];
    for (int p = 0; p < NP; p++) xv[p] = ld8(sgn, xp[p]++);
    for (int b = 0; b < NB; b++) {
      const int32_t wv = *(const int8_t *)wp[b]++;
      for (int p = 0; p < NP; p++) acc[p][b] += xv[p] * wv;
    }
  }
  for (int p = 0; p < NP; p++)
    for (int b = 0; b < NB; b++) out[p * CONV_CHANNELS + b] = acc[p][b];
}

/*
 * NP pixels from pixel (n, oh, ow) on (outputs from yp, rows M apart): their windows gathered,
 * the dot products to the stack (acc), then one loop requantizes them with the channels'
 * parameters. Kept apart, neither loop runs short of registers (the register block with the
 * requant's shift, clip and pointers live spilled and reloaded them for every output).
 */
static inline __attribute__((always_inline)) void conv_slot(int sgn, int rq, int NP, const conv_t *g, uint32_t *n,
                                                            uint32_t *oh, uint32_t *ow, uint8_t *yp, int32_t *acc) {
  const uint32_t M = g->M, K = g->K, rb = g->row_bytes, channels = g->channels;
  uint8_t *const col = g->col;
  const uint8_t *const w = (const uint8_t *)g->w;
  for (int p = 0; p < NP; p++) {
    conv_gather(g, col + p * rb, *n, *oh, *ow);
    if (++*ow == g->OW) { *ow = 0; if (++*oh == g->OH) { *oh = 0; ++*n; } }
  }
  uint32_t m = 0;
  for (; m + 4 <= channels; m += 4) conv_dots(sgn, NP, 4, col, rb, w + m * K, K, acc + m);
  for (; m < channels; m++) conv_dots(sgn, NP, 1, col, rb, w + m * K, K, acc + m);
  const int32_t *pm = g->mul, *pa = g->add, *ap = acc;
  const int32_t shift = g->shift, lo = g->lo, hi = g->hi;
  uint8_t *yc = yp;
  for (uint32_t c = channels; c; c--, ap++, yc++) {
    /* Every load before the byte stores, which might alias them. */
    const int32_t mc = *pm++, ac = *pa++;
    int32_t v[3];
    uint8_t r[3];
    for (int p = 0; p < NP; p++) v[p] = ap[p * CONV_CHANNELS];
    for (int p = 0; p < NP; p++) r[p] = conv_rq(rq, v[p], mc, ac, shift, lo, hi);
    for (int p = 0; p < NP; p++) yc[p * M] = r[p];
  }
}

/* The core's pixels [p0, p1), g->rows at a time while that many are left. */
static inline __attribute__((always_inline)) void conv_pixels(int sgn, int rq, const conv_t *g) {
  const uint32_t M = g->M, OH = g->OH, OW = g->OW, p1 = g->p1, rows = g->rows;
  int32_t acc[3 * CONV_CHANNELS];
  uint32_t p = g->p0;
  uint32_t ow = p % OW, oh = p / OW % OH, n = p / (OW * OH);
  uint8_t *yp = g->y + p * M;
  if (rows == 3)
    for (; p + 3 <= p1; p += 3, yp += 3 * M) conv_slot(sgn, rq, 3, g, &n, &oh, &ow, yp, acc);
  if (rows >= 2)
    for (; p + 2 <= p1; p += 2, yp += 2 * M) conv_slot(sgn, rq, 2, g, &n, &oh, &ow, yp, acc);
  for (; p < p1; p++, yp += M) conv_slot(sgn, rq, 1, g, &n, &oh, &ow, yp, acc);
}

typedef void conv_fn(const conv_t *);
#define CONV_COPY(name, sgn, rq) static __attribute__((noinline)) void name(const conv_t *g) { conv_pixels(sgn, rq, g); }
CONV_COPY(conv_s8, 1, RQ_32)
CONV_COPY(conv_u8, 0, RQ_32)
CONV_COPY(conv_s8_wide, 1, RQ_WIDE)
CONV_COPY(conv_u8_wide, 0, RQ_WIDE)
CONV_COPY(conv_s8_clipu, 1, RQ_CLIPU)
CONV_COPY(conv_u8_clipu, 0, RQ_CLIPU)
CONV_COPY(conv_s8_clips, 1, RQ_CLIPS)
CONV_COPY(conv_u8_clips, 0, RQ_CLIPS)
/* By [x signed][requant mode]. */
static conv_fn *const CONV_FNS[2][4] = {
  {conv_u8, conv_u8_wide, conv_u8_clipu, conv_u8_clips},
  {conv_s8, conv_s8_wide, conv_s8_clipu, conv_s8_clips},
};

/* Parameters laid out otherwise than per channel: the exact element-by-element requant; rare. */
static void conv_elementwise(int x_signed, const int8_t *w, const dpg_param_t *mul, const dpg_param_t *add, int32_t shift,
                             int32_t lo, int32_t hi, uint8_t *y, const conv_t *d) {
  const uint32_t M = d->M, K = d->K;
  for (uint32_t p = d->p0; p < d->p1; p++) {
    conv_gather(d, d->col, p / (d->OW * d->OH), p / d->OW % d->OH, p % d->OW);
    for (uint32_t m = 0; m < M; m++) {
      const int32_t acc = dpg_dot8(d->col, x_signed, (const uint8_t *)(w + m * K), 1, K);
      y[p * M + m] = rq8(acc, mul, add, p * M + m, shift, lo, hi);
    }
  }
}

/*
 * Channels [c0, c0 + n) of a per-channel parameter into dst (L2 to the stack), returning the
 * largest |value|. A vector of one value per channel is a plain copy: every load from L2 costs
 * 15 cycles, the loop around it as little as possible.
 */
static uint32_t conv_params(int32_t *dst, const dpg_param_t *q, uint32_t c0, uint32_t n) {
  uint32_t max = 0;
  if (q->count == 1) {
    const int32_t v = q->v[0];
    for (uint32_t i = 0; i < n; i++) dst[i] = v;
    return abs32(v);
  }
  if (c0 + n <= q->count) {
    const int32_t *src = q->v + c0;
    for (uint32_t i = n; i; i--) {
      const int32_t v = *src++;
      *dst++ = v;
      max = dpg_maxu(max, abs32(v));
    }
    return max;
  }
  for (uint32_t i = 0; i < n; i++) {
    dst[i] = channel_value(q, c0 + i);
    max = dpg_maxu(max, abs32(dst[i]));
  }
  return max;
}

/* The run of units [u0, u1) (slot-major, `groups` channel groups a slot) as rectangles: slots
   [*s0, *s1) by groups [*g0, *g1), the next one starting at the returned unit. */
static inline uint32_t conv_rectangle(uint32_t u0, uint32_t u1, uint32_t groups, uint32_t *s0, uint32_t *s1,
                                      uint32_t *g0, uint32_t *g1) {
  *s0 = u0 / groups;
  *g0 = u0 % groups;
  if (*g0 == 0 && u1 - u0 >= groups) { /* whole slots */
    *s1 = *s0 + (u1 - u0) / groups;
    *g1 = groups;
    return u0 + (*s1 - *s0) * groups;
  }
  *s1 = *s0 + 1;
  *g1 = groups - *g0 < u1 - u0 ? groups : *g0 + (u1 - u0);
  return u0 + (*g1 - *g0);
}

void dpg_rq_conv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                     int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g,
                     uint8_t *im2col) {
  const uint32_t C = g->C, M = g->M, K = g->KH * g->KW * C, pixels = g->N * g->OH * g->OW;
  /* Core i's rows: [i * rows, (i + 1) * rows) of the scratch, as many pixels as a core's share has
     up to CONV_ROWS when the row is short, else one (kernels/scratch.ts reserves as many). */
  const uint32_t cores = (uint32_t)hal_num_cores(), row_bytes = (K + 3u) & ~3u;
  const uint32_t per = (pixels + cores - 1) / cores;
  const uint32_t rows = row_bytes > CONV_SLOT_ROW ? 1 : per >= CONV_ROWS ? CONV_ROWS : per;
  uint8_t *const col = im2col + (uint32_t)hal_core_id() * rows * row_bytes;
  conv_t d = {x, w, y, col, rows, row_bytes, C, g->H, g->W, M, g->KH, g->KW, g->OH, g->OW,
              g->stride_h, g->stride_w, g->pad_top, g->pad_left, K, 0, 0, 0, NULL, NULL, shift, lo, hi};
  if (!per_channel(&mul, M) || !per_channel(&add, M)) {
    dpg_chunk(pixels, &d.p0, &d.p1);
    conv_elementwise(x_signed, w, &mul, &add, shift, lo, hi, y, &d);
    return;
  }
  /* The largest |acc|: K products of |x| <= 128 or 255 and |w| <= 128. */
  const uint64_t acc_max = (uint64_t)K * (x_signed ? 128u : 255u) * 128u;
  const uint32_t slots = (pixels + rows - 1) / rows; /* `rows` pixels a slot */
  int32_t pm[CONV_CHANNELS], pa[CONV_CHANNELS];
  for (uint32_t m0 = 0; m0 < M; m0 += CONV_CHANNELS) {
    const uint32_t channels = M - m0 < CONV_CHANNELS ? M - m0 : CONV_CHANNELS;
    const uint32_t groups = (channels + CONV_GROUP - 1) / CONV_GROUP;
    uint32_t u0, u1, s0, s1, g0, g1;
    dpg_chunk(slots * groups, &u0, &u1);
    if (u0 == u1) continue;
    /* This core's channels of the window: its groups' parameters, copied from L2 once. */
    conv_rectangle(u0, u1, groups, &s0, &s1, &g0, &g1);
    const uint32_t c_lo = u1 - u0 > groups - g0 ? 0 : g0 * CONV_GROUP;
    const uint32_t c_hi = u1 - u0 >= groups - g0 ? channels : g1 * CONV_GROUP;
    const uint32_t max_mul = conv_params(pm + c_lo, &mul, m0 + c_lo, c_hi - c_lo);
    const uint32_t max_add = conv_params(pa + c_lo, &add, m0 + c_lo, c_hi - c_lo);
    /* 32 bits are exact when |acc*mul + add| < 2^31 for every acc the operands allow. */
    const int wide = shift < 0 || shift > 31 || acc_max * max_mul + max_add > 0x7fffffffu;
    conv_fn *const f = CONV_FNS[x_signed != 0][wide ? RQ_WIDE : rq_clip_mode(lo, hi)];
    while (u0 < u1) {
      u0 = conv_rectangle(u0, u1, groups, &s0, &s1, &g0, &g1);
      const uint32_t c0 = g0 * CONV_GROUP, c1 = g1 * CONV_GROUP < channels ? g1 * CONV_GROUP : channels;
      d.p0 = s0 * rows;
      d.p1 = s1 * rows < pixels ? s1 * rows : pixels;
      d.channels = c1 - c0;
      d.w = w + (m0 + c0) * K;
      d.y = y + m0 + c0;
      d.mul = pm + c0;
      d.add = pa + c0;
      f(&d);
    }
  }
}

/*
 * Pointwise (1x1, stride 1, no padding) conv: a GEMM of the pixels [P, C] with the weights
 * [M, C], y [P, M] = rq(x . w^T), which is dpg_rq_gemm's product A [M, K] x B [N, K] with the
 * same flat output index for the requant parameters (per HWC channel: per column). Its register
 * blocks, 32-bit requant and work split serve the conv unchanged.
 */
void dpg_rq_pwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, uint32_t pixels, uint32_t C, uint32_t M) {
  const dpg_gemm_geom_t g = {.batch = 1, .M = pixels, .K = C, .N = M, .trans_a = 0, .trans_b = 1, .a_off = NULL, .b_off = NULL};
  dpg_rq_gemm(x, x_signed, (const uint8_t *)w, 1, mul, add, shift, lo, hi, y, &g);
}

/* ---- dpg_rq_dwconv_hwc ------------------------------------------------------------------------
 * Depthwise conv (group = C = M), x [N, H, W, C], w [C, KH, KW, 1], y [N, OH, OW, C]:
 *   y[n, oh, ow, c] = rq(sum_{kh, kw} x[n, oh*sh + kh - pt, ow*sw + kw - pl, c] * w[c, kh, kw])
 * with taps in the padding counting 0.
 *
 * Four ways, by the window and the image:
 * - dw_planes (3x3 windows, strides 1 and 2, a shift in [0, 31], lines that fit its stack copy):
 *   channel by channel through a zero-padded copy, a window row a word (see there).
 * - for the 3x3 windows it does not take (longer lines, larger strides):
 *   - dw_channel3x3: channel by channel, blocks of outputs with the nine weights in registers;
 *     the border runs the same loop as the interior (weights shifted into zeros);
 *   - dw_small (small images, a few outputs per block): pixel by pixel, the channels innermost.
 * - dw_channel_any (any other window, and 64-bit requants): channel by channel, each output's
 *   window clipped to the input (the interior outputs, [ow_lo, ow_hi), need no clipping).
 * The channel-by-channel ways cut the work into (channel, output row) units, channel-major, and
 * each core takes a contiguous run: a core keeps to few channels (their weights and requant
 * parameters, which may live in L2 at 15 cycles a load, are read once per channel), and all
 * cores work even when C < cores.
 */

/* Weights of one channel are copied to the stack (L1) when there are at most this many taps. */
#define DW_MAX_TAPS 32
/* Runs of outputs in a row for dw_channel3x3: at most two border outputs on each side and the interior. */
#define DW_MAX_RUNS 5

typedef struct {
  const uint8_t *x;
  const int8_t *w;
  uint8_t *y;
  uint32_t N, C, H, W, KH, KW, OH, OW, sh, sw, pt, pl;
  uint32_t ow_lo, ow_hi; /* the interior outputs of every row */
  uint32_t oh_lo, oh_hi; /* the output rows whose windows lie inside the input's rows */
  int32_t shift, lo, hi;
  /* dw_channel3x3's runs of outputs in every row: outputs [ow, ow + len) read input columns from
     rc on (byte offsets xoff = rc*C, yoff = ow*C) with weights shifted by d. */
  uint32_t runs;
  struct { uint32_t xoff, yoff, len; int32_t d; } run[DW_MAX_RUNS];
} dw_t;

/** The sum over `rows` x `cols` taps: x from p (rows W*C bytes apart, columns C), weights from wr (rows KW apart). */
static inline __attribute__((always_inline)) int32_t dw_taps(int sgn, const uint8_t *p, const int8_t *wr, uint32_t rows,
                                                             uint32_t cols, uint32_t C, uint32_t WC, uint32_t KW) {
  int32_t acc = 0;
  for (uint32_t i = rows; i; i--, p += WC, wr += KW) {
    const uint8_t *q = p;
    for (uint32_t j = 0; j < cols; j++, q += C) acc += ld8(sgn, q) * wr[j];
  }
  return acc;
}

/** A run of outputs of one channel for dw_run3x3. */
typedef struct {
  const uint8_t *r0, *r1, *r2; /* the window rows of the first output */
  const int8_t *w0, *w1, *w2;  /* their weights, 3 bytes each */
  uint8_t *y;                  /* the first output */
  uint32_t len, rows;          /* outputs per row, rows */
} dw_run_t;

/*
 * `rows` rows of `len` outputs of a 3x3 window reading three whole columns of the input: outputs
 * C bytes apart in a row and `yrow` bytes from row to row, inputs `step` and `xrow` bytes apart.
 * The nine weights stay in registers for the whole run.
 */
static inline __attribute__((always_inline)) void dw_run3x3(int sgn, const dw_run_t *u, uint32_t C, uint32_t step,
                                                            uint32_t xrow, uint32_t yrow, int32_t mul, int32_t add,
                                                            int32_t shift, int32_t lo, int32_t hi) {
  const int8_t *const w0 = u->w0, *const w1 = u->w1, *const w2 = u->w2;
  const int32_t a0 = w0[0], a1 = w0[1], a2 = w0[2], b0 = w1[0], b1 = w1[1], b2 = w1[2], c0 = w2[0], c1 = w2[1], c2 = w2[2];
  const uint32_t C2 = 2 * C, len = u->len;
  const uint8_t *r0 = u->r0, *r1 = u->r1, *r2 = u->r2;
  uint8_t *yp = u->y;
  /* From the end of a row to the start of the next. */
  const uint32_t xskip = xrow - len * step, yskip = yrow - len * C;
  for (uint32_t rows = u->rows; rows; rows--, r0 += xskip, r1 += xskip, r2 += xskip, yp += yskip) {
    for (uint32_t n = len; n; n--, yp += C, r0 += step, r1 += step, r2 += step) {
      int32_t acc = ld8(sgn, r0) * a0;
      acc = dpg_mac(acc, ld8(sgn, r0 + C), a1);
      acc = dpg_mac(acc, ld8(sgn, r0 + C2), a2);
      acc = dpg_mac(acc, ld8(sgn, r1), b0);
      acc = dpg_mac(acc, ld8(sgn, r1 + C), b1);
      acc = dpg_mac(acc, ld8(sgn, r1 + C2), b2);
      acc = dpg_mac(acc, ld8(sgn, r2), c0);
      acc = dpg_mac(acc, ld8(sgn, r2 + C), c1);
      acc = dpg_mac(acc, ld8(sgn, r2 + C2), c2);
      *yp = conv_rq(0, acc, mul, add, shift, lo, hi);
    }
  }
}

/** Splits output row r (over N*OH) into its batch n and row oh without dividing (N is small). */
static inline void dw_row_at(uint32_t r, uint32_t OH, uint32_t *n, uint32_t *oh) {
  uint32_t b = 0;
  for (; r >= OH; r -= OH) b++;
  *n = b;
  *oh = r;
}

/*
 * 3x3 windows (the usual depthwise conv), when W >= 3 and no window overhangs the input's
 * columns by more than two. Every output then reads three whole columns inside the input,
 * [rc, rc + 3) with rc = clamp(iw0, 0, W - 3), and weights shifted by d = rc - iw0: column j
 * takes w[kh][j + d], 0 outside [0, 3) (rows of `wpad` hold the weights between two zeros on
 * each side). A window row outside the input takes a row of zero weights and any valid row. So
 * one loop serves the interior and the border alike, over the same runs of outputs in every row
 * (dw_plan_runs). The rows whose windows lie inside the input's rows take each run for all of
 * them at once; the others (in the top and bottom padding) one row at a time. Requant in 32
 * bits (the caller checked the bound).
 */
static inline __attribute__((always_inline)) void dw_channel3x3(int sgn, const dw_t *g, uint32_t c, uint32_t r, uint32_t r_end,
                                                                int32_t mul, int32_t add) {
  /* Locals: every byte stored to y might alias *g. */
  const uint32_t C = g->C, H = g->H, W = g->W, OH = g->OH, OW = g->OW, sh = g->sh, pt = g->pt, runs = g->runs;
  const uint32_t oh_lo = g->oh_lo, oh_hi = g->oh_hi;
  const int32_t shift = g->shift, lo = g->lo, hi = g->hi;
  const uint32_t WC = W * C, step = g->sw * C, xrow = sh * WC, yrow = OW * C;
  const uint8_t *const xc = g->x + c;
  uint8_t *const yc = g->y + c;
  /* Rows 0..2: {0, 0, w[kh][0..2], 0, 0, 0}; row 3: zeros. On the stack (L1): w may be in L2. */
  uint32_t wbuf[8];
  int8_t *const wpad = (int8_t *)wbuf;
  for (uint32_t i = 0; i < 8; i++) wbuf[i] = 0;
  const int8_t *const wk = g->w + 9 * c;
  for (uint32_t k = 0; k < 3; k++)
    for (uint32_t j = 0; j < 3; j++) wpad[8 * k + 2 + j] = wk[3 * k + j];
  uint32_t n, oh;
  dw_row_at(r, OH, &n, &oh);
  dw_run_t u;
  while (r < r_end) {
    const uint8_t *const xb = xc + n * H * WC; /* this batch's image */
    uint8_t *const yr = yc + r * yrow;
    u.w0 = wpad + 2;
    u.w1 = wpad + 10;
    u.w2 = wpad + 18;
    if (oh >= oh_lo && oh < oh_hi) { /* rows inside the input, up to oh_hi or r_end */
      const uint32_t rows = oh_hi - oh < r_end - r ? oh_hi - oh : r_end - r;
      const uint8_t *const r0 = xb + (oh * sh - pt) * WC;
      for (uint32_t i = 0; i < runs; i++) {
        const uint32_t xo = g->run[i].xoff;
        const int32_t d = g->run[i].d;
        u.r0 = r0 + xo;
        u.r1 = u.r0 + WC;
        u.r2 = u.r1 + WC;
        u.w0 = wpad + 2 + d;
        u.w1 = wpad + 10 + d;
        u.w2 = wpad + 18 + d;
        u.y = yr + g->run[i].yoff;
        u.len = g->run[i].len;
        u.rows = rows;
        dw_run3x3(sgn, &u, C, step, xrow, yrow, mul, add, shift, lo, hi);
      }
      r += rows;
      oh += rows;
    } else { /* one row with window rows in the padding: [kh0, kh1) inside */
      const int32_t ih0 = (int32_t)(oh * sh) - (int32_t)pt, below = (int32_t)H - ih0;
      const uint32_t kh0 = ih0 < 0 ? (uint32_t)-ih0 : 0, kh1 = below <= 0 ? 0 : below < 3 ? (uint32_t)below : 3;
      if (kh1 <= kh0) { /* the whole window in the padding */
        const uint8_t v = conv_rq(0, 0, mul, add, shift, lo, hi);
        for (uint32_t ow = 0; ow < OW; ow++) yr[ow * C] = v;
      } else {
        /* Window row k at xv + (k - kh0)*W*C when inside, else at xv with zero weights. */
        const uint8_t *const xv = xb + (uint32_t)(ih0 + (int32_t)kh0) * WC;
        const uint8_t *r1 = xv, *r2 = xv;
        const int8_t *w0 = wpad + 2, *w1 = wpad + 10, *w2 = wpad + 18;
        if (kh0 > 0) w0 = wpad + 26;
        if (kh0 <= 1 && kh1 > 1) r1 = xv + (1 - kh0) * WC;
        else w1 = wpad + 26;
        if (kh1 > 2) r2 = xv + (2 - kh0) * WC;
        else w2 = wpad + 26;
        for (uint32_t i = 0; i < runs; i++) {
          const uint32_t xo = g->run[i].xoff;
          const int32_t d = g->run[i].d;
          u.r0 = xv + xo;
          u.r1 = r1 + xo;
          u.r2 = r2 + xo;
          u.w0 = w0 + d;
          u.w1 = w1 + d;
          u.w2 = w2 + d;
          u.y = yr + g->run[i].yoff;
          u.len = g->run[i].len;
          u.rows = 1;
          dw_run3x3(sgn, &u, C, step, xrow, yrow, mul, add, shift, lo, hi);
        }
      }
      r++;
      oh++;
    }
    if (oh == OH) { oh = 0; n++; }
  }
}

/** dw_t.run for dw_channel3x3 (its conditions hold): single border outputs and the interior run. 0: too many runs. */
static int dw_plan_runs(dw_t *g) {
  uint32_t k = 0;
  for (uint32_t ow = 0; ow < g->OW;) {
    if (k == DW_MAX_RUNS) return 0; /* cannot happen when the conditions hold; a guard */
    const int32_t iw0 = (int32_t)(ow * g->sw) - (int32_t)g->pl;
    uint32_t len = 1;
    int32_t rc = iw0;
    if (ow == g->ow_lo && g->ow_lo < g->ow_hi) len = g->ow_hi - g->ow_lo;
    else rc = iw0 < 0 ? 0 : iw0 > (int32_t)g->W - 3 ? (int32_t)g->W - 3 : iw0;
    g->run[k].xoff = (uint32_t)rc * g->C;
    g->run[k].yoff = ow * g->C;
    g->run[k].len = len;
    g->run[k].d = rc - iw0;
    k++;
    ow += len;
  }
  g->runs = k;
  return 1;
}

/** Any window: output rows [r, r_end) (over N*OH) of channel c, with the channel's multiplier and addend. */
static inline __attribute__((always_inline)) void dw_channel_any(int sgn, int wide, const dw_t *g, uint32_t c, uint32_t r,
                                                                 uint32_t r_end, int32_t mul, int32_t add) {
  /* Locals: every byte stored to y might alias *g. */
  const uint32_t C = g->C, H = g->H, W = g->W, KH = g->KH, KW = g->KW, OH = g->OH, OW = g->OW;
  const uint32_t sh = g->sh, sw = g->sw, pt = g->pt, pl = g->pl, ow_lo = g->ow_lo, ow_hi = g->ow_hi;
  const int32_t shift = g->shift, lo = g->lo, hi = g->hi;
  const uint32_t WC = W * C, taps = KH * KW;
  const uint8_t *const xc = g->x + c;
  uint8_t *const yc = g->y + c;
  /* The channel's weights on the stack (L1) when they are few: w may be in L2. */
  int8_t wl[DW_MAX_TAPS];
  const int8_t *wk = g->w + c * taps;
  if (taps <= DW_MAX_TAPS) {
    for (uint32_t t = 0; t < taps; t++) wl[t] = wk[t];
    wk = wl;
  }
  uint32_t n, oh;
  dw_row_at(r, OH, &n, &oh);
  for (; r < r_end; r++) {
    /* The window's rows inside the input: [kh0, kh1) */
    const int32_t ih0 = (int32_t)(oh * sh) - (int32_t)pt, below = (int32_t)H - ih0;
    const uint32_t kh0 = ih0 < 0 ? (uint32_t)-ih0 : 0, kh1 = below <= 0 ? 0 : (uint32_t)below < KH ? (uint32_t)below : KH;
    const uint32_t rows = kh1 > kh0 ? kh1 - kh0 : 0;
    /* First valid row at column 0 (only formed when there is one) and the row's outputs. */
    const uint8_t *const xr = rows ? xc + ((n * H + (uint32_t)ih0 + kh0) * W) * C : xc;
    uint8_t *const yr = yc + r * OW * C;
    for (uint32_t ow = 0; ow < OW; ow++) {
      if (ow == ow_lo && ow_lo < ow_hi && rows) { /* the interior: every column of the window inside */
        const uint8_t *p = xr + (ow * sw - pl) * C;
        for (; ow < ow_hi; ow++, p += sw * C)
          yr[ow * C] = conv_rq(wide, dw_taps(sgn, p, wk + kh0 * KW, rows, KW, C, WC, KW), mul, add, shift, lo, hi);
        ow--;
        continue;
      }
      /* A border output: clip the window's columns to [kw0, kw1). */
      const int32_t iw0 = (int32_t)(ow * sw) - (int32_t)pl, right = (int32_t)W - iw0;
      const uint32_t kw0 = iw0 < 0 ? (uint32_t)-iw0 : 0;
      const uint32_t kw1 = right <= 0 ? 0 : (uint32_t)right < KW ? (uint32_t)right : KW;
      int32_t acc = 0;
      if (rows && kw1 > kw0)
        acc = dw_taps(sgn, xr + (uint32_t)(iw0 + (int32_t)kw0) * C, wk + kh0 * KW + kw0, rows, kw1 - kw0, C, WC, KW);
      yr[ow * C] = conv_rq(wide, acc, mul, add, shift, lo, hi);
    }
    if (++oh == OH) { oh = 0; n++; }
  }
}

typedef void dw_channel_fn(const dw_t *, uint32_t, uint32_t, uint32_t, int32_t, int32_t);
#define DW_COPY(name, call)                                                                                        \
  static __attribute__((noinline)) void name(const dw_t *g, uint32_t c, uint32_t r, uint32_t r_end, int32_t mul, \
                                             int32_t add) {                                                      \
    call;                                                                                                        \
  }
DW_COPY(dw_3x3_s8, dw_channel3x3(1, g, c, r, r_end, mul, add))
DW_COPY(dw_3x3_u8, dw_channel3x3(0, g, c, r, r_end, mul, add))
DW_COPY(dw_any_s8, dw_channel_any(1, 0, g, c, r, r_end, mul, add))
DW_COPY(dw_any_u8, dw_channel_any(0, 0, g, c, r, r_end, mul, add))
DW_COPY(dw_any_s8_wide, dw_channel_any(1, 1, g, c, r, r_end, mul, add))
DW_COPY(dw_any_u8_wide, dw_channel_any(0, 1, g, c, r, r_end, mul, add))

/*
 * Small images (a MobileNet's late layers: a few pixels, many channels): the channels go
 * innermost. With 3x3 windows on a 4x4 image, dw_channel3x3 runs nine blocks of under two
 * outputs per channel, each paying its setup (some 80 cycles); here a pixel's nine tap
 * addresses are worked out once for all of a core's channels (HWC: channel c of a tap is c
 * bytes on), a tap in the padding reading from a row of zeros. The cores split the channels;
 * each takes up to DW_GROUP at a time with their weights and parameters copied to the stack (w
 * may be in L2, mul and add are).
 */
#define DW_GROUP 32

typedef struct {
  const dw_t *g;
  const uint8_t *x; /* channel ca of pixel 0 */
  uint8_t *y;
  const uint8_t *zero;      /* nc zero bytes */
  const int8_t *wl;         /* the group's weights: 9 a channel */
  const int32_t *pp;        /* the group's parameters: mul, add of each channel */
  uint32_t nc;
} dw_group_t;

static inline __attribute__((always_inline)) void dw_group(int sgn, const dw_group_t *s) {
  const dw_t *const g = s->g;
  const uint32_t C = g->C, H = g->H, W = g->W, OH = g->OH, OW = g->OW, sh = g->sh, sw = g->sw, pt = g->pt, pl = g->pl;
  const uint32_t pixels = g->N * OH * OW, nc = s->nc;
  const int32_t shift = g->shift, lo = g->lo, hi = g->hi;
  const uint8_t *const x = s->x, *const zero = s->zero;
  const int8_t *const wl = s->wl;
  const int32_t *const pp = s->pp;
  const uint32_t C2 = 2 * C, WC = W * C, WC2 = 2 * WC;
  uint8_t *yp = s->y;
  uint32_t n = 0, oh = 0, ow = 0;
  for (uint32_t p = 0; p < pixels; p++, yp += C) {
    /* The nine taps of the window: channel ca at t0..t8, channel ca + i at t0 + i, ...; taps in
       the padding read the zero row. Row and column masks (all ones: inside; unsigned compares:
       a negative index is outside too) select the address without branches. */
    const int32_t ih0 = (int32_t)(oh * sh) - (int32_t)pt, iw0 = (int32_t)(ow * sw) - (int32_t)pl;
    const uintptr_t r0 = 0u - (uintptr_t)((uint32_t)ih0 < H), r1 = 0u - (uintptr_t)((uint32_t)(ih0 + 1) < H);
    const uintptr_t r2 = 0u - (uintptr_t)((uint32_t)(ih0 + 2) < H);
    const uintptr_t c0 = 0u - (uintptr_t)((uint32_t)iw0 < W), c1 = 0u - (uintptr_t)((uint32_t)(iw0 + 1) < W);
    const uintptr_t c2 = 0u - (uintptr_t)((uint32_t)(iw0 + 2) < W);
    /* The window's first tap, less the zero row: tap k is at z + ((d + offset_k) & mask_k). */
    const uintptr_t z = (uintptr_t)zero;
    const uintptr_t d = (uintptr_t)x + (uintptr_t)((((int32_t)(n * H) + ih0) * (int32_t)W + iw0) * (int32_t)C) - z;
    if (++ow == OW) { ow = 0; if (++oh == OH) { oh = 0; n++; } }
    const uint8_t *const t0 = (const uint8_t *)(z + (d & (r0 & c0)));
    const uint8_t *const t1 = (const uint8_t *)(z + ((d + C) & (r0 & c1)));
    const uint8_t *const t2 = (const uint8_t *)(z + ((d + C2) & (r0 & c2)));
    const uint8_t *const t3 = (const uint8_t *)(z + ((d + WC) & (r1 & c0)));
    const uint8_t *const t4 = (const uint8_t *)(z + ((d + WC + C) & (r1 & c1)));
    const uint8_t *const t5 = (const uint8_t *)(z + ((d + WC + C2) & (r1 & c2)));
    const uint8_t *const t6 = (const uint8_t *)(z + ((d + WC2) & (r2 & c0)));
    const uint8_t *const t7 = (const uint8_t *)(z + ((d + WC2 + C) & (r2 & c1)));
    const uint8_t *const t8 = (const uint8_t *)(z + ((d + WC2 + C2) & (r2 & c2)));
    const int8_t *wc = wl;
    const int32_t *q = pp;
    for (uint32_t c = 0; c < nc; c++, wc += 9, q += 2) {
      int32_t acc = ld8(sgn, t0 + c) * wc[0];
      acc = dpg_mac(acc, ld8(sgn, t1 + c), wc[1]);
      acc = dpg_mac(acc, ld8(sgn, t2 + c), wc[2]);
      acc = dpg_mac(acc, ld8(sgn, t3 + c), wc[3]);
      acc = dpg_mac(acc, ld8(sgn, t4 + c), wc[4]);
      acc = dpg_mac(acc, ld8(sgn, t5 + c), wc[5]);
      acc = dpg_mac(acc, ld8(sgn, t6 + c), wc[6]);
      acc = dpg_mac(acc, ld8(sgn, t7 + c), wc[7]);
      acc = dpg_mac(acc, ld8(sgn, t8 + c), wc[8]);
      yp[c] = conv_rq(0, acc, q[0], q[1], shift, lo, hi);
    }
  }
}
static __attribute__((noinline)) void dw_group_s8(const dw_group_t *s) { dw_group(1, s); }
static __attribute__((noinline)) void dw_group_u8(const dw_group_t *s) { dw_group(0, s); }

/** dw_group over this core's channels; a group whose parameters need the 64-bit requant goes channel by channel. */
static void dw_small(const dw_t *g, int x_signed, const dpg_param_t *mul, const dpg_param_t *add, uint64_t acc_max) {
  uint32_t c0, c1;
  dpg_chunk(g->C, &c0, &c1);
  uint8_t zero[DW_GROUP];
  int8_t wl[9 * DW_GROUP];
  int32_t pp[2 * DW_GROUP];
  for (uint32_t i = 0; i < DW_GROUP; i++) zero[i] = 0;
  dw_group_t s = {g, NULL, NULL, zero, wl, pp, 0};
  for (uint32_t ca = c0; ca < c1; ca += DW_GROUP) {
    const uint32_t nc = c1 - ca < DW_GROUP ? c1 - ca : DW_GROUP;
    uint32_t max_mul = 0, max_add = 0;
    for (uint32_t i = 0; i < nc; i++) {
      const int32_t m = channel_value(mul, ca + i), a = channel_value(add, ca + i);
      pp[2 * i] = m;
      pp[2 * i + 1] = a;
      max_mul = abs32(m) > max_mul ? abs32(m) : max_mul;
      max_add = abs32(a) > max_add ? abs32(a) : max_add;
    }
    /* 32 bits are exact when |acc*mul + add| < 2^31 for every acc the operands allow. */
    if (g->shift < 0 || g->shift > 31 || acc_max * max_mul + max_add > 0x7fffffffu) {
      for (uint32_t i = 0; i < nc; i++)
        (x_signed ? dw_any_s8_wide : dw_any_u8_wide)(g, ca + i, 0, g->N * g->OH, pp[2 * i], pp[2 * i + 1]);
      continue;
    }
    const int8_t *const src = g->w + 9 * ca; /* a local: the byte stores might alias *g */
    for (uint32_t i = 0; i < 9 * nc; i++) wl[i] = src[i];
    s.x = g->x + ca;
    s.y = g->y + ca;
    s.nc = nc;
    if (x_signed) dw_group_s8(&s);
    else dw_group_u8(&s);
  }
}

/*
 * 3x3 windows, strides 1 and 2, any padding: channel by channel through a copy of the channel's
 * input on the stack with the padding written out as zeros (a copy row's bytes adjacent, PW
 * apart), so a window row is one word: one 4-way dot product with the row's weights
 * (w0, w1, w2, 0) per output. At stride 1 that word also holds the next output's window row,
 * whose weights are the same shifted a lane up (0, w0, w1, w2): outputs go in pairs, three loads
 * for both. The copy's rows run along the longer side of the output (an image 25 high and 4 wide
 * is copied column by column, the window transposed), so the pairs loop is long. The cores
 * split (image, channel, band of output lines) units, channel-major; a band is as many output
 * lines as the copy holds (DW_PLANE bytes).
 */
#define DW_PLANE 640

/* The geometry in the copy's orientation: lines of the output along its rows. */
typedef struct {
  const dw_t *g;
  uint8_t *plane;
  uint32_t PW;                 /* bytes per copy row (a multiple of 4) */
  uint32_t IN, IL;             /* input lines (copy rows) and their length */
  uint32_t ON, OL;             /* output lines and their length */
  uint32_t sn, sl, pn, pl;     /* strides and leading padding across and along the lines */
  uint32_t xn, xl, yn, yl;     /* byte steps in x and y across and along the lines */
  int transposed;              /* lines are the image's columns: the window transposed */
  uint32_t c, n, o0, o1;       /* channel, image, output lines [o0, o1) */
  int32_t mul, add;
} dw_band_t;

/** Three weights (a, b, c) of the window in lanes 0..2 of a word, lane 3 zero. */
static inline __attribute__((always_inline)) uint32_t dw_row_weights(int8_t a, int8_t b, int8_t c) {
  return (uint32_t)(uint8_t)a | (uint32_t)(uint8_t)b << 8 | (uint32_t)(uint8_t)c << 16;
}

/* conv_rq's 32-bit requant; `u8`: lo is 0, so one clip instruction. */
static inline __attribute__((always_inline)) uint8_t dw_rq(int u8, int32_t acc, int32_t mul, int32_t add, int32_t shift,
                                                           int32_t lo, int32_t hi) {
  return conv_rq(u8 ? RQ_CLIPU : RQ_32, acc, mul, add, shift, lo, hi);
}

static inline __attribute__((always_inline)) int32_t dw_dot3(int sgn, uint32_t a, uint32_t b, uint32_t e, uint32_t ka,
                                                             uint32_t kb, uint32_t ke) {
  return sgn ? dpg_sdot4_ss(dpg_sdot4_ss(dpg_dot4_ss(a, ka), b, kb), e, ke) : dpg_sdot4_us(dpg_sdot4_us(dpg_dot4_us(a, ka), b, kb), e, ke);
}

static inline __attribute__((always_inline)) void dw_band3x3(int sgn, int u8, const dw_band_t *u) {
  const dw_t *const g = u->g;
  const uint32_t IN = u->IN, IL = u->IL, OL = u->OL, sn = u->sn, sl = u->sl, PW = u->PW;
  const uint32_t xn = u->xn, xl = u->xl, yn = u->yn, yl = u->yl;
  const int32_t shift = g->shift, lo = g->lo, hi = g->hi, mul = u->mul, add = u->add;
  const uint32_t o0 = u->o0, o1 = u->o1;
  /* The band's input lines [i0, i0 + rows): a line's IL bytes after pl zeros; a line outside the
     input all zeros. The padding columns were zeroed once (dw_planes) and are never written. */
  const int32_t i0 = (int32_t)(o0 * sn) - (int32_t)u->pn;
  const uint32_t rows = (o1 - o0 - 1) * sn + 3;
  const uint8_t *const xc = g->x + (u->n * g->H * g->W) * g->C + u->c;
  uint8_t *pr = u->plane;
  for (uint32_t i = 0; i < rows; i++, pr += PW) {
    const int32_t line = i0 + (int32_t)i;
    if ((uint32_t)line >= IN) {
      uint32_t *const zw = (uint32_t *)pr;
      for (uint32_t k = 0; k < PW / 4; k++) zw[k] = 0;
      continue;
    }
    const uint8_t *xs = xc + (uint32_t)line * xn;
    uint8_t *d = pr + u->pl;
    for (uint32_t j = IL; j; j--, xs += xl) *d++ = *xs;
  }
  /* Window row r of the copy: the kernel's row r, or its column r when transposed. */
  const int8_t *const w = g->w + 9 * u->c;
  const int tr = u->transposed;
  const uint32_t k0 = tr ? dw_row_weights(w[0], w[3], w[6]) : dw_row_weights(w[0], w[1], w[2]);
  const uint32_t k1 = tr ? dw_row_weights(w[1], w[4], w[7]) : dw_row_weights(w[3], w[4], w[5]);
  const uint32_t k2 = tr ? dw_row_weights(w[2], w[5], w[8]) : dw_row_weights(w[6], w[7], w[8]);
  const uint32_t s0 = k0 << 8, s1 = k1 << 8, s2 = k2 << 8;
  const uint32_t yl2 = 2 * yl;
  const uint8_t *prow = u->plane;
  uint8_t *yline = g->y + (u->n * g->OH * g->OW) * g->C + o0 * yn + u->c;
  for (uint32_t o = o0; o < o1; o++, prow += sn * PW, yline += yn) {
    const uint8_t *p0 = prow, *p1 = prow + PW, *p2 = prow + 2 * PW;
    uint8_t *yp = yline;
    uint32_t left = OL;
    if (sl == 1)
      for (; left >= 2; left -= 2, yp += yl2) {
        const uint32_t a = dpg_load4u(p0), b = dpg_load4u(p1), e = dpg_load4u(p2);
        p0 += 2, p1 += 2, p2 += 2;
        yp[0] = dw_rq(u8, dw_dot3(sgn, a, b, e, k0, k1, k2), mul, add, shift, lo, hi);
        yp[yl] = dw_rq(u8, dw_dot3(sgn, a, b, e, s0, s1, s2), mul, add, shift, lo, hi);
      }
    for (; left; left--, yp += yl) {
      const uint32_t a = dpg_load4u(p0), b = dpg_load4u(p1), e = dpg_load4u(p2);
      p0 += sl, p1 += sl, p2 += sl;
      *yp = dw_rq(u8, dw_dot3(sgn, a, b, e, k0, k1, k2), mul, add, shift, lo, hi);
    }
  }
}
typedef void dw_band_fn(const dw_band_t *);
static __attribute__((noinline)) void dw_band3x3_s8(const dw_band_t *u) { dw_band3x3(1, 0, u); }
static __attribute__((noinline)) void dw_band3x3_u8(const dw_band_t *u) { dw_band3x3(0, 0, u); }
static __attribute__((noinline)) void dw_band3x3_s8_lo0(const dw_band_t *u) { dw_band3x3(1, 1, u); }
static __attribute__((noinline)) void dw_band3x3_u8_lo0(const dw_band_t *u) { dw_band3x3(0, 1, u); }

/**
 * dw_band3x3's geometry for g: lines along the longer side of the output; PW 0 when three copy
 * rows do not fit DW_PLANE.
 */
static dw_band_t dw_band_geometry(const dw_t *g) {
  const int tr = g->OW < g->OH;
  const uint32_t C = g->C;
  dw_band_t u = {g, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, tr, 0, 0, 0, 0, 0, 0};
  if (!tr) {
    u.IN = g->H, u.IL = g->W, u.ON = g->OH, u.OL = g->OW, u.sn = g->sh, u.sl = g->sw, u.pn = g->pt, u.pl = g->pl;
    u.xn = g->W * C, u.xl = C, u.yn = g->OW * C, u.yl = C;
  } else {
    u.IN = g->W, u.IL = g->H, u.ON = g->OW, u.OL = g->OH, u.sn = g->sw, u.sl = g->sh, u.pn = g->pl, u.pl = g->pt;
    u.xn = C, u.xl = g->W * C, u.yn = C, u.yl = g->OW * C;
  }
  /* The columns the windows read (the last word whole) and those the copy writes. */
  const uint32_t used = (u.OL - 1) * u.sl + 4, wide = u.pl + u.IL;
  const uint32_t PW = ((used > wide ? used : wide) + 3) & ~3u;
  u.PW = 3 * PW <= DW_PLANE ? PW : 0;
  return u;
}

/** dw_band3x3 over this core's units; a channel whose parameters need the 64-bit requant goes by dw_channel_any. */
static void dw_planes(const dw_t *g, dw_band_t u, int x_signed, const dpg_param_t *mul, const dpg_param_t *add, uint64_t acc_max) {
  uint32_t plane[DW_PLANE / 4];
  for (uint32_t i = 0; i < DW_PLANE / 4; i++) plane[i] = 0;
  u.plane = (uint8_t *)plane;
  /* Outputs clipped to [0, hi]: one cv.clipur. */
  dw_band_fn *const band_fn = g->lo == 0 && g->hi >= 0 ? (x_signed ? dw_band3x3_s8_lo0 : dw_band3x3_u8_lo0)
                                                       : (x_signed ? dw_band3x3_s8 : dw_band3x3_u8);
  const uint32_t ON = u.ON, OH = g->OH;
  /* Output lines per band: its (lines - 1) * sn + 3 input lines fill at most the copy. */
  const uint32_t fit = (DW_PLANE / u.PW - 3) / u.sn + 1, band = fit < ON ? fit : ON;
  const uint32_t bands = (ON + band - 1) / band, per_image = g->C * bands;
  uint32_t u0, u1;
  dpg_chunk(g->N * per_image, &u0, &u1);
  uint32_t last_c = ~0u;
  int wide = 0;
  for (uint32_t i = u0; i < u1; i++) {
    const uint32_t n = i / per_image, r = i - n * per_image, c = r / bands, b = r - c * bands;
    if (c != last_c) {
      last_c = c;
      u.mul = channel_value(mul, c);
      u.add = channel_value(add, c);
      /* 32 bits are exact when |acc*mul + add| < 2^31 for every acc the operands allow. */
      wide = acc_max * abs32(u.mul) + abs32(u.add) > 0x7fffffffu;
    }
    if (wide) {
      /* The whole channel of this image, by the core holding its first band. */
      if (b == 0) (x_signed ? dw_any_s8_wide : dw_any_u8_wide)(g, c, n * OH, n * OH + OH, u.mul, u.add);
      continue;
    }
    u.c = c;
    u.n = n;
    u.o0 = b * band;
    u.o1 = u.o0 + band < ON ? u.o0 + band : ON;
    band_fn(&u);
  }
}

/* Parameters laid out otherwise than per channel (per pixel, per element): exact and slow; rare. */
static void dwconv_elementwise(const uint8_t *x, int x_signed, const int8_t *w, const dpg_param_t *mul,
                               const dpg_param_t *add, int32_t shift, int32_t lo, int32_t hi, uint8_t *y,
                               const dpg_conv_geom_t *g) {
  const uint32_t C = g->C;
  uint32_t c0, c1;
  dpg_chunk(C, &c0, &c1);
  for (uint32_t p = 0; p < g->N * g->OH * g->OW; p++) {
    const uint32_t ow = p % g->OW, oh = (p / g->OW) % g->OH, n = p / (g->OW * g->OH);
    for (uint32_t c = c0; c < c1; c++) {
      int32_t acc = 0;
      for (uint32_t kh = 0; kh < g->KH; kh++) {
        const int32_t ih = (int32_t)(oh * g->stride_h + kh) - (int32_t)g->pad_top;
        if (ih < 0 || ih >= (int32_t)g->H) continue;
        for (uint32_t kw = 0; kw < g->KW; kw++) {
          const int32_t iw = (int32_t)(ow * g->stride_w + kw) - (int32_t)g->pad_left;
          if (iw < 0 || iw >= (int32_t)g->W) continue;
          const uint8_t v = x[((n * g->H + (uint32_t)ih) * g->W + (uint32_t)iw) * C + c];
          acc += (x_signed ? (int32_t)(int8_t)v : (int32_t)v) * w[(c * g->KH + kh) * g->KW + kw];
        }
      }
      y[p * C + c] = rq8(acc, mul, add, p * C + c, shift, lo, hi);
    }
  }
}

void dpg_rq_dwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g) {
  const uint32_t C = g->C, rows = g->N * g->OH;
  /* Output element i = pixel*C + c uses v[(i / inner) % count]: a function of c alone when the
     value is a scalar or inner == 1 and count divides C (then v[c % count]). */
  if (!per_channel(&mul, C) || !per_channel(&add, C)) {
    dwconv_elementwise(x, x_signed, w, &mul, &add, shift, lo, hi, y, g);
    return;
  }
  dw_t d = {x, w, y, g->N, C, g->H, g->W, g->KH, g->KW, g->OH, g->OW, g->stride_h, g->stride_w, g->pad_top, g->pad_left,
            0, 0, 0, 0, shift, lo, hi, 0, {{0, 0, 0, 0}}};
  /* Interior outputs: ow*sw >= pl (no column left of the input) and ow*sw - pl + KW <= W. */
  const uint32_t ow_lo = (d.pl + d.sw - 1) / d.sw;
  const uint32_t ow_end = d.W + d.pl >= d.KW ? (d.W + d.pl - d.KW) / d.sw + 1 : 0;
  d.ow_lo = ow_lo < d.OW ? ow_lo : d.OW;
  d.ow_hi = ow_end < d.ow_lo ? d.ow_lo : ow_end < d.OW ? ow_end : d.OW;
  /* Likewise the rows: oh*sh >= pt and oh*sh - pt + KH <= H. */
  const uint32_t oh_lo = (d.pt + d.sh - 1) / d.sh;
  const uint32_t oh_end = d.H + d.pt >= d.KH ? (d.H + d.pt - d.KH) / d.sh + 1 : 0;
  d.oh_lo = oh_lo < d.OH ? oh_lo : d.OH;
  d.oh_hi = oh_end < d.oh_lo ? d.oh_lo : oh_end < d.OH ? oh_end : d.OH;
  /* The largest |acc|: KH*KW taps of |x| <= 128 or 255 times |w| <= 128. */
  const uint64_t acc_max = (uint64_t)d.KH * d.KW * (x_signed ? 128u : 255u) * 128u;
  const int shift_ok = shift >= 0 && shift <= 31;
  /* 3x3, strides 1 and 2, 32-bit shift: through the padded copy (dw_planes). */
  if (d.KH == 3 && d.KW == 3 && d.sh <= 2 && d.sw <= 2 && shift_ok && d.OH && d.OW) {
    const dw_band_t band = dw_band_geometry(&d);
    if (band.PW) {
      dw_planes(&d, band, x_signed, &mul, &add, acc_max);
      return;
    }
  }
  /* dw_channel3x3's conditions: no window overhangs the input's columns by more than two. */
  const int k3x3 = d.KH == 3 && d.KW == 3 && d.W >= 3 && d.pl <= 2 && d.OW && (d.OW - 1) * d.sw + 1 <= d.W + d.pl &&
                   dw_plan_runs(&d);
  /* 3x3 windows with channels enough for every core, and dw_channel3x3 would run fewer than two
     outputs per block (small images) or cannot: the channels innermost. */
  const uint32_t blocks = d.runs * (d.oh_lo + (d.OH - d.oh_hi) + (d.oh_hi > d.oh_lo));
  if (d.KH == 3 && d.KW == 3 && C >= (uint32_t)hal_num_cores() && (!k3x3 || 2 * blocks >= d.OH * d.OW)) {
    dw_small(&d, x_signed, &mul, &add, acc_max);
    return;
  }
  uint32_t u0, u1;
  dpg_chunk(C * rows, &u0, &u1);
  /* This core's units [u0, u1): channel c, rows [r, r_end) of it, then the next channel. */
  uint32_t c = u0 / rows, r = u0 - c * rows;
  for (uint32_t left = u1 - u0; left; c++, r = 0) {
    const uint32_t r_end = left < rows - r ? r + left : rows;
    left -= r_end - r;
    const int32_t m = channel_value(&mul, c), a = channel_value(&add, c);
    /* 32 bits are exact when |acc*mul + add| < 2^31 for every acc the operands allow. */
    const int wide = !shift_ok || acc_max * abs32(m) + abs32(a) > 0x7fffffffu;
    dw_channel_fn *const f = wide ? (x_signed ? dw_any_s8_wide : dw_any_u8_wide)
                           : k3x3 ? (x_signed ? dw_3x3_s8 : dw_3x3_u8) : (x_signed ? dw_any_s8 : dw_any_u8);
    f(&d, c, r, r_end, m, a);
  }
}
