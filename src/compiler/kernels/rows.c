/*
 * rows.c: Deeploy's integer normalisations and softmaxes, row by row over the last axis
 * (length L). The cores split the rows. '/' below truncates toward zero as in C, floordiv
 * floors, '>>' on signed values floors (arithmetic shift).
 */
#include "dpg_kernels.h"
#include "xpulp.h"

/** floor(v / 2^s) for any s >= 0 (shifts past the width give 0 or -1). */
static inline int64_t shr_floor(int64_t v, int64_t s) { return s >= 63 ? (v < 0 ? -1 : 0) : v >> s; }

/** floor(a / d) for 0 <= a < 2^32 and 0 < d, given r = floor((2^32 - 1) / d). */
static inline uint32_t div_by_recip(uint32_t a, uint32_t d, uint32_t r) {
  uint32_t q = (uint32_t)(((uint64_t)a * r) >> 32); /* floor(a/d) - 1 <= q <= floor(a/d) */
  if (a - q * d >= d) q++;
  return q;
}

/*
 * iRMSNorm in 32 bits, when |x*w| + 2^16 < 2^31 (so the quotient truncated toward zero is the
 * 64-bit one), L*x^2 < 2^31, 0 <= log2d < 32 and the clip range is at most 256 values within
 * [-256, 255]: the row's sum of squares four bytes per dot-product instruction, its mean in
 * 32 bits, the weights copied once into `wl` (they live in L2, 12-cycle loads, and every row
 * rereads them).
 */
#define RMS_MAX_L 64

/** Largest r with r*r <= n, digit by digit in 32 bits (dpg_isqrt's 64-bit steps cost ~4x). */
static inline uint32_t isqrt32(uint32_t n) {
  uint32_t r = 0, bit = 1u << 30;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= r + bit) { n -= r + bit; r = (r >> 1) + bit; }
    else r >>= 1;
    bit >>= 2;
  }
  return r;
}

/** sum x^2 over a row of L bytes: four squares per dot product (|x| <= 255 and L*x^2 < 2^31). */
static inline __attribute__((always_inline)) uint32_t sum_sq8(const uint8_t *x, int is_signed, uint32_t L) {
  int32_t sq = 0;
  uint32_t j = 0;
  for (; j + 4 <= L; j += 4) {
    const uint32_t v = dpg_load4(x + j);
    sq = is_signed ? dpg_sdot4_ss(sq, v, v) : dpg_sdot4_uu(sq, v, v);
  }
  for (; j < L; j++) { const int32_t v = dpg_ld8(x, is_signed, j); sq += v * v; }
  return (uint32_t)sq;
}

/*
 * One row without a division per element. With p = x*w, d = std and m = 2^log2d, the
 * reference's trunc(p/d) is floor((p + c)/d) with c = d - 1 for p < 0 (else 0), and floors by
 * positive integers nest, so y = clip(floor(trunc(p/d) / m)) = clip(floor(t / d)) with
 * t = (p + c) >> log2d. The clip moves inside the floor: clip(floor(t/d), lo, hi) =
 * lo + floor(u/d) with u = clip(t - lo*d, 0, (hi - lo + 1)*d - 1), and t - lo*d =
 * (p + c + b0) >> log2d with b0 = -lo*d*m (the caller checks |p| + |b0| + d < 2^31).
 * Then floor(u/d) = (u*M) >> 23 with M = floor(2^23/d) + 1: M exceeds 2^23/d by at most 1,
 * so u*M/2^23 exceeds u/d by less than u/2^23 < 1/d (u*d < (hi - lo + 1)*d^2 <= 2^23, the
 * caller's condition), which cannot reach the next integer; u*M < 256*2^23 + u < 2^32.
 */
static inline uint8_t rms_y(int32_t p, int32_t dm1, int32_t b0, int32_t log2d, uint32_t umax, uint32_t M, int32_t lo) {
  /* p + (d - 1)*[p < 0] by one multiply-accumulate (cv.mac), then + b0 and >> log2d by one cv.addnr */
  const uint32_t u = dpg_clipu(dpg_add_sra(dpg_mac(p, (int32_t)((uint32_t)p >> 31), dm1), b0, log2d), umax);
  return (uint8_t)((int32_t)((u * M) >> 23) + lo);
}

static inline __attribute__((always_inline)) void rms_row_mul(const uint8_t *xr, int is_signed, const int32_t *wl, uint8_t *yr, uint32_t L,
                                                              int32_t log2d, int32_t lo, uint32_t range, uint32_t d) {
  const int32_t dm1 = (int32_t)d - 1, b0 = (int32_t)(-(int64_t)lo * d * ((int64_t)1 << log2d));
  const uint32_t umax = range * d - 1, M = (1u << 23) / d + 1;
  uint32_t j = 0;
  for (; j + 4 <= L; j += 4) { /* four per iteration: the loads hide behind the others' arithmetic */
    const int32_t p0 = dpg_ld8(xr, is_signed, j) * wl[j], p1 = dpg_ld8(xr, is_signed, j + 1) * wl[j + 1];
    const int32_t p2 = dpg_ld8(xr, is_signed, j + 2) * wl[j + 2], p3 = dpg_ld8(xr, is_signed, j + 3) * wl[j + 3];
    yr[j] = rms_y(p0, dm1, b0, log2d, umax, M, lo);
    yr[j + 1] = rms_y(p1, dm1, b0, log2d, umax, M, lo);
    yr[j + 2] = rms_y(p2, dm1, b0, log2d, umax, M, lo);
    yr[j + 3] = rms_y(p3, dm1, b0, log2d, umax, M, lo);
  }
  for (; j < L; j++) yr[j] = rms_y(dpg_ld8(xr, is_signed, j) * wl[j], dm1, b0, log2d, umax, M, lo);
}

