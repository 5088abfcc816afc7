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

/* ---- dpg_rq_gemm ------------------------------------------------------------------------------
 * y = clip((A . B^T * mul + add) >> shift, lo, hi); add holds the bias and the rounding (C').
 *
 * The outputs of a batch are cut into blocks of RB_M rows of A by RB_N rows of B (2 x 4), and
 * the cores share the blocks of all batches in contiguous runs (so a product with one row of A
 * still uses every core). A full block keeps its 8 accumulators in registers: each K step
 * loads 2 + 4 words and issues 8 four-way dot products, instead of 2 loads per dot product.
 * Edge blocks (M odd, N not a multiple of 4) use the same code with fewer rows or columns.
 * Blocks go down the columns (row block fastest) so per-column parameters, which live in L2
 * (12 cycles a load), are read once per column block.
 */
#define RB_M 2
#define RB_N 4

/* Operand signedness, a compile-time constant in each specialised copy of the block code. */
enum { SS = 0, US = 1, SU = 2, UU = 3 }; /* A signed/unsigned x B signed/unsigned */

static inline __attribute__((always_inline)) int32_t sdot(int mode, int32_t acc, uint32_t a, uint32_t b) {
  switch (mode) {
    case SS: return dpg_sdot4_ss(acc, a, b);
    case US: return dpg_sdot4_us(acc, a, b);
    case SU: return dpg_sdot4_us(acc, b, a); /* the unsigned operand goes first */
    default: return dpg_sdot4_uu(acc, a, b);
  }
}

static inline __attribute__((always_inline)) int32_t byte_of(const uint8_t *p, int is_signed) {
  return is_signed ? (int32_t)(int8_t)*p : (int32_t)*p;
}

/* How a requant parameter varies over the outputs [batch, M, N]. */
typedef enum { PK_SCALAR, PK_COL, PK_ROW, PK_OTHER } param_kind_t;

static param_kind_t param_kind(const dpg_param_t *q, uint32_t N) {
  if (q->count == 1) return PK_SCALAR;
  if (q->inner == 1 && q->count == N) return PK_COL;
  if (q->inner % N == 0) return PK_ROW; /* constant along each output row */
  return PK_OTHER;
}

/** Value of a PK_ROW parameter for row i of batch t. */
static inline int32_t row_value(const dpg_param_t *q, uint32_t t, uint32_t i, uint32_t M, uint32_t N) {
  if (q->inner == N && q->count == M) return q->v[i]; /* per row, without dividing */
  return q->v[((t * M + i) * N / q->inner) % q->count];
}

/**
 * Requant parameters of a block: output (r, c) uses mul = m_col[c] + m_row[r] and likewise add;
 * the part a parameter does not vary over is 0 (a scalar is all column part). The row parts
 * are only read by the `general` copy of the block code.
 */
typedef struct {
  int32_t m_col[RB_N], a_col[RB_N], m_row[RB_M], a_row[RB_M];
} block_params_t;

static inline void load_cols(int32_t *col, param_kind_t kind, const dpg_param_t *q, uint32_t j, uint32_t nr) {
  for (uint32_t c = 0; c < RB_N; c++) col[c] = kind == PK_SCALAR ? q->v[0] : kind == PK_COL && c < nr ? q->v[j + c] : 0;
}

static inline void load_rows(int32_t *row, param_kind_t kind, const dpg_param_t *q, uint32_t t, uint32_t i, uint32_t mr,
                             uint32_t M, uint32_t N) {
  for (uint32_t r = 0; r < mr; r++) row[r] = kind == PK_ROW ? row_value(q, t, i + r, M, N) : 0;
}

/** The requantizer of a call. */
typedef struct {
  int32_t shift, lo, hi;
  /* |acc| <= lim guarantees |acc*mul + add| < 2^31 for every mul and add of the call, so the
     32-bit expression gives the exact 64-bit result; lim < 2^30 keeps the range test in uint32. */
  uint32_t lim;
} rq_t;

static inline uint32_t max_abs(const dpg_param_t *q) {
  uint32_t m = 0;
  for (uint32_t k = 0; k < q->count; k++) {
    const uint32_t v = q->v[k] < 0 ? 0u - (uint32_t)q->v[k] : (uint32_t)q->v[k];
    m = v > m ? v : m;
  }
  return m;
}

/* The 64-bit product, out of line: rare, and inlined it would crowd the block's registers. */
static __attribute__((noinline)) uint8_t rq_wide(int32_t acc, int32_t mul, int32_t add, int32_t shift, int32_t lo, int32_t hi) {
  return (uint8_t)dpg_requant(acc, mul, add, shift, lo, hi);
}

