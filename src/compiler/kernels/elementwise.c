/*
 * elementwise.c: arithmetic one element at a time (binary ops with numpy broadcasting through
 * a walk, RequantShift, RequantizedAdd, activations, integer division). The cores split the
 * output elements; intermediate results are 64-bit wherever the reference can exceed int32.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

/** Requantizers copied field by field (a struct assignment would call the byte-wise memcpy). */
static inline void rq_copy(dpg_rq_t *d, const dpg_rq_t *s) {
  d->mul = s->mul;
  d->add = s->add;
  d->shift = s->shift;
  d->lo = s->lo;
  d->hi = s->hi;
}
static inline void rq_copy3(dpg_rq_t d[3], const dpg_rq_t s[3]) {
  for (int k = 0; k < 3; k++) rq_copy(&d[k], &s[k]);
}

/** |v| <= bound for every v an 8-bit (or wider) element of type t can hold. */
static inline int64_t type_bound(dpg_type_t t) {
  return t == DPG_S8 ? 128 : t == DPG_U8 ? 255 : t == DPG_S16 ? 32768 : t == DPG_U16 ? 65535 : 2147483648LL;
}

/** The largest |v| for v in [lo, hi]. */
static inline int64_t abs_bound(int32_t lo, int32_t hi) {
  const int64_t l = lo < 0 ? -(int64_t)lo : lo, h = hi < 0 ? -(int64_t)hi : hi;
  return l > h ? l : h;
}

/** True when clip((v*mul + add) >> shift) is exact in 32-bit arithmetic for every |v| <= bound. */
static inline int rq_fits32(const dpg_rq_t *r, int64_t bound) {
  const int64_t m = r->mul < 0 ? -(int64_t)r->mul : r->mul, a = r->add < 0 ? -(int64_t)r->add : r->add;
  return r->shift >= 0 && r->shift <= 31 && r->lo <= r->hi && bound * m + a < ((int64_t)1 << 31);
}

/*
 * dpg_binary on 8-bit operands with small offsets, where every result fits 32 bits: runs along
 * the innermost dim (any strides, 0 for a broadcast operand), the cursor moved once per run.
 */
/*
 * One contiguous run of dpg_binary on 8-bit operands. Signedness costs no branch: an operand's
 * value is (byte ^ x) + c, with x = 0x80 and c = off - 128 for int8 (the flipped top bit minus
 * 128 sign-extends) and x = 0, c = off for uint8. Inlined per operation and output width; four
 * elements per iteration, all loaded before the first store (which may alias the inputs).
 */
static inline __attribute__((always_inline)) void binary_contig8(dpg_binop_t op, uint32_t ysize, int ss, const uint8_t *a, uint32_t xa,
                                                                 int32_t ca, const uint8_t *b, uint32_t xb, int32_t cb, void *y,
                                                                 uint32_t n) {
#define BIN_OP(u, v) (op == DPG_ADD ? (u) + (v) : op == DPG_SUB ? (u) - (v) : (u) * (v))
#define BIN_ST(k, r) (ysize == 1 ? (void)(((uint8_t *)y)[k] = (uint8_t)(r)) : ysize == 2 ? (void)(((uint16_t *)y)[k] = (uint16_t)(r)) \
                                                                          : (void)(((uint32_t *)y)[k] = (uint32_t)(r)))
  /* ss (both int8, the common case): sign-extending loads, ca and cb are the plain offsets */
#define BIN_A(k) (ss ? (int32_t)(int8_t)a[k] + ca : (int32_t)(a[k] ^ xa) + ca)
#define BIN_B(k) (ss ? (int32_t)(int8_t)b[k] + cb : (int32_t)(b[k] ^ xb) + cb)
  uint32_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const int32_t u0 = BIN_A(k), u1 = BIN_A(k + 1), u2 = BIN_A(k + 2), u3 = BIN_A(k + 3);
    const int32_t v0 = BIN_B(k), v1 = BIN_B(k + 1), v2 = BIN_B(k + 2), v3 = BIN_B(k + 3);
    BIN_ST(k, BIN_OP(u0, v0));
    BIN_ST(k + 1, BIN_OP(u1, v1));
    BIN_ST(k + 2, BIN_OP(u2, v2));
    BIN_ST(k + 3, BIN_OP(u3, v3));
  }
  for (; k < n; k++) BIN_ST(k, BIN_OP(BIN_A(k), BIN_B(k)));
#undef BIN_OP
#undef BIN_ST
#undef BIN_A
#undef BIN_B
}