/* A function per signedness: the loop gets all the registers (inlined into the row loop it spilled). */
static __attribute__((noinline)) void rms_row_mul_s8(const uint8_t *xr, const int32_t *wl, uint8_t *yr, uint32_t L, int32_t log2d,
                                                     int32_t lo, uint32_t range, uint32_t d) {
  rms_row_mul(xr, 1, wl, yr, L, log2d, lo, range, d);
}
static __attribute__((noinline)) void rms_row_mul_u8(const uint8_t *xr, const int32_t *wl, uint8_t *yr, uint32_t L, int32_t log2d,
                                                     int32_t lo, uint32_t range, uint32_t d) {
  rms_row_mul(xr, 0, wl, yr, L, log2d, lo, range, d);
}

/* One row through the reciprocal of d, one correction per element (any d). */
static inline __attribute__((always_inline)) void rms_row_recip(const uint8_t *xr, int is_signed, const int32_t *wl, uint8_t *yr, uint32_t L,
                                                                int32_t log2d, int32_t lo, int32_t hi, uint32_t d) {
  const uint32_t recip = 0xffffffffu / d;
  for (uint32_t j = 0; j < L; j++) {
    const int32_t p = dpg_ld8(xr, is_signed, j) * wl[j], sign = p >> 31; /* sign: 0 or -1 */
    const int32_t q = ((int32_t)div_by_recip((uint32_t)((p ^ sign) - sign), d, recip) ^ sign) - sign;
    yr[j] = (uint8_t)dpg_clip32(q >> log2d, lo, hi);
  }
}

/* Rows [r0, r1), columns [c0, c1) of each (wl holds the weights of those columns); pmax bounds |x*w|. */
static inline __attribute__((always_inline)) void irmsnorm32(const uint8_t *x, int is_signed, const int32_t *wl, uint8_t *y,
                                                             uint32_t r0, uint32_t r1, uint32_t L, uint32_t c0, uint32_t c1,
                                                             int32_t log2d, int32_t lo, int32_t hi, int64_t pmax) {
  const uint32_t range = (uint32_t)(hi - lo + 1), n = c1 - c0;
  const int64_t alo = lo < 0 ? -(int64_t)lo : lo;
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    uint8_t *yr = y + r * L + c0;
    const uint32_t d = isqrt32(sum_sq8(xr, is_signed, L) / L + 1); /* 1 <= d <= 255 */
    if (range * d * d <= (1u << 23) && pmax + ((alo * d) << log2d) + d < ((int64_t)1 << 31))
      (is_signed ? rms_row_mul_s8 : rms_row_mul_u8)(xr + c0, wl, yr, n, log2d, lo, range, d);
    else rms_row_recip(xr + c0, is_signed, wl, yr, n, log2d, lo, hi, d);
  }
}

/**
 * Copies the weights of columns [c0, c1) (w_len 1: broadcast) into wl; returns a bound on
 * |x*w|, 0 unless the 32-bit path is exact.
 */
static int64_t irmsnorm_fits32(const int32_t *w, uint32_t w_len, uint32_t L, uint32_t c0, uint32_t c1, int32_t log2d, int32_t lo,
                               int32_t hi, int32_t *wl) {
  if (L == 0 || L > RMS_MAX_L || (w_len != 1 && w_len != L) || log2d < 0 || log2d > 31 || lo < -256 || hi > 255 || lo > hi || hi - lo >= 256)
    return 0;
  int64_t wmax = 0;
  for (uint32_t j = c0; j < c1; j++) {
    const int32_t v = w[w_len == 1 ? 0 : j];
    const int64_t a = v < 0 ? -(int64_t)v : v;
    wl[j - c0] = v;
    if (a > wmax) wmax = a;
  }
  const int ok = 256 * wmax + (1 << 16) < ((int64_t)1 << 31) && (int64_t)L * 256 * 256 < ((int64_t)1 << 31);
  return ok ? 256 * wmax + 1 : 0;
}

