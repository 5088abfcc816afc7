/*
 * elementwise.c: arithmetic one element at a time (binary ops with numpy broadcasting through
 * a walk, RequantShift, RequantizedAdd, activations, integer division). The cores split the
 * output elements; intermediate results are 64-bit wherever the reference can exceed int32.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

/* y = (a + a_off) op (b + b_off); the walk's strides: [0] y, [1] a, [2] b. */
void dpg_binary(dpg_binop_t op, const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt,
                int32_t b_off, void *y, dpg_type_t yt, const dpg_walk_t *walk) {
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
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

/* y = RQout(RQ1(a) + RQ2(b)), each RQ(v) = clip((v*mul + add) >> shift), scalar parameters. */
void dpg_rq_add(const void *a, dpg_type_t at, const void *b, dpg_type_t bt, void *y, dpg_type_t yt,
                const dpg_walk_t *walk_l2, const dpg_rq_t rq_l2[3]) {
  /* The walk and the requantizers are constants in L2 (12-cycle loads on Siracusa), reread after
     every store to y (which may alias them): work on copies on the stack, in L1. */
  const dpg_walk_t w = *walk_l2, *walk = &w;
  const dpg_rq_t rq[3] = {rq_l2[0], rq_l2[1], rq_l2[2]};
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
  dpg_cursor_t c;
  dpg_cursor_at(&c, walk, lo);
  for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&c, walk)) {
    const int32_t s = rq_part(dpg_ld(a, at, (uint32_t)c.off[1]), &rq[0]) + rq_part(dpg_ld(b, bt, (uint32_t)c.off[2]), &rq[1]);
    dpg_st(y, yt, (uint32_t)c.off[0], rq_part(s, &rq[2]));
  }
}

/** 2^(shift-1), RequantShift's round-half-up term (0 for shift 0). */
static inline int64_t half_of(int32_t shift) { return shift > 0 ? (int64_t)1 << (shift - 1) : 0; }

/* y = clip(((x + x_off)*mul + add + 2^(s-1)) >> s, lo, hi), mul/add broadcast over x. */
void dpg_requant_shift(const void *x, dpg_type_t xt, int32_t x_off, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, void *y, dpg_type_t yt, uint32_t n) {
  const int64_t half = half_of(shift);
  uint32_t i0, i1;
  dpg_chunk(n, &i0, &i1);
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

void dpg_unary(const void *x, dpg_type_t xt, int32_t x_off, void *y, dpg_type_t yt, uint32_t n, const dpg_unary_t *f) {
  uint32_t i0, i1;
  dpg_chunk(n, &i0, &i1);
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