/** binary_contig8 with the operation and the output width as constants. */
static void binary_contig8_any(dpg_binop_t op, uint32_t ysize, int ss, const uint8_t *a, uint32_t xa, int32_t ca,
                               const uint8_t *b, uint32_t xb, int32_t cb, void *y, uint32_t n) {
#define BIN_CASE(OP, SS)                                                                            \
  if (ysize == 1) binary_contig8(OP, 1, SS, a, xa, ca, b, xb, cb, y, n);                            \
  else if (ysize == 2) binary_contig8(OP, 2, SS, a, xa, ca, b, xb, cb, y, n);                       \
  else binary_contig8(OP, 4, SS, a, xa, ca, b, xb, cb, y, n)
  if (ss) {
    if (op == DPG_ADD) { BIN_CASE(DPG_ADD, 1); }
    else if (op == DPG_SUB) { BIN_CASE(DPG_SUB, 1); }
    else { BIN_CASE(DPG_MUL, 1); }
  } else {
    if (op == DPG_ADD) { BIN_CASE(DPG_ADD, 0); }
    else if (op == DPG_SUB) { BIN_CASE(DPG_SUB, 0); }
    else { BIN_CASE(DPG_MUL, 0); }
  }
#undef BIN_CASE
}

/*
 * dpg_binary on 8-bit operands with small offsets, where every result fits 32 bits: runs along
 * the innermost dim (any strides, 0 for a broadcast operand), the cursor moved once per run.
 */
static void binary_runs8(dpg_binop_t op, const void *a, int as, int32_t a_off, const void *b, int bs, int32_t b_off,
                         void *y, dpg_type_t yt, const dpg_walk_t *walk_l2, uint32_t lo, uint32_t hi) {
  dpg_walk_t w; /* an L1 copy of the L2 constant */
  dpg_walk_copy(&w, walk_l2);
  const dpg_walk_t *walk = &w;
  const uint32_t last = walk->rank - 1;
  const int32_t sy = walk->stride[0][last], sa = walk->stride[1][last], sb = walk->stride[2][last];
  const uint32_t ysize = dpg_size(yt), xa = as ? 0x80 : 0, xb = bs ? 0x80 : 0;
  const int32_t ca = a_off - (as ? 128 : 0), cb = b_off - (bs ? 128 : 0);
  dpg_cursor_t c;
  for (uint32_t i = lo; i < hi;) {
    const uint32_t n = dpg_run_at(&c, walk, i, hi);
    int32_t oy = c.off[0], oa = c.off[1], ob = c.off[2];
    if (sy == 1 && sa == 1 && sb == 1) {
      const int ss = as && bs;
      binary_contig8_any(op, ysize, ss, (const uint8_t *)a + oa, xa, ss ? a_off : ca, (const uint8_t *)b + ob, xb, ss ? b_off : cb,
                         (uint8_t *)y + oy * (int32_t)ysize, n);
    } else {
      for (uint32_t k = 0; k < n; k++, oy += sy, oa += sa, ob += sb) {
        const int32_t u = dpg_ld8(a, as, (uint32_t)oa) + a_off, v = dpg_ld8(b, bs, (uint32_t)ob) + b_off;
        dpg_st(y, yt, (uint32_t)oy, op == DPG_ADD ? u + v : op == DPG_SUB ? u - v : u * v);
      }
    }
    i += n;
  }
}

/* y = (a + a_off) op (b + b_off); the walk's strides: [0] y, [1] a, [2] b. */
void dpg_binary(dpg_binop_t op, const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt,
                int32_t b_off, void *y, dpg_type_t yt, const dpg_walk_t *walk) {
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
  /* |u|, |v| <= 255 + 2^14: products and sums stay below 2^31 */
  if (walk->rank > 0 && dpg_size(at) == 1 && dpg_size(bt) == 1 && abs_bound(a_off, b_off) <= (1 << 14)) {
    binary_runs8(op, a, at == DPG_S8, a_off, b, bt == DPG_S8, b_off, y, yt, walk, lo, hi);
    return;
  }
  dpg_cursor_t c;
  dpg_cursor_at(&c, walk, lo);
  for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&c, walk)) {
    const int64_t u = (int64_t)dpg_ld(a, at, (uint32_t)c.off[1]) + a_off;
    const int64_t v = (int64_t)dpg_ld(b, bt, (uint32_t)c.off[2]) + b_off;
    const int64_t r = op == DPG_ADD ? u + v : op == DPG_SUB ? u - v : u * v;
    dpg_st(y, yt, (uint32_t)c.off[0], (int32_t)r);
  }
}

static inline int32_t rq_part(int32_t v, const dpg_rq_t *r) {
  return dpg_requant(v, r->mul, r->add, r->shift, r->lo, r->hi);
}

/** clip(v, -hi - 1, hi) for hi >= 0: one cv.clipr instead of a max and a min. */
#if defined(DPG_XPULP)
static inline int32_t clip_sym(int32_t v, int32_t hi) {
  int32_t r;
  __asm__("cv.clipr %0, %1, %2" : "=r"(r) : "r"(v), "r"(hi));
  return r;
}
#else
static inline int32_t clip_sym(int32_t v, int32_t hi) { return v < -hi - 1 ? -hi - 1 : v > hi ? hi : v; }
#endif