/* iRMSNorm: std = isqrt(sum(x^2)/L + 1); y = clip((x*w[j] / std) >> log2(D)). */
void dpg_irmsnorm(const uint8_t *x, int x_signed, const int32_t *w, uint32_t w_len, uint8_t *y,
                  uint32_t rows, uint32_t L, int32_t log2d, int32_t lo, int32_t hi) {
  /* Fewer rows than cores (a decoder's one token): every core takes all the rows and a share of
     their columns, computing each row's std itself (a row of 64 costs ~20 dot products). */
  uint32_t r0 = 0, r1 = rows, c0 = 0, c1 = L;
  if (rows < (uint32_t)hal_num_cores()) dpg_chunk(L, &c0, &c1);
  else dpg_chunk(rows, &r0, &r1);
  if (r0 >= r1 || c0 >= c1) return;
  int32_t wl[RMS_MAX_L];
  const int64_t pmax = irmsnorm_fits32(w, w_len, L, c0, c1, log2d, lo, hi, wl);
  if (pmax) {
    if (x_signed) irmsnorm32(x, 1, wl, y, r0, r1, L, c0, c1, log2d, lo, hi, pmax);
    else irmsnorm32(x, 0, wl, y, r0, r1, L, c0, c1, log2d, lo, hi, pmax);
    return;
  }
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    int64_t sq = 0;
    for (uint32_t j = 0; j < L; j++) { const int32_t v = dpg_ld8(xr, x_signed, j); sq += v * v; }
    const int64_t std = dpg_isqrt((uint64_t)(sq / L) + 1);
    for (uint32_t j = c0; j < c1; j++) {
      const int64_t v = ((int64_t)dpg_ld8(xr, x_signed, j) * w[w_len == 1 ? 0 : j]) / std;
      y[r * L + j] = (uint8_t)dpg_clamp(v >> log2d, lo, hi);
    }
  }
}

/*
 * iLayerNorm in 32 bits, the divisions folded as in iRMSNorm. With p = nom*w and c = den - 1
 * for p < 0 (else 0), nom*w/den + b = floor((p + c)/den) + b = floor((p + c + b*den)/den),
 * and floors by positive integers nest, so with D = 2^k * D' (D' odd) and DD = den*D':
 * y = clip(floor(t / DD), lo, hi) with t = (p + c + b*den) >> k, and as in rms_y
 * y = lo + floor(u/DD) with u = clip(t - lo*DD, 0, range*DD - 1), where t - lo*DD =
 * (p + c + b*den + b0) >> k, b0 = -lo*DD*2^k. floor(u/DD) is (u*M) >> 23 when
 * range*DD^2 <= 2^23 (rms_y's proof), else one 32-bit divide. Returns 0 (row not done) when
 * the row's sums could leave 32 bits: pmax bounds |nom*w|, bmax |b|.
 */
static inline __attribute__((always_inline)) int ilayernorm_row32(const uint8_t *xr, int is_signed, const int32_t *wl, const int32_t *bl,
                                                                  uint8_t *yr, uint32_t L, int32_t k, uint32_t Dodd, int32_t lo,
                                                                  uint32_t range, int64_t pmax, int64_t bmax) {
  int32_t sum = 0;
  for (uint32_t j = 0; j < L; j++) sum += dpg_ld8(xr, is_signed, j);
  const int32_t mean = sum / (int32_t)L; /* truncated, as the reference's */
  uint32_t sq = 0;
  for (uint32_t j = 0; j < L; j++) { const int32_t v = dpg_ld8(xr, is_signed, j) - mean; sq += (uint32_t)(v * v); }
  const uint32_t den = isqrt32(sq / L + 1);
  const int64_t DD = (int64_t)den * Dodd, alo = lo < 0 ? -(int64_t)lo : lo;
  if (DD * range >= ((int64_t)1 << 31) || pmax + bmax * den + den + ((alo * DD) << k) >= ((int64_t)1 << 31)) return 0;
  const int32_t dm1 = (int32_t)den - 1, b0 = (int32_t)(-(int64_t)lo * DD * ((int64_t)1 << k)), d = (int32_t)den;
  const uint32_t dd = (uint32_t)DD, umax = range * dd - 1;
  if ((int64_t)range * DD * DD <= (1 << 23)) {
    const uint32_t M = (1u << 23) / dd + 1;
    for (uint32_t j = 0; j < L; j++) {
      const int32_t p = (dpg_ld8(xr, is_signed, j) - mean) * wl[j];
      const int32_t t = dpg_add_sra(dpg_mac(dpg_mac(p, bl[j], d), (int32_t)((uint32_t)p >> 31), dm1), b0, k);
      yr[j] = (uint8_t)((int32_t)((dpg_clipu(t, umax) * M) >> 23) + lo);
    }
  } else {
    for (uint32_t j = 0; j < L; j++) {
      const int32_t p = (dpg_ld8(xr, is_signed, j) - mean) * wl[j];
      const int32_t t = dpg_add_sra(dpg_mac(dpg_mac(p, bl[j], d), (int32_t)((uint32_t)p >> 31), dm1), b0, k);
      yr[j] = (uint8_t)((int32_t)(dpg_clipu(t, umax) / dd) + lo);
    }
  }
  return 1;
}