/** One output; `checked`: acc may exceed lim (else the caller proved it cannot). */
static inline __attribute__((always_inline)) uint8_t rq_out(int checked, int32_t acc, int32_t mul, int32_t add, const rq_t *q) {
  if (!checked || __builtin_expect((uint32_t)acc + q->lim <= 2u * q->lim, 1))
    return (uint8_t)dpg_clip32((acc * mul + add) >> q->shift, q->lo, q->hi);
  return rq_wide(acc, mul, add, q->shift, q->lo, q->hi);
}

/**
 * Outputs y[r][c] (row stride N) for MR rows of A from `a` and NR rows of B from `b`, each row K
 * bytes, parameters from column c0 of p. `aligned`: every row starts at a multiple of 4 (the
 * words are then plain C loads, which the compiler schedules and post-increments). `general`:
 * parameters may vary by row and acc may need the 64-bit product.
 */
static inline __attribute__((always_inline)) void block(int mode, int aligned, int general, int MR, int NR,
                                                        const uint8_t *a, const uint8_t *b, uint32_t K, uint8_t *y,
                                                        uint32_t N, const block_params_t *p, uint32_t c0, const rq_t *q) {
  const uint8_t *ap[RB_M], *bp[RB_N];
  int32_t acc[RB_M][RB_N];
  for (int r = 0; r < MR; r++) ap[r] = a + r * K;
  for (int c = 0; c < NR; c++) bp[c] = b + c * K;
  for (int r = 0; r < MR; r++)
    for (int c = 0; c < NR; c++) acc[r][c] = 0;
  for (uint32_t k = K >> 2; k; k--) {
    uint32_t av[RB_M], bv[RB_N];
    for (int r = 0; r < MR; r++) { av[r] = aligned ? dpg_load4a(ap[r]) : dpg_load4(ap[r]); ap[r] += 4; }
    for (int c = 0; c < NR; c++) { bv[c] = aligned ? dpg_load4a(bp[c]) : dpg_load4(bp[c]); bp[c] += 4; }
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] = sdot(mode, acc[r][c], av[r], bv[c]);
  }
  for (uint32_t k = aligned ? 0 : K & 3; k; k--) { /* the last K % 4 bytes (aligned: K % 4 == 0) */
    int32_t av[RB_M], bv[RB_N];
    for (int r = 0; r < MR; r++) av[r] = byte_of(ap[r]++, mode == SS || mode == SU);
    for (int c = 0; c < NR; c++) bv[c] = byte_of(bp[c]++, mode == SS || mode == US);
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] += av[r] * bv[c];
  }
  for (int r = 0; r < MR; r++)
    for (int c = 0; c < NR; c++) {
      const int32_t m = p->m_col[c0 + c] + (general ? p->m_row[r] : 0), d = p->a_col[c0 + c] + (general ? p->a_row[r] : 0);
      y[r * N + c] = rq_out(general, acc[r][c], m, d, q);
    }
}

/** What a core computes: blocks [u0, u1) in the order batch, column block, row block. */
typedef struct {
  const uint8_t *a, *b;
  uint8_t *y;
  uint32_t M, K, N;
  const uint32_t *a_off, *b_off;
  dpg_param_t mul, add;
  param_kind_t mul_kind, add_kind;
  rq_t q;
  uint32_t u0, u1;
} rq_gemm_job_t;

static inline __attribute__((always_inline)) void rq_gemm_run(int mode, int aligned, int general, const rq_gemm_job_t *job) {
  /* Everything in locals: for the compiler, each byte stored to y might alias what a pointer reads. */
  const uint32_t M = job->M, K = job->K, N = job->N;
  const uint32_t row_blocks = (M + RB_M - 1) / RB_M, col_blocks = (N + RB_N - 1) / RB_N;
  const rq_t q = job->q;
  uint32_t rb = job->u0 % row_blocks, cb = job->u0 / row_blocks % col_blocks, t = job->u0 / (row_blocks * col_blocks);
  uint32_t left = job->u1 - job->u0;
  block_params_t p = {{0}, {0}, {0}, {0}};
  for (; left; t++, cb = 0) {
    const uint8_t *at = job->a + batch_at(job->a_off, t, M * K), *bt = job->b + batch_at(job->b_off, t, K * N);
    for (; left && cb < col_blocks; cb++, rb = 0) {
      const uint32_t j = cb * RB_N, nr = N - j < RB_N ? N - j : RB_N;
      load_cols(p.m_col, job->mul_kind, &job->mul, j, nr);
      load_cols(p.a_col, job->add_kind, &job->add, j, nr);
      const uint8_t *bj = bt + j * K, *ai = at + rb * RB_M * K;
      uint8_t *yi = job->y + (t * M + rb * RB_M) * N + j;
      uint32_t n = row_blocks - rb < left ? row_blocks - rb : left;
      left -= n;
      for (uint32_t i = rb * RB_M; n; n--, i += RB_M, ai += RB_M * K, yi += RB_M * N) {
        const uint32_t mr = M - i < RB_M ? M - i : RB_M;
        if (general) {
          load_rows(p.m_row, job->mul_kind, &job->mul, t, i, mr, M, N);
          load_rows(p.a_row, job->add_kind, &job->add, t, i, mr, M, N);
        }
        if (mr == RB_M && nr == RB_N) {
          block(mode, aligned, general, RB_M, RB_N, ai, bj, K, yi, N, &p, 0, &q);
        } else { /* an edge: one row of A and/or fewer than four of B, a column at a time */
          for (uint32_t c = 0; c < nr; c++) {
            if (mr == RB_M) block(mode, aligned, general, RB_M, 1, ai, bj + c * K, K, yi + c, N, &p, c, &q);
            else block(mode, aligned, general, 1, 1, ai, bj + c * K, K, yi + c, N, &p, c, &q);
          }
        }
      }
    }
  }
}