/*
 * One contiguous run of RequantizedAdd in 32 bits. The parameters are copied to locals first:
 * the byte stores to y may alias anything, so a loop reading them through rq would reload all
 * fifteen after every store. Inlined with constant signedness flags: one load instruction each.
 */
static inline __attribute__((always_inline)) int32_t rq_clip(int32_t v, int32_t lo, int32_t hi, int sym) {
  return sym ? clip_sym(v, hi) : dpg_clip32(v, lo, hi);
}

static inline __attribute__((always_inline)) void rq_add_run8(const uint8_t *a, int as, const uint8_t *b, int bs, uint8_t *y,
                                                                uint32_t n, const dpg_rq_t rq[3], int sym) {
  const int32_t m0 = rq[0].mul, c0 = rq[0].add, s0 = rq[0].shift, lo0 = rq[0].lo, hi0 = rq[0].hi;
  const int32_t m1 = rq[1].mul, c1 = rq[1].add, s1 = rq[1].shift, lo1 = rq[1].lo, hi1 = rq[1].hi;
  const int32_t m2 = rq[2].mul, c2 = rq[2].add, s2 = rq[2].shift, lo2 = rq[2].lo, hi2 = rq[2].hi;
#define RQ_ADD(x, w)                                                                                \
  rq_clip(dpg_add_sra((rq_clip(dpg_add_sra((x) * m0, c0, s0), lo0, hi0, sym) + rq_clip(dpg_add_sra((w) * m1, c1, s1), lo1, hi1, sym)) * m2, c2, s2), lo2, hi2, sym)
  /* Two elements per iteration, both loaded before either is stored (the compiler may not move a
     load above a byte store, which could alias it): the loop branch is paid half as often and the
     loads' use stalls hide. Unrolled once more (four per iteration): the path of small tiles. */
  uint32_t k = 0;
#pragma GCC unroll 2
  for (; k + 2 <= n; k += 2) {
    const int32_t x0 = dpg_ld8(a, as, k), x1 = dpg_ld8(a, as, k + 1), w0 = dpg_ld8(b, bs, k), w1 = dpg_ld8(b, bs, k + 1);
    y[k] = (uint8_t)RQ_ADD(x0, w0);
    y[k + 1] = (uint8_t)RQ_ADD(x1, w1);
  }
  if (k < n) y[k] = (uint8_t)RQ_ADD(dpg_ld8(a, as, k), dpg_ld8(b, bs, k));
#undef RQ_ADD
}

/*
 * RequantizedAdd on 8-bit tensors whose walk is contiguous in its last dim for all three: runs
 * of that dim in a tight 32-bit loop (the caller proved every requantizer exact in 32 bits),
 * the cursor moved once per run.
 */
static inline __attribute__((always_inline)) void rq_add_runs8_as(const uint8_t *a, int as, const uint8_t *b, int bs, uint8_t *y,
                                                                    const dpg_walk_t *walk, const dpg_rq_t rq[3], uint32_t lo, uint32_t hi,
                                                                    int sym) {
  dpg_cursor_t c;
  for (uint32_t i = lo; i < hi;) {
    const uint32_t n = dpg_run_at(&c, walk, i, hi);
    rq_add_run8(a + c.off[1], as, b + c.off[2], bs, y + c.off[0], n, rq, sym);
    i += n;
  }
}

/*
 * RequantizedAdd through tables of the input requantizers: an 8-bit input has 256 values, so
 * RQ1 and RQ2 become one load each (ta[byte], tb[byte], indexed by the raw byte whatever the
 * signedness); only the output requantizer is computed. Used when both requantizers' ranges fit
 * int8 and the core has enough elements to pay for the 512 table entries. The tables (512 bytes)
 * take half of a worker's 1 KiB stack: this frame holds them, the callers keep theirs small.
 */
#define RQ_ADD_TABLE_MIN 1024

/* Bytes 1 and 2 of a word (zero-extended), and a word with byte k replaced by v's low byte:
   one instruction each with Xpulp (bytes 0 and 3 take one plain instruction anyway). */