/* One row in 64 bits (the reference's formula as written). */
static void ilayernorm_row64(const uint8_t *xr, int x_signed, const int32_t *w, uint32_t w_len, const int32_t *b, uint32_t b_len,
                             uint8_t *yr, uint32_t L, int32_t D, int32_t lo, int32_t hi) {
  int64_t sum = 0, sq = 0;
  for (uint32_t j = 0; j < L; j++) sum += dpg_ld8(xr, x_signed, j);
  const int64_t mean = sum / (int64_t)L;
  for (uint32_t j = 0; j < L; j++) { const int64_t d = dpg_ld8(xr, x_signed, j) - mean; sq += d * d; }
  const int64_t den = dpg_isqrt((uint64_t)(sq / L) + 1);
  for (uint32_t j = 0; j < L; j++) {
    const int64_t nom = dpg_ld8(xr, x_signed, j) - mean;
    const int64_t v = nom * w[w_len == 1 ? 0 : j] / den + b[b_len == 1 ? 0 : j];
    yr[j] = (uint8_t)dpg_clamp(dpg_floordiv(v, D), lo, hi);
  }
}

#define LN_MAX_L 64

/** The largest |v[j]| (v[0] when len is 1), the L values copied into vl. */
static int64_t copy_abs_max(const int32_t *v, uint32_t len, uint32_t L, int32_t *vl) {
  int64_t m = 0;
  for (uint32_t j = 0; j < L; j++) {
    const int32_t e = v[len == 1 ? 0 : j];
    const int64_t a = e < 0 ? -(int64_t)e : e;
    vl[j] = e;
    if (a > m) m = a;
  }
  return m;
}

/* iLayerNorm: nom = x - mean (truncated); den = isqrt(floor(mean(nom^2)) + 1);
   y = clip(floor((nom*w/den + b) / D)). */
void dpg_ilayernorm(const uint8_t *x, int x_signed, const int32_t *w, uint32_t w_len, const int32_t *b,
                    uint32_t b_len, uint8_t *y, uint32_t rows, uint32_t L, int32_t D, int32_t lo, int32_t hi) {
  uint32_t r0, r1;
  dpg_chunk(rows, &r0, &r1);
  if (r0 >= r1) return;
  if (L == 0 || L > LN_MAX_L || (w_len != 1 && w_len != L) || (b_len != 1 && b_len != L) || D <= 0 || lo < -256 || hi > 255 ||
      lo > hi || hi - lo >= 256) {
    for (uint32_t r = r0; r < r1; r++) ilayernorm_row64(x + r * L, x_signed, w, w_len, b, b_len, y + r * L, L, D, lo, hi);
    return;
  }
  /* the weights and biases once into L1; |nom| <= 255 (x and mean of one signedness) */
  int32_t wl[LN_MAX_L], bl[LN_MAX_L];
  const int64_t pmax = 256 * copy_abs_max(w, w_len, L, wl), bmax = copy_abs_max(b, b_len, L, bl);
  int32_t k = 0;
  while (((D >> k) & 1) == 0) k++;
  const uint32_t Dodd = (uint32_t)(D >> k), range = (uint32_t)(hi - lo + 1);
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    uint8_t *yr = y + r * L;
    const int done = x_signed ? ilayernorm_row32(xr, 1, wl, bl, yr, L, k, Dodd, lo, range, pmax, bmax)
                              : ilayernorm_row32(xr, 0, wl, bl, yr, L, k, Dodd, lo, range, pmax, bmax);
    if (!done) ilayernorm_row64(xr, x_signed, w, w_len, b, b_len, yr, L, D, lo, hi);
  }
}

/** A dpg_param_t read element by element: the index (i / inner) % count kept by counters. */
typedef struct {
  const int32_t *v;
  uint32_t inner, count, within, idx;
} param_walk_t;

static inline param_walk_t param_walk_at(const dpg_param_t *p, uint32_t i) {
  param_walk_t c = {p->v, p->inner, p->count, 0, 0};
  if (p->count != 1) { c.within = i % p->inner; c.idx = (i / p->inner) % p->count; }
  else c.inner = 1;
  return c;
}
static inline void param_walk_next(param_walk_t *c) {
  if (++c->within == c->inner) {
    c->within = 0;
    if (++c->idx == c->count) c->idx = 0;
  }
}

/*
 * iNoNorm: y = clip(((x*w + b) * mul) >> log2(D)), w and b broadcast over x; split over
 * elements. The parameters' indices advance by counters (dpg_param_at divides twice per
 * element), the arithmetic stays the reference's 64-bit formula.
 */
static inline __attribute__((always_inline)) void inonorm_run(const uint8_t *x, int x_signed, param_walk_t w, param_walk_t b, int32_t mul,
                                                              int32_t log2d, uint8_t *y, uint32_t i0, uint32_t i1, int32_t lo, int32_t hi) {
  for (uint32_t i = i0; i < i1; i++) {
    const int64_t v = (int64_t)dpg_ld8(x, x_signed, i) * w.v[w.idx] + b.v[b.idx];
    y[i] = (uint8_t)dpg_clamp((v * mul) >> log2d, lo, hi);
    param_walk_next(&w);
    param_walk_next(&b);
  }
}

void dpg_inonorm(const uint8_t *x, int x_signed, dpg_param_t w, dpg_param_t b, int32_t mul, int32_t log2d,
                 uint8_t *y, uint32_t n, int32_t lo, int32_t hi) {
  uint32_t i0, i1;
  dpg_chunk(n, &i0, &i1);
  if (i0 >= i1) return;
  if (x_signed) inonorm_run(x, 1, param_walk_at(&w, i0), param_walk_at(&b, i0), mul, log2d, y, i0, i1, lo, hi);
  else inonorm_run(x, 0, param_walk_at(&w, i0), param_walk_at(&b, i0), mul, log2d, y, i0, i1, lo, hi);
}