/* One specialised copy per signedness: aligned rows with the short requant, aligned rows with
   the general one, and any rows (K % 4 != 0 or unaligned bases) with the general one. */
#define RQ_GEMM_COPIES(mode)                                      \
  static void rq_gemm_##mode(const rq_gemm_job_t *job, int aligned, int general) { \
    if (aligned && !general) rq_gemm_run(mode, 1, 0, job);        \
    else if (aligned) rq_gemm_run(mode, 1, 1, job);               \
    else rq_gemm_run(mode, 0, 1, job);                            \
  }
RQ_GEMM_COPIES(SS)
RQ_GEMM_COPIES(US)
RQ_GEMM_COPIES(SU)
RQ_GEMM_COPIES(UU)

/* The element-by-element loop, for parameters laid out in a way the blocks do not read or a
   shift outside [0, 31]. Exact, slow, not produced by the shared networks. */
static void rq_gemm_elementwise(const uint8_t *a, int a_signed, const uint8_t *b, int b_signed, const dpg_param_t *mul,
                                const dpg_param_t *add, int32_t shift, int32_t lo, int32_t hi, uint8_t *y,
                                const dpg_gemm_geom_t *g) {
  const uint32_t M = g->M, K = g->K, N = g->N;
  uint32_t e0, e1;
  dpg_chunk(g->batch * M * N, &e0, &e1);
  for (uint32_t e = e0; e < e1; e++) {
    const uint32_t j = e % N, i = (e / N) % M, t = e / (M * N);
    const uint8_t *ar = a + batch_at(g->a_off, t, M * K) + i * K;
    const uint8_t *br = b + batch_at(g->b_off, t, K * N) + j * K;
    const int32_t acc = dpg_dot8(ar, a_signed, br, b_signed, K);
    y[e] = (uint8_t)dpg_requant(acc, dpg_param_at(mul, e), dpg_param_at(add, e), shift, lo, hi);
  }
}

void dpg_rq_gemm(const uint8_t *a, int a_signed, const uint8_t *b, int b_signed, dpg_param_t mul,
                 dpg_param_t add, int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_gemm_geom_t *g) {
  const uint32_t M = g->M, K = g->K, N = g->N;
  if (!g->batch || !M || !N) return;
  rq_gemm_job_t job = {a, b, y, M, K, N, g->a_off, g->b_off, mul, add, param_kind(&mul, N), param_kind(&add, N),
                       {shift, lo, hi, 0}, 0, 0};
  if (shift < 0 || shift > 31 || job.mul_kind == PK_OTHER || job.add_kind == PK_OTHER) {
    rq_gemm_elementwise(a, a_signed, b, b_signed, &mul, &add, shift, lo, hi, y, g);
    return;
  }
  const uint32_t max_mul = max_abs(&mul), max_add = max_abs(&add);
  if (max_add < 0x7fffffffu) {
    const uint32_t lim = (0x7fffffffu - max_add) / (max_mul ? max_mul : 1);
    job.q.lim = lim < (1u << 30) ? lim : (1u << 30) - 1;
  }
  /* The largest |acc| the operands allow: K * 128 * 128 when both are signed, up to K * 255 * 255. */
  const uint64_t acc_max = (uint64_t)K * (a_signed ? 128 : 255) * (b_signed ? 128 : 255);
  const int general = job.mul_kind == PK_ROW || job.add_kind == PK_ROW || acc_max > job.q.lim;
  /* Every row of A and B starts 4-byte aligned when K % 4 == 0 and the bases are aligned
     (batch offsets are multiples of M*K or K*N). */
  const int aligned = K % 4 == 0 && ((uintptr_t)a | (uintptr_t)b) % 4 == 0;
  dpg_chunk(g->batch * ((M + RB_M - 1) / RB_M) * ((N + RB_N - 1) / RB_N), &job.u0, &job.u1);
  if (a_signed) (b_signed ? rq_gemm_SS : rq_gemm_SU)(&job, aligned, general);
  else (b_signed ? rq_gemm_US : rq_gemm_UU)(&job, aligned, general);
}