#if defined(DPG_XPULP)
static inline uint32_t byte1(uint32_t w) { uint32_t r; __asm__("cv.extractu.b %0, %1, 1" : "=r"(r) : "r"(w)); return r; }
static inline uint32_t byte2(uint32_t w) { uint32_t r; __asm__("cv.extractu.b %0, %1, 2" : "=r"(r) : "r"(w)); return r; }
static inline uint32_t set_byte1(uint32_t w, int32_t v) { __asm__("cv.insert.b %0, %1, 1" : "+r"(w) : "r"(v)); return w; }
static inline uint32_t set_byte2(uint32_t w, int32_t v) { __asm__("cv.insert.b %0, %1, 2" : "+r"(w) : "r"(v)); return w; }
static inline uint32_t set_byte3(uint32_t w, int32_t v) { __asm__("cv.insert.b %0, %1, 3" : "+r"(w) : "r"(v)); return w; }
#else
static inline uint32_t byte1(uint32_t w) { return (w >> 8) & 0xff; }
static inline uint32_t byte2(uint32_t w) { return (w >> 16) & 0xff; }
static inline uint32_t set_byte1(uint32_t w, int32_t v) { return (w & ~0xff00u) | ((uint32_t)v & 0xff) << 8; }
static inline uint32_t set_byte2(uint32_t w, int32_t v) { return (w & ~0xff0000u) | ((uint32_t)v & 0xff) << 16; }
static inline uint32_t set_byte3(uint32_t w, int32_t v) { return (w & ~0xff000000u) | ((uint32_t)v & 0xff) << 24; }
#endif