/** iSoftmax's polynomial exponential of xt = x - max <= 0: (A*(p + B)^2 + C) >> z. */
static inline int64_t i_exp(int32_t xt, int32_t A, int32_t B, int32_t C, int32_t log2) {
  const int64_t z = dpg_floordiv(-(int64_t)xt, log2), p = xt + z * log2;
  return shr_floor((int64_t)A * (p + B) * (p + B) + C, z);
}

/*
 * The 32-bit fast path of iSoftmax. For 8-bit inputs u = max - x is in [0, 255], so
 * z = floor(u / log2) is (u * m) >> 24 with m = ceil(2^24 / log2), exact for u < 2^8 and
 * log2 < 2^16 (Granlund-Montgomery: 24 >= 8 + ceil(log2(log2))), and u*m < 2^32.
 * It applies when every exponential, their row sum and e*(n-1) fit 31 bits, bounded from
 * the coefficients once per call. The division by the row's sum is a multiply by its
 * reciprocal 2^32/sum (one divide per row) and one correction step, exact for a < 2^32.
 */
typedef struct { int32_t A, B, C, log2; uint32_t m; } isoftmax32_t;

static inline int32_t i_exp32(const isoftmax32_t *k, uint32_t u) {
  const uint32_t z = (u * k->m) >> 24;
  const int32_t q = k->B - (int32_t)u + (int32_t)z * k->log2; /* p + B, p = -u + z*log2 */
  const int32_t v = k->A * q * q + k->C;
  return z >= 31 ? (v < 0 ? -1 : 0) : v >> z;
}


static int isoftmax32_fits(int32_t A, int32_t B, int32_t C, int32_t log2, int32_t n_levels, uint32_t L) {
  if (log2 <= 0 || log2 >= (1 << 16) || n_levels < 1 || L == 0) return 0;
  /* p + B ranges over [B - log2 + 1, B]: the square is largest at an end. */
  const int64_t lo = (int64_t)B - log2 + 1, hi = B;
  const int64_t sq = lo * lo > hi * hi ? lo * lo : hi * hi;
  const int64_t absA = A < 0 ? -(int64_t)A : A, absC = C < 0 ? -(int64_t)C : C;
  const int64_t e = absA * sq + absC; /* bounds |A*(p+B)^2 + C| and so every |e| */
  return e * (int64_t)(n_levels - 1) < ((int64_t)1 << 31) && e * (int64_t)L < ((int64_t)1 << 31);
}

/* Four packed bytes' lane-wise maximum (signed or unsigned lanes) and its reduction. */
#if defined(DPG_XPULP)
static inline uint32_t max4(uint32_t a, uint32_t b, int is_signed) {
  uint32_t r;
  if (is_signed) __asm__("cv.max.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  else __asm__("cv.maxu.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#else
static inline uint32_t max4(uint32_t a, uint32_t b, int is_signed) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i += 8) {
    const int32_t u = is_signed ? (int8_t)(a >> i) : (uint8_t)(a >> i), v = is_signed ? (int8_t)(b >> i) : (uint8_t)(b >> i);
    r |= (uint32_t)(uint8_t)(u > v ? u : v) << i;
  }
  return r;
}
#endif

/** The largest of L > 0 bytes, four at a time. */
static inline __attribute__((always_inline)) int32_t row_max8(const uint8_t *x, int is_signed, uint32_t L) {
  uint32_t j = 0;
  int32_t max = dpg_ld8(x, is_signed, 0);
  if (L >= 4) {
    uint32_t m4 = dpg_load4(x);
    for (j = 4; j + 8 <= L; j += 8) m4 = max4(max4(m4, dpg_load4(x + j), is_signed), dpg_load4(x + j + 4), is_signed);
    if (j + 4 <= L) { m4 = max4(m4, dpg_load4(x + j), is_signed); j += 4; }
    for (int i = 0; i < 32; i += 8) max = dpg_max(max, is_signed ? (int32_t)(int8_t)(m4 >> i) : (int32_t)(uint8_t)(m4 >> i));
  }
  for (; j < L; j++) max = dpg_max(max, dpg_ld8(x, is_signed, j));
  return max;
}

