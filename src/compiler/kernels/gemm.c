/*
 * gemm.c: matrix products. dpg_gemm is Gemm/MatMul with an int32 result (any trans flags,
 * batched with broadcast batches); dpg_rq_gemm is the cluster's RequantizedGemm/MatMul on 8-bit
 * operands, A [M, K] times B [N, K] (transB = 1), so every output is a dot product of two
 * contiguous rows, four int8 products per instruction. Both split the output elements.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

static inline uint32_t batch_at(const uint32_t *off, uint32_t t, uint32_t size) { return off ? off[t] : t * size; }

void dpg_gemm(const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt, int32_t b_off,
              dpg_param_t c, int32_t alpha, int32_t beta, void *y, dpg_type_t yt, const dpg_gemm_geom_t *g) {
  const uint32_t M = g->M, K = g->K, N = g->N;
  /* element (i, k) of A is at i*ars + k*acs; (k, j) of B at k*brs + j*bcs */
  const uint32_t ars = g->trans_a ? 1 : K, acs = g->trans_a ? M : 1;
  const uint32_t brs = g->trans_b ? 1 : N, bcs = g->trans_b ? K : 1;
  uint32_t lo, hi;
  dpg_chunk(g->batch * M * N, &lo, &hi);
  for (uint32_t e = lo; e < hi; e++) {
    const uint32_t j = e % N, i = (e / N) % M, t = e / (M * N);
    const uint32_t ab = batch_at(g->a_off, t, M * K) + i * ars, bb = batch_at(g->b_off, t, K * N) + j * bcs;
    int32_t acc = 0;
    for (uint32_t k = 0; k < K; k++)
      acc += (dpg_ld(a, at, ab + k * acs) + a_off) * (dpg_ld(b, bt, bb + k * brs) + b_off);
    int64_t v = (int64_t)alpha * acc;
    if (c.v) v += (int64_t)beta * dpg_param_at(&c, e);
    dpg_st(y, yt, e, (int32_t)v);
  }
}

/* y = clip((A . B^T * mul + add) >> shift, lo, hi); add holds the bias and the rounding (C'). */
void dpg_rq_gemm(const uint8_t *a, int a_signed, const uint8_t *b, int b_signed, dpg_param_t mul,
                 dpg_param_t add, int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_gemm_geom_t *g) {
  const uint32_t M = g->M, K = g->K, N = g->N;
  uint32_t e0, e1;
  dpg_chunk(g->batch * M * N, &e0, &e1);
  for (uint32_t e = e0; e < e1; e++) {
    const uint32_t j = e % N, i = (e / N) % M, t = e / (M * N);
    const uint8_t *ar = a + batch_at(g->a_off, t, M * K) + i * K;
    const uint8_t *br = b + batch_at(g->b_off, t, K * N) + j * K;
    const int32_t acc = dpg_dot8(ar, a_signed, br, b_signed, K);
    y[e] = (uint8_t)dpg_requant(acc, dpg_param_at(&mul, e), dpg_param_at(&add, e), shift, lo, hi);
  }
}