/** Stores a word at any address (the cores split misaligned words themselves; C would store bytes). */
#if defined(DPG_XPULP)
static inline void store4(void *p, uint32_t v) { __asm__ volatile("sw %0, 0(%1)" : : "r"(v), "r"(p) : "memory"); }
#else
static inline void store4(void *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
#endif

static inline __attribute__((always_inline)) void rq_add_tab_run(const uint8_t *a, const uint8_t *b, uint8_t *y, uint32_t n,
                                                                   const int8_t *ta, const int8_t *tb, int32_t m2, int32_t c2,
                                                                   int32_t s2, int32_t lo2, int32_t hi2, int sym) {
  /* Four elements per iteration: one word load per input, one word store (misaligned words cost
     a cycle, still fewer than four byte accesses). */
#define RQ_OUT(s) rq_clip(dpg_add_sra((s) * m2, c2, s2), lo2, hi2, sym)
  const uint8_t *const end4 = a + (n & ~3u), *const end = a + n;
  while (a != end4) { /* pointer steps */
    const uint32_t wa = dpg_load4(a), wb = dpg_load4(b);
    a += 4;
    b += 4;
    const int32_t s0 = ta[wa & 0xff] + tb[wb & 0xff], s1 = ta[byte1(wa)] + tb[byte1(wb)];
    const int32_t s2_ = ta[byte2(wa)] + tb[byte2(wb)], s3 = ta[wa >> 24] + tb[wb >> 24];
    uint32_t w = (uint32_t)RQ_OUT(s0) & 0xff;
    w = set_byte1(w, RQ_OUT(s1));
    w = set_byte2(w, RQ_OUT(s2_));
    store4(y, set_byte3(w, RQ_OUT(s3)));
    y += 4;
  }
  while (a != end) *y++ = (uint8_t)RQ_OUT(ta[*a++] + tb[*b++]);
#undef RQ_OUT
}

/** t[byte] = RQ(the byte's value, signed or not), over the 256 values in order. */
static void rq_table(int8_t t[256], int is_signed, const dpg_rq_t *rq) {
  const int32_t s = rq->shift, lo = rq->lo, hi = rq->hi;
  const uint32_t m = (uint32_t)rq->mul, c = (uint32_t)rq->add;
  /* v*m + c stepped by m in unsigned arithmetic (the step past the last entry may leave int32);
     bytes 0..127 hold v = 0..127 either way, bytes 128..255 hold v - 256 when signed */
  uint32_t acc = c;
#pragma GCC unroll 4
  for (uint32_t b = 0; b < 128; b++, acc += m) t[b] = (int8_t)dpg_clip32((int32_t)acc >> s, lo, hi);
  acc = (is_signed ? -128u : 128u) * m + c;
#pragma GCC unroll 4
  for (uint32_t b = 128; b < 256; b++, acc += m) t[b] = (int8_t)dpg_clip32((int32_t)acc >> s, lo, hi);
}

static __attribute__((noinline)) void rq_add_table(const uint8_t *a, int as, const uint8_t *b, int bs, uint8_t *y,
                                                   const dpg_walk_t *walk_l2, const dpg_rq_t rq_l2[3], uint32_t lo, uint32_t hi) {
  dpg_walk_t walk;
  dpg_walk_copy(&walk, walk_l2);
  dpg_rq_t rq[3];
  rq_copy3(rq, rq_l2);
  int8_t ta[256], tb[256];
  rq_table(ta, as, &rq[0]);
  rq_table(tb, bs, &rq[1]);
  const int32_t m2 = rq[2].mul, c2 = rq[2].add, s2 = rq[2].shift, lo2 = rq[2].lo, hi2 = rq[2].hi;
  const int sym = hi2 >= 0 && lo2 == -hi2 - 1;
  dpg_cursor_t c;
  for (uint32_t i = lo; i < hi;) {
    const uint32_t n = dpg_run_at(&c, &walk, i, hi);
    if (sym) rq_add_tab_run(a + c.off[1], b + c.off[2], y + c.off[0], n, ta, tb, m2, c2, s2, lo2, hi2, 1);
    else rq_add_tab_run(a + c.off[1], b + c.off[2], y + c.off[0], n, ta, tb, m2, c2, s2, lo2, hi2, 0);
    i += n;
  }
}

/*
 * RequantizedAdd of two int8 tensors whose input requantizers are the identity (mul 1, add 0,
 * shift 0, no clipping of int8 values), common in integerized residual adds: y = RQout(a + b),
 * four elements per iteration, all loads before the stores.
 */
static inline __attribute__((always_inline)) void rq_add_identity_run(const int8_t *a, const int8_t *b, uint8_t *y, uint32_t n,
                                                                        const dpg_rq_t *r, int sym) {
  const int32_t m = r->mul, c = r->add, s = r->shift, lo = r->lo, hi = r->hi;
#define RQ_OUT(v) (uint8_t)rq_clip(dpg_add_sra((v) * m, c, s), lo, hi, sym)
  const int8_t *const end4 = a + (n & ~3u), *const end = a + n;
  while (a != end4) { /* pointer steps: the loads and stores post-increment */
    const int32_t s0 = a[0] + b[0], s1 = a[1] + b[1], s2 = a[2] + b[2], s3 = a[3] + b[3];
    a += 4;
    b += 4;
    y[0] = RQ_OUT(s0);
    y[1] = RQ_OUT(s1);
    y[2] = RQ_OUT(s2);
    y[3] = RQ_OUT(s3);
    y += 4;
  }
  while (a != end) *y++ = RQ_OUT(*a++ + *b++);
#undef RQ_OUT
}

static __attribute__((noinline)) void rq_add_identity(const int8_t *a, const int8_t *b, uint8_t *y, const dpg_walk_t *walk_l2,
                                                      const dpg_rq_t *rq_out_l2, uint32_t lo, uint32_t hi) {
  dpg_walk_t walk;
  dpg_walk_copy(&walk, walk_l2);
  dpg_rq_t r;
  rq_copy(&r, rq_out_l2);
  const int sym = r.hi >= 0 && r.lo == -r.hi - 1;
  dpg_cursor_t c;
  for (uint32_t i = lo; i < hi;) {
    const uint32_t n = dpg_run_at(&c, &walk, i, hi);
    if (sym) rq_add_identity_run(a + c.off[1], b + c.off[2], y + c.off[0], n, &r, 1);
    else rq_add_identity_run(a + c.off[1], b + c.off[2], y + c.off[0], n, &r, 0);
    i += n;
  }
}

/** True when RQ(v) = v for every int8 v. */
static inline int rq_is_identity8(const dpg_rq_t *r) { return r->mul == 1 && r->add == 0 && r->shift == 0 && r->lo <= -128 && r->hi >= 127; }

static __attribute__((noinline)) void rq_add_runs8(const uint8_t *a, int as, const uint8_t *b, int bs, uint8_t *y,
                                                   const dpg_walk_t *walk_l2, const dpg_rq_t rq_l2[3], uint32_t lo, uint32_t hi) {
  dpg_walk_t w;
  dpg_walk_copy(&w, walk_l2);
  const dpg_walk_t *walk = &w;
  dpg_rq_t rq[3];
  rq_copy3(rq, rq_l2);
  /* every range [-hi-1, hi] (int8 requantizers): one cv.clipr per clip */
  int sym = 1;
  for (int r = 0; r < 3; r++) sym &= rq[r].hi >= 0 && rq[r].lo == -rq[r].hi - 1;
  if (sym) {
    if (as && bs) rq_add_runs8_as(a, 1, b, 1, y, walk, rq, lo, hi, 1);
    else if (as) rq_add_runs8_as(a, 1, b, 0, y, walk, rq, lo, hi, 1);
    else if (bs) rq_add_runs8_as(a, 0, b, 1, y, walk, rq, lo, hi, 1);
    else rq_add_runs8_as(a, 0, b, 0, y, walk, rq, lo, hi, 1);
  } else {
    if (as && bs) rq_add_runs8_as(a, 1, b, 1, y, walk, rq, lo, hi, 0);
    else if (as) rq_add_runs8_as(a, 1, b, 0, y, walk, rq, lo, hi, 0);
    else if (bs) rq_add_runs8_as(a, 0, b, 1, y, walk, rq, lo, hi, 0);
    else rq_add_runs8_as(a, 0, b, 0, y, walk, rq, lo, hi, 0);
  }
}

static __attribute__((noinline)) void rq_add_general(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y,
                                                     dpg_type_t yt, const dpg_walk_t *walk_l2, const dpg_rq_t rq_l2[3],
                                                     uint32_t lo, uint32_t hi) {
  dpg_walk_t w;
  dpg_walk_copy(&w, walk_l2);
  const dpg_walk_t *walk = &w;
  dpg_rq_t rq[3];
  rq_copy3(rq, rq_l2);
  dpg_cursor_t c;
  dpg_cursor_at(&c, walk, lo);
  for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&c, walk)) {
    const int32_t s = rq_part(dpg_ld(a, at, (uint32_t)c.off[1]), &rq[0]) + rq_part(dpg_ld(b, bt, (uint32_t)c.off[2]), &rq[1]);
    dpg_st(y, yt, (uint32_t)c.off[0], rq_part(s, &rq[2]));
  }
}