/*
 * iSoftmax through a table of its 256 possible exponentials: an 8-bit row has max - x in
 * [0, 255], so each element's exponential is one load instead of ~12 instructions, and the
 * output pass reads it again instead of recomputing it. Stored reversed, tab[255 - u] = e(u),
 * so that with t = tab + 255 - max the element x's exponential is t[x] (x signed or not).
 * Used when every entry is in [0, 2^15): int16 keeps the table at 512 bytes of the core's
 * stack, and non-negative exponentials make every row sum at least each of its terms, so
 * floor(e*top / sum) <= top needs no clip. Returns the largest entry + 1 (0: not usable).
 *
 * Built by segments of log2 values of u: u = z*log2 + p with 0 <= p < log2 gives
 * e(u) = (A*(B - p)^2 + C) >> z (the formula of i_exp32 with z counted instead of divided),
 * and a shift by z >= 31 of a 32-bit value is the same 0 or -1 as the reference's. So the
 * first segment (z = 0) holds v(p) = A*(B - p)^2 + C itself, checked to be in [0, 2^15), and
 * every later entry is a first-segment entry shifted right by z: one load, shift and store,
 * already in range, never above its source (the first segment has the largest entry). In the
 * first segment v steps by differences (q -> q - 1 subtracts A*(2q - 1), which itself drops by
 * 2A), in unsigned arithmetic: exact modulo 2^32, so exact where v fits int32 (every v here
 * does, isoftmax32_fits).
 */
static __attribute__((noinline)) uint32_t isoftmax_table(const isoftmax32_t *k, int16_t tab[256]) {
  const uint32_t A = (uint32_t)k->A, B = (uint32_t)k->B, C = (uint32_t)k->C, log2 = (uint32_t)k->log2;
  const int32_t n0 = dpg_min((int32_t)log2, 256);
  uint32_t v = A * B * B + C, d = A * (2 * B - 1);
  int32_t max = 0;
#pragma GCC unroll 2
  for (int32_t p = 0; p < n0; p++) {
    if (v >= (1u << 15)) return 0; /* e < 0 or e >= 2^15 */
    tab[255 - p] = (int16_t)v;
    max = dpg_max(max, (int32_t)v);
    v -= d;
    d -= 2 * A;
  }
  for (uint32_t u0 = log2, z = 1; u0 < 256; u0 += log2, z++) {
    const int32_t n = dpg_min((int32_t)log2, (int32_t)(256 - u0)), zc = dpg_min((int32_t)z, 31);
    int16_t *dst = tab + 255 - u0;
#pragma GCC unroll 4
    for (int32_t p = 0; p < n; p++) dst[-p] = (int16_t)(tab[255 - p] >> zc);
  }
  return (uint32_t)max + 1;
}

/*
 * floor(e*top / sum) for 0 <= e <= sum, three ways, chosen per row (top <= 255 for the first two):
 *
 *  SM_MUL24: (e*M) >> 24 with M = floor(top*2^24 / sum) + 1. M exceeds top*2^24/sum by some
 *    d in (0, 1], so e*M/2^24 exceeds e*top/sum by e*d/2^24 < 1/sum when e*sum < 2^24, too
 *    little to cross the next integer (e*top/sum is at most 1 - 1/sum above its floor); and
 *    e*M <= top*2^24 + e < 2^32. Row condition: emax*sum < 2^24 (emax: the table's largest).
 *  SM_MULHU: the same with 2^32, the product's high word (mulhu): emax*sum < 2^32 and
 *    sum > top (so M < 2^32); M from two 32-bit divisions (recip32), not a 64-bit libcall.
 *  SM_CORRECT: q = (e*R) >> 15 with R = floor(top*2^15 / sum) is exact or one short, since
 *    e*R/2^15 > e*top/sum - e/2^15 and e < 2^15; one remainder test corrects it. e <= sum
 *    keeps e*R <= top*2^15 below 2^32 (top < 2^17).
 */
enum { SM_MUL24, SM_MULHU, SM_CORRECT };

static inline __attribute__((always_inline)) uint32_t sm_div(int mode, uint32_t e, uint32_t top, uint32_t sum, uint32_t M) {
  if (mode == SM_MUL24) return (e * M) >> 24;
  if (mode == SM_MULHU) return (uint32_t)(((uint64_t)e * M) >> 32);
  const uint32_t q = (e * M) >> 15;
  return q + (e * top - q * sum >= sum);
}

/** floor(top*2^32 / sum) + 1 for top < sum < 2^24, top <= 255: 2^32 = Q*sum + R first. */
static uint32_t recip32(uint32_t top, uint32_t sum) {
  uint32_t Q = 0xffffffffu / sum, R = 0xffffffffu - Q * sum + 1; /* 2^32 = Q*sum + R, 0 < R <= sum */
  if (R == sum) { Q++; R = 0; }
  return top * Q + top * R / sum + 1; /* top*Q <= top*2^32/sum < 2^32; top*R < 2^32 */
}

/*
 * Rows up to SM_BUF_L long keep their exponentials in a stack buffer from the sum pass to the
 * output pass: one halfword load each there, instead of a byte load, a shift and a table load.
 */
#define SM_BUF_L 64

/** Element k's exponential: from the buffer eb, or looked up again. */
static inline __attribute__((always_inline)) uint32_t sm_e(int buffered, const int16_t *eb, const uint8_t *xr, int is_signed,
                                                           const int16_t *t, uint32_t k) {
  return (uint32_t)(buffered ? eb[k] : t[dpg_ld8(xr, is_signed, k)]);
}

/** One row's outputs: four elements per iteration (the loads of one hide the others' stalls). */
static inline __attribute__((always_inline)) void isoftmax_out(int mode, int buffered, const int16_t *eb, const uint8_t *xr, int is_signed,
                                                               const int16_t *t, uint8_t *yr, uint32_t L, uint32_t top, uint32_t sum,
                                                               uint32_t M) {
  const uint32_t L4 = L & ~3u;
  uint32_t j;
#pragma GCC unroll 2
  for (j = 0; j < L4; j += 4) {
    const uint32_t e0 = sm_e(buffered, eb, xr, is_signed, t, j), e1 = sm_e(buffered, eb, xr, is_signed, t, j + 1);
    const uint32_t e2 = sm_e(buffered, eb, xr, is_signed, t, j + 2), e3 = sm_e(buffered, eb, xr, is_signed, t, j + 3);
    yr[j] = (uint8_t)sm_div(mode, e0, top, sum, M);
    yr[j + 1] = (uint8_t)sm_div(mode, e1, top, sum, M);
    yr[j + 2] = (uint8_t)sm_div(mode, e2, top, sum, M);
    yr[j + 3] = (uint8_t)sm_div(mode, e3, top, sum, M);
  }
  for (; j < L; j++) yr[j] = (uint8_t)sm_div(mode, sm_e(buffered, eb, xr, is_signed, t, j), top, sum, M);
}

/** The row's exponentials summed (and kept in eb when buffered). */
static inline __attribute__((always_inline)) uint32_t isoftmax_sum(int buffered, int16_t *eb, const uint8_t *xr, int is_signed,
                                                                   const int16_t *t, uint32_t L) {
  const uint32_t L4 = L & ~3u;
  uint32_t sum = 0, j;
#pragma GCC unroll 2
  for (j = 0; j < L4; j += 4) {
    const int32_t e0 = t[dpg_ld8(xr, is_signed, j)], e1 = t[dpg_ld8(xr, is_signed, j + 1)];
    const int32_t e2 = t[dpg_ld8(xr, is_signed, j + 2)], e3 = t[dpg_ld8(xr, is_signed, j + 3)];
    if (buffered) { eb[j] = (int16_t)e0; eb[j + 1] = (int16_t)e1; eb[j + 2] = (int16_t)e2; eb[j + 3] = (int16_t)e3; }
    sum += (uint32_t)(e0 + e1 + e2 + e3);
  }
  for (; j < L; j++) {
    const int32_t e = t[dpg_ld8(xr, is_signed, j)];
    if (buffered) eb[j] = (int16_t)e;
    sum += (uint32_t)e;
  }
  return sum;
}

/* emax1 = the table's largest entry + 1 (> 0); buffered: eb holds L <= SM_BUF_L exponentials. */
static inline __attribute__((always_inline)) void isoftmax_table_rows(int buffered, int16_t *eb, const uint8_t *x, int is_signed, uint8_t *y,
                                                                       uint32_t r0, uint32_t r1, uint32_t L, const int16_t *tab,
                                                                       uint32_t top, uint32_t emax1) {
  /* emax*sum < 2^24 (2^32) <=> sum <= floor((2^24 - 1) / emax) (and 2^32 - 1); emax 0: sum 0 */
  const uint32_t emax = emax1 - 1, small = top <= 255 && emax > 0;
  const uint32_t lim24 = small ? 0xffffffu / emax : 0, lim32 = small ? 0xffffffffu / emax : 0;
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    uint8_t *yr = y + r * L;
    const int16_t *t = tab + 255 - row_max8(xr, is_signed, L);
    const uint32_t sum = isoftmax_sum(buffered, eb, xr, is_signed, t, L);
    if (sum == 0) { /* every exponential 0: the reference's output is 0 */
      for (uint32_t j = 0; j < L; j++) yr[j] = 0;
    } else if (sum <= lim24) {
      isoftmax_out(SM_MUL24, buffered, eb, xr, is_signed, t, yr, L, top, sum, (top << 24) / sum + 1);
    } else if (sum <= lim32 && sum > top && sum < (1u << 24)) {
      isoftmax_out(SM_MULHU, buffered, eb, xr, is_signed, t, yr, L, top, sum, recip32(top, sum));
    } else {
      isoftmax_out(SM_CORRECT, buffered, eb, xr, is_signed, t, yr, L, top, sum, (top << 15) / sum);
    }
  }
}

/* The table path's loops with constant flags (each signedness, buffered or not). */
static void isoftmax_table_any(const uint8_t *x, int is_signed, uint8_t *y, uint32_t r0, uint32_t r1, uint32_t L,
                               const int16_t *tab, uint32_t top, uint32_t emax1) {
  int16_t eb[SM_BUF_L];
  if (L <= SM_BUF_L) {
    if (is_signed) isoftmax_table_rows(1, eb, x, 1, y, r0, r1, L, tab, top, emax1);
    else isoftmax_table_rows(1, eb, x, 0, y, r0, r1, L, tab, top, emax1);
  } else {
    if (is_signed) isoftmax_table_rows(0, eb, x, 1, y, r0, r1, L, tab, top, emax1);
    else isoftmax_table_rows(0, eb, x, 0, y, r0, r1, L, tab, top, emax1);
  }
}