/* y = RQout(RQ1(a) + RQ2(b)), each RQ(v) = clip((v*mul + add) >> shift), scalar parameters. */
void dpg_rq_add(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y, dpg_type_t yt,
                const dpg_walk_t *walk, const dpg_rq_t rq_l2[3]) {
  /* The walk and the requantizers are constants in L2 (12-cycle loads on Siracusa), reread after
     every store to y (which may alias them): each path works on copies on the stack, in L1, in
     its own frame (the table path's frame is large). */
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
  const dpg_rq_t *rq = rq_l2; /* a few reads here; the loops read copies */
  const int last = (int)walk->rank - 1;
  const int64_t sum_bound = abs_bound(rq[0].lo, rq[0].hi) + abs_bound(rq[1].lo, rq[1].hi);
  if (last >= 0 && dpg_size(at) == 1 && dpg_size(bt) == 1 && dpg_size(yt) == 1 &&
      walk->stride[0][last] == 1 && walk->stride[1][last] == 1 && walk->stride[2][last] == 1 &&
      rq_fits32(&rq[0], type_bound(at)) && rq_fits32(&rq[1], type_bound(bt)) && rq_fits32(&rq[2], sum_bound)) {
    const int int8_parts = rq[0].lo >= -128 && rq[0].hi <= 127 && rq[1].lo >= -128 && rq[1].hi <= 127;
    if (at == DPG_S8 && bt == DPG_S8 && rq_is_identity8(&rq[0]) && rq_is_identity8(&rq[1]))
      rq_add_identity((const int8_t *)a, (const int8_t *)b, (uint8_t *)y, walk, &rq[2], lo, hi);
    else if (int8_parts && hi - lo >= RQ_ADD_TABLE_MIN)
      rq_add_table((const uint8_t *)a, at == DPG_S8, (const uint8_t *)b, bt == DPG_S8, (uint8_t *)y, walk, rq, lo, hi);
    else
      rq_add_runs8((const uint8_t *)a, at == DPG_S8, (const uint8_t *)b, bt == DPG_S8, (uint8_t *)y, walk, rq, lo, hi);
    return;
  }
  rq_add_general(a, at, b, bt, y, yt, walk, rq, lo, hi);
}

/*
 * Kernels whose 8-bit output is a function of one 8-bit input (the requantized activations, with
 * scalar parameters) become a lookup: the 256 outputs are computed once per call (with the
 * 32-bit formula the caller proved exact), into a table on the core's stack, indexed by the raw
 * byte. (RequantShift's four-instruction formula gains nothing from it on microLlama.) Then four
 * elements cost a word load, four table loads and a word store. Worth it from LUT8_MIN
 * elements per core (the table costs 256 evaluations).
 */
#define LUT8_MIN 1024

static void lut8_apply(const uint8_t *x, uint8_t *y, uint32_t n, const uint8_t t[256]) {
  uint32_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const uint32_t w = dpg_load4(x + k);
    uint32_t o = t[w & 0xff];
    o = set_byte1(o, t[byte1(w)]);
    o = set_byte2(o, t[byte2(w)]);
    store4(y + k, set_byte3(o, t[w >> 24]));
  }
  for (; k < n; k++) y[k] = t[x[k]];
}

/** The value of raw byte b of an 8-bit tensor of type t. */
static inline int32_t byte_value(uint32_t b, dpg_type_t t) { return t == DPG_S8 ? (int32_t)(int8_t)b : (int32_t)b; }

/** 2^(shift-1), RequantShift's round-half-up term (0 for shift 0). */
static inline int64_t half_of(int32_t shift) { return shift > 0 ? (int64_t)1 << (shift - 1) : 0; }

/** Element i of an 8- or 16-bit buffer (the fast paths' inputs). */
static inline int32_t ld_small(const void *p, dpg_type_t t, uint32_t i) {
  return t == DPG_S8 ? ((const int8_t *)p)[i] : t == DPG_U8 ? ((const uint8_t *)p)[i]
       : t == DPG_S16 ? ((const int16_t *)p)[i] : ((const uint16_t *)p)[i];
}