/* iSoftmax: y = clip(floor(e*(n-1) / sum(e)), 0, n-1) per row; uint8 output. */
void dpg_isoftmax(const uint8_t *x, int x_signed, uint8_t *y, uint32_t rows, uint32_t L,
                  int32_t coeff_a, int32_t coeff_b, int32_t coeff_c, int32_t log2, int32_t n_levels) {
  uint32_t r0, r1;
  dpg_chunk(rows, &r0, &r1);
  if (r0 >= r1) return;
  if (isoftmax32_fits(coeff_a, coeff_b, coeff_c, log2, n_levels, L)) {
    const isoftmax32_t k = {coeff_a, coeff_b, coeff_c, log2, (uint32_t)(((1u << 24) + (uint32_t)log2 - 1) / (uint32_t)log2)};
    const int32_t top = n_levels - 1;
    int16_t tab[256];
    uint32_t emax1;
    if (top < (1 << 17) && (emax1 = isoftmax_table(&k, tab)) != 0) {
      isoftmax_table_any(x, x_signed, y, r0, r1, L, tab, (uint32_t)top, emax1);
      return;
    }
    for (uint32_t r = r0; r < r1; r++) {
      const uint8_t *xr = x + r * L;
      uint8_t *yr = y + r * L;
      int32_t max = INT32_MIN, sum = 0, neg = 0;
      for (uint32_t j = 0; j < L; j++) max = dpg_max(max, dpg_ld8(xr, x_signed, j));
      for (uint32_t j = 0; j < L; j++) {
        const int32_t e = i_exp32(&k, (uint32_t)(max - dpg_ld8(xr, x_signed, j)));
        sum += e;
        neg |= e;
      }
      if (sum <= 0 || neg < 0) { /* negative exponentials (C < 0): floor division with signs */
        for (uint32_t j = 0; j < L; j++) {
          const int32_t e = i_exp32(&k, (uint32_t)(max - dpg_ld8(xr, x_signed, j)));
          yr[j] = (uint8_t)dpg_clamp(sum > 0 ? dpg_floordiv((int64_t)e * top, sum) : 0, 0, top);
        }
        continue;
      }
      const uint32_t recip = 0xffffffffu / (uint32_t)sum;
      for (uint32_t j = 0; j < L; j++) {
        const uint32_t e = (uint32_t)i_exp32(&k, (uint32_t)(max - dpg_ld8(xr, x_signed, j)));
        yr[j] = (uint8_t)dpg_min((int32_t)div_by_recip(e * (uint32_t)top, (uint32_t)sum, recip), top);
      }
    }
    return;
  }
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    int32_t max = INT32_MIN;
    for (uint32_t j = 0; j < L; j++) max = dpg_max(max, dpg_ld8(xr, x_signed, j));
    int64_t sum = 0;
    for (uint32_t j = 0; j < L; j++) sum += i_exp(dpg_ld8(xr, x_signed, j) - max, coeff_a, coeff_b, coeff_c, log2);
    for (uint32_t j = 0; j < L; j++) {
      const int64_t e = i_exp(dpg_ld8(xr, x_signed, j) - max, coeff_a, coeff_b, coeff_c, log2);
      y[r * L + j] = (uint8_t)dpg_clamp(sum > 0 ? dpg_floordiv(e * (n_levels - 1), sum) : 0, 0, n_levels - 1);
    }
  }
}

/** ITA's exponent: exp(max - x) ~ 2^-shift with shift = floor((max - x)/32 + 1/2). */
static inline int64_t ita_shift(int32_t max, int32_t v) { return dpg_floordiv((int64_t)max - v + 16, 32); }

/*
 * ITAMax (group_width = L): S = sum(256 >> shift_j), y_j = floor((n-1)*256 / S) >> shift_j.
 * ITAPartialMax: the running maximum grows group by group (the sum is shifted down when it
 * does) and the output is scaled to n/2 - 1.
 */
void dpg_itamax(const uint8_t *x, int x_signed, uint8_t *y, uint32_t rows, uint32_t L, uint32_t group_width,
                int32_t n_levels, int partial) {
  const int64_t scale = partial ? n_levels / 2 - 1 : n_levels - 1;
  uint32_t r0, r1;
  dpg_chunk(rows, &r0, &r1);
  for (uint32_t r = r0; r < r1; r++) {
    const uint8_t *xr = x + r * L;
    int32_t max = INT32_MIN;
    int64_t S = 0;
    for (uint32_t g = 0; g < L; g += group_width) {
      int32_t gmax = INT32_MIN;
      for (uint32_t j = g; j < g + group_width; j++) gmax = dpg_max(gmax, dpg_ld8(xr, x_signed, j));
      if (gmax > max) {
        if (max != INT32_MIN) S = shr_floor(S, ita_shift(gmax, max));
        max = gmax;
      }
      for (uint32_t j = g; j < g + group_width; j++) S += shr_floor(256, ita_shift(max, dpg_ld8(xr, x_signed, j)));
    }
    const int64_t inv = S > 0 ? dpg_floordiv(scale * 256, S) : 0;
    for (uint32_t j = 0; j < L; j++) y[r * L + j] = (uint8_t)shr_floor(inv, ita_shift(max, dpg_ld8(xr, x_signed, j)));
  }
}