/*
 * The 32-bit loop of RequantShift with scalar parameters, 8/16-bit in and 8-bit out, the input
 * offset folded into the bias (a = (add + half) + x_off*mul): one loop per input type so the
 * load is one instruction, four elements per iteration (the loop branch costs 3 cycles and the
 * loads' use stalls hide behind the neighbours' arithmetic), and a one-instruction clip when
 * the range is [-hi-1, hi] (int8 outputs).
 */
#define RQ_SHIFT_LOOP(T, CLIP)                                                                      \
  do {                                                                                              \
    const T *xs = (const T *)x + i0;                                                                \
    uint8_t *ys = y8 + i0;                                                                          \
    const T *const end4 = xs + ((i1 - i0) & ~3u), *const end = (const T *)x + i1;                   \
    while (xs != end4) { /* pointer steps: the loads and stores post-increment */                   \
      const int32_t v0 = xs[0], v1 = xs[1], v2 = xs[2], v3 = xs[3];                                 \
      xs += 4;                                                                                      \
      ys[0] = (uint8_t)CLIP(dpg_add_sra(v0 * m, a, shift));                                         \
      ys[1] = (uint8_t)CLIP(dpg_add_sra(v1 * m, a, shift));                                         \
      ys[2] = (uint8_t)CLIP(dpg_add_sra(v2 * m, a, shift));                                         \
      ys[3] = (uint8_t)CLIP(dpg_add_sra(v3 * m, a, shift));                                         \
      ys += 4;                                                                                      \
    }                                                                                               \
    while (xs != end) *ys++ = (uint8_t)CLIP(dpg_add_sra(*xs++ * m, a, shift));                      \
  } while (0)
#define RQ_CLIP_SYM(v) clip_sym(v, hi)
#define RQ_CLIP(v) dpg_clip32(v, lo, hi)

static void requant_shift32(const void *x, dpg_type_t xt, int32_t m, int32_t a, int32_t shift,
                            int32_t lo, int32_t hi, uint8_t *y8, uint32_t i0, uint32_t i1) {
  if (hi >= 0 && lo == -hi - 1) {
    switch (xt) {
      case DPG_S8: RQ_SHIFT_LOOP(int8_t, RQ_CLIP_SYM); break;
      case DPG_U8: RQ_SHIFT_LOOP(uint8_t, RQ_CLIP_SYM); break;
      case DPG_S16: RQ_SHIFT_LOOP(int16_t, RQ_CLIP_SYM); break;
      default: RQ_SHIFT_LOOP(uint16_t, RQ_CLIP_SYM); break;
    }
    return;
  }
  switch (xt) {
    case DPG_S8: RQ_SHIFT_LOOP(int8_t, RQ_CLIP); break;
    case DPG_U8: RQ_SHIFT_LOOP(uint8_t, RQ_CLIP); break;
    case DPG_S16: RQ_SHIFT_LOOP(int16_t, RQ_CLIP); break;
    default: RQ_SHIFT_LOOP(uint16_t, RQ_CLIP); break;
  }
}

/* y = clip(((x + x_off)*mul + add + 2^(s-1)) >> s, lo, hi), mul/add broadcast over x. */
void dpg_requant_shift(const void *x, dpg_type_t xt, int32_t x_off, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, void *y, dpg_type_t yt, uint32_t n) {
  const int64_t half = half_of(shift);
  uint32_t i0, i1;
  dpg_chunk(n, &i0, &i1);
  if (i0 >= i1) return;
  if (mul.count == 1 && add.count == 1 && dpg_size(xt) <= 2 && dpg_size(yt) == 1) {
    /* (x + x_off)*m + a == x*m + (a + x_off*m): exact in 32 bits when |x*m| + |a + x_off*m| < 2^31 */
    const int64_t m = mul.v[0], a = add.v[0] + half + (int64_t)x_off * m, abs_a = a < 0 ? -a : a;
    if (shift >= 0 && shift <= 31 && lo <= hi && type_bound(xt) * (m < 0 ? -m : m) + abs_a < ((int64_t)1 << 31)) {
      requant_shift32(x, xt, (int32_t)m, (int32_t)a, shift, lo, hi, (uint8_t *)y, i0, i1);
      return;
    }
  }
  for (uint32_t i = i0; i < i1; i++) {
    const int64_t v = (int64_t)dpg_ld(x, xt, i) + x_off;
    dpg_st(y, yt, i, dpg_requant(v, dpg_param_at(&mul, i), dpg_param_at(&add, i) + half, shift, lo, hi));
  }
}

/** f(x) of dpg_unary_t, exactly (64-bit). */
static inline int64_t unary_f(const dpg_unary_t *f, int64_t x) {
  switch (f->op) {
    case DPG_RELU: return x > 0 ? x : 0;
    case DPG_CLIP: { const int64_t m = x > f->a ? x : f->a; return m < f->b ? m : f->b; }
    case DPG_HARDSWISH: {
      const int64_t t = x + f->a;
      return x * ((t < 0 ? 0 : t > f->b ? f->b : t) * (int64_t)f->c);
    }
    case DPG_GELU: {
      const int64_t ax = x < 0 ? -x : x, q = (ax < -(int64_t)f->a ? ax : -(int64_t)f->a) + f->a;
      const int64_t L = x > 0 ? f->b - q * q : x < 0 ? q * q - f->b : 0;
      return x * dpg_floordiv(f->b + L, 2);
    }
    default: return x * f->a;
  }
}

static inline int32_t unary_out(const dpg_unary_t *f, int64_t v, uint32_t i) {
  if (!f || !f->requant) return (int32_t)v;
  const int64_t acc = v * dpg_param_at(&f->mul, i) + dpg_param_at(&f->add, i) + half_of(f->shift);
  return dpg_clamp(acc >> f->shift, f->lo, f->hi);
}

/*
 * Requantized iHardswish on 8/16-bit input, 8-bit output, scalar parameters, in 32 bits when
 * |x| <= X, |clip(x + a, 0, b)| <= b and |x*clip*c*mul| + |add + half| stay below 2^31.
 */
static int hardswish32(const void *x, dpg_type_t xt, int32_t x_off, uint8_t *y, uint32_t i0, uint32_t i1, const dpg_unary_t *f) {
  if (f->op != DPG_HARDSWISH || !f->requant || f->mul.count != 1 || f->add.count != 1 || f->b < 0 ||
      f->shift < 0 || f->shift > 31 || f->lo > f->hi)
    return 0;
  const int64_t X = type_bound(xt) + abs_bound(x_off, 0), a = f->add.v[0] + half_of(f->shift);
  const int64_t v = X * f->b * abs_bound(f->c, 0);
  if (X + abs_bound(f->a, 0) >= ((int64_t)1 << 30) || v >= ((int64_t)1 << 31) ||
      v * abs_bound(f->mul.v[0], 0) + (a < 0 ? -a : a) >= ((int64_t)1 << 31))
    return 0;
  const int32_t ta = f->a, tb = f->b, c = f->c, m = f->mul.v[0], a32 = (int32_t)a, s = f->shift, lo = f->lo, hi = f->hi;
  if (dpg_size(xt) == 1 && i1 - i0 >= LUT8_MIN) { /* 8-bit input: the 256 results, then lookups */
    uint8_t t[256];
    for (uint32_t b = 0; b < 256; b++) {
      const int32_t xv = byte_value(b, xt) + x_off;
      t[b] = (uint8_t)dpg_clip32((xv * (dpg_clip32(xv + ta, 0, tb) * c) * m + a32) >> s, lo, hi);
    }
    lut8_apply((const uint8_t *)x + i0, y + i0, i1 - i0, t);
    return 1;
  }
  for (uint32_t i = i0; i < i1; i++) {
    const int32_t xv = ld_small(x, xt, i) + x_off;
    y[i] = (uint8_t)dpg_clip32((xv * (dpg_clip32(xv + ta, 0, tb) * c) * m + a32) >> s, lo, hi);
  }
  return 1;
}

void dpg_unary(const void *x, dpg_type_t xt, int32_t x_off, void *y, dpg_type_t yt, uint32_t n, const dpg_unary_t *f) {
  uint32_t i0, i1;
  dpg_chunk(n, &i0, &i1);
  if (i0 >= i1) return;
  if (f && dpg_size(xt) <= 2 && dpg_size(yt) == 1 && hardswish32(x, xt, x_off, (uint8_t *)y, i0, i1, f)) return;
  for (uint32_t i = i0; i < i1; i++)
    dpg_st(y, yt, i, unary_out(f, unary_f(f, (int64_t)dpg_ld(x, xt, i) + x_off), i));
}

/* floor(a*Delta*eta / (b*eta + eps) + 1/2) = floor((2*a*Delta*eta + den) / (2*den)). */
void dpg_integer_div(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y, dpg_type_t yt,
                     const dpg_walk_t *walk, int32_t delta, int32_t eta, int32_t eps, const dpg_unary_t *rq) {
  const int64_t k = (int64_t)delta * eta;
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
  dpg_cursor_t c;
  dpg_cursor_at(&c, walk, lo);
  for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&c, walk)) {
    const int64_t den = (int64_t)dpg_ld(b, bt, (uint32_t)c.off[2]) * eta + eps;
    const int64_t q = den == 0 ? 0 : dpg_floordiv(2 * dpg_ld(a, at, (uint32_t)c.off[1]) * k + den, 2 * den);
    dpg_st(y, yt, (uint32_t)c.off[0], unary_out(rq, q, (uint32_t)c.off[0]));
  }
}
