/*
 * gemm.c: matrix products. dpg_gemm is Gemm/MatMul with an int32 result (any trans flags,
 * batched with broadcast batches; 8-bit operands with A not transposed take gemm8, at the end);
 * dpg_rq_gemm is the cluster's RequantizedGemm/MatMul on 8-bit operands, A [M, K] times B [N, K]
 * (transB = 1), so every output is a dot product of two contiguous rows, four int8 products per
 * instruction, computed in register blocks of 2 x 4 outputs.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

static inline uint32_t batch_at(const uint32_t *off, uint32_t t, uint32_t size) { return off ? off[t] : t * size; }

static void gemm8(const uint8_t *a, int a_signed, int32_t a_off, const uint8_t *b, int b_signed, int32_t b_off,
                  const dpg_param_t *c, int32_t alpha, int32_t beta, void *y, dpg_type_t yt, const dpg_gemm_geom_t *g);

void dpg_gemm(const void *a, dpg_type_t at, int32_t a_off, const void *b, dpg_type_t bt, int32_t b_off,
              dpg_param_t c, int32_t alpha, int32_t beta, void *y, dpg_type_t yt, const dpg_gemm_geom_t *g) {
  if (dpg_size(at) == 1 && dpg_size(bt) == 1 && !g->trans_a) { /* the common case: gemm8 below */
    gemm8((const uint8_t *)a, at == DPG_S8, a_off, (const uint8_t *)b, bt == DPG_S8, b_off, &c, alpha, beta, y, yt, g);
    return;
  }
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
 * (15 cycles a load), are read once per column block.
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

/** The same four products without an accumulator (one instruction, no zeroed register). */
static inline __attribute__((always_inline)) int32_t dot(int mode, uint32_t a, uint32_t b) {
  switch (mode) {
    case SS: return dpg_dot4_ss(a, b);
    case US: return dpg_dot4_us(a, b);
    case SU: return dpg_dot4_us(b, a);
    default: return dpg_dot4_uu(a, b);
  }
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
  int32_t m_col[RB_N], a_col[RB_N];
} block_params_t;

/** The column parts of a PK_COL parameter for columns [j, j + nr). */
static void load_cols(int32_t *col, const dpg_param_t *q, uint32_t j, uint32_t nr) {
  for (uint32_t c = 0; c < RB_N; c++) col[c] = c < nr ? q->v[j + c] : 0;
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

/** max(m, |v[0]|, ..., |v[RB_N - 1]|) */
static inline uint32_t max4(const int32_t *v, uint32_t m) {
  for (int c = 0; c < RB_N; c++) {
    const uint32_t x = v[c] < 0 ? 0u - (uint32_t)v[c] : (uint32_t)v[c];
    m = x > m ? x : m;
  }
  return m;
}

/** rq_t.lim for multipliers and additions bounded by max_mul and max_add. */
static uint32_t rq_bound(uint32_t max_mul, uint32_t max_add) {
  if (max_add >= 0x7fffffffu) return 0; /* acc == 0 still fits: the sum is add itself */
  const uint32_t lim = (0x7fffffffu - max_add) / (max_mul ? max_mul : 1);
  return lim < (1u << 30) ? lim : (1u << 30) - 1;
}

/* The 64-bit product, out of line: rare, and inlined it would crowd the block's registers. */
static __attribute__((noinline)) uint8_t rq_wide(int32_t acc, int32_t mul, int32_t add, int32_t shift, int32_t lo, int32_t hi) {
  return (uint8_t)dpg_requant(acc, mul, add, shift, lo, hi);
}

/** One output; `checked`: acc may exceed lim (else the caller proved it cannot). */
static inline __attribute__((always_inline)) uint8_t rq_out(int checked, int32_t acc, int32_t mul, int32_t add, const rq_t *q) {
  if (!checked || __builtin_expect((uint32_t)acc + q->lim <= 2u * q->lim, 1))
    return (uint8_t)dpg_clip32(dpg_add_sra(acc * mul, add, q->shift), q->lo, q->hi);
  return rq_wide(acc, mul, add, q->shift, q->lo, q->hi);
}

/**
 * Outputs y[r][c] (row stride N) for MR rows of A from `a` and NR rows of B from `b`, each row K
 * bytes, parameters as in block_params_t. `aligned`: K is a positive multiple of 4 and every row
 * starts at a multiple of 4. `general`: parameters may vary by row and acc may need the 64-bit
 * product.
 */
static inline __attribute__((always_inline)) void block(int mode, int aligned, int general, int MR, int NR,
                                                        const uint8_t *a, const uint8_t *b, uint32_t K, uint8_t *y,
                                                        uint32_t N, const int32_t *m_col, const int32_t *a_col,
                                                        const int32_t *m_row, const int32_t *a_row, const rq_t *q) {
  const uint8_t *ap[RB_M], *bp[RB_N];
  int32_t acc[RB_M][RB_N];
  for (int r = 0; r < MR; r++) ap[r] = a + r * K;
  for (int c = 0; c < NR; c++) bp[c] = b + c * K;
  uint32_t words = K >> 2;
  if (aligned) { /* K >= 4: the first word sets the accumulators, no zeroing */
    uint32_t av[RB_M], bv[RB_N];
    for (int r = 0; r < MR; r++) av[r] = dpg_load4_inc(&ap[r]);
    for (int c = 0; c < NR; c++) bv[c] = dpg_load4_inc(&bp[c]);
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] = dot(mode, av[r], bv[c]);
    words--;
  } else {
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] = 0;
  }
  /* Two words of every row per iteration: the loop's compare and taken branch (3 cycles, no
     hardware loops from clang) are paid once per 2 * MR * NR dot products. */
  /* Post-incrementing loads in program order (dpg_load4_inc): left to itself, clang hoists the
     second word's loads and addresses them base + index + 4, an add per load. */
  for (uint32_t k = words >> 1; k; k--) {
    for (int h = 0; h < 2; h++) {
      uint32_t av[RB_M], bv[RB_N];
      for (int r = 0; r < MR; r++) av[r] = dpg_load4_inc(&ap[r]);
      for (int c = 0; c < NR; c++) bv[c] = dpg_load4_inc(&bp[c]);
      for (int r = 0; r < MR; r++)
        for (int c = 0; c < NR; c++) acc[r][c] = sdot(mode, acc[r][c], av[r], bv[c]);
    }
  }
  if (words & 1) { /* an odd word */
    uint32_t av[RB_M], bv[RB_N];
    for (int r = 0; r < MR; r++) av[r] = dpg_load4_inc(&ap[r]);
    for (int c = 0; c < NR; c++) bv[c] = dpg_load4_inc(&bp[c]);
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] = sdot(mode, acc[r][c], av[r], bv[c]);
  }
  for (uint32_t k = aligned ? 0 : K & 3; k; k--) { /* the last K % 4 bytes (aligned: K % 4 == 0) */
    int32_t av[RB_M], bv[RB_N];
    for (int r = 0; r < MR; r++) av[r] = dpg_ld8(ap[r]++, mode == SS || mode == SU, 0);
    for (int c = 0; c < NR; c++) bv[c] = dpg_ld8(bp[c]++, mode == SS || mode == US, 0);
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) acc[r][c] += av[r] * bv[c];
  }
  for (int r = 0; r < MR; r++)
    for (int c = 0; c < NR; c++) {
      const int32_t m = m_col[c] + (general ? m_row[r] : 0), d = a_col[c] + (general ? a_row[r] : 0);
      y[r * N + c] = rq_out(general, acc[r][c], m, d, q);
    }
}

/** A run of output rows [i, i + rows) of batch t in one column block (columns [j, j + nr)). */
typedef struct {
  const uint8_t *a, *b; /* row i of A, row j of B */
  uint8_t *y;           /* output (i, j) */
  uint32_t K, N, nr, rows, t, i, M;
  const dpg_param_t *mul, *add; /* for the row parts of PK_ROW parameters */
  param_kind_t mul_kind, add_kind;
  block_params_t p; /* column parts loaded */
  rq_t q;
} column_t;

/**
 * The blocks of one column run. Each specialisation is its own (noinline) function, so the
 * register allocator sees only this loop nest (inlined into the driver's loops, the parameters
 * and bounds were spilled and reloaded for every output).
 */
static inline __attribute__((always_inline)) void column(int mode, int aligned, int general, const column_t *col) {
  const uint32_t K = col->K, N = col->N, nr = col->nr;
  const uint8_t *ai = col->a, *const bj = col->b;
  uint8_t *yi = col->y;
  /* Locals the compiler can keep in registers: every byte stored to y might alias *col. */
  const rq_t q = {col->q.shift, col->q.lo, col->q.hi, col->q.lim};
  int32_t m_col[RB_N], a_col[RB_N], m_row[RB_M] = {0, 0}, a_row[RB_M] = {0, 0};
  for (int c = 0; c < RB_N; c++) { m_col[c] = col->p.m_col[c]; a_col[c] = col->p.a_col[c]; }
  for (uint32_t r = 0; r < col->rows; r += RB_M, ai += RB_M * K, yi += RB_M * N) {
    const uint32_t mr = col->rows - r < RB_M ? col->rows - r : RB_M;
    if (general) {
      load_rows(m_row, col->mul_kind, col->mul, col->t, col->i + r, mr, col->M, N);
      load_rows(a_row, col->add_kind, col->add, col->t, col->i + r, mr, col->M, N);
    }
    if (mr == RB_M && nr == RB_N) {
      block(mode, aligned, general, RB_M, RB_N, ai, bj, K, yi, N, m_col, a_col, m_row, a_row, &q);
    } else if (nr == RB_N) { /* the odd last row: 1 x 4, each word of A loaded once for four */
      block(mode, aligned, general, 1, RB_N, ai, bj, K, yi, N, m_col, a_col, m_row, a_row, &q);
    } else { /* an edge: one row of A and/or fewer than four of B, a column at a time (parameters
                from *col: indexed by a variable, local copies would have to live in memory; 2 x 2
                and 2 x 3 blocks were measured: bigger code, no faster) */
      for (uint32_t c = 0; c < nr; c++) {
        const int32_t *mc = col->p.m_col + c, *ac = col->p.a_col + c;
        if (mr == RB_M) block(mode, aligned, general, RB_M, 1, ai, bj + c * K, K, yi + c, N, mc, ac, m_row, a_row, &q);
        else block(mode, aligned, general, 1, 1, ai, bj + c * K, K, yi + c, N, mc, ac, m_row, a_row, &q);
      }
    }
  }
}

/* K == 4, aligned, the short requant, NR columns: a row is one word, so the NR words of B and
   their parameters stay in registers while the rows of A stream past, one load per output row. */
static inline __attribute__((always_inline)) void column_k4(int mode, int NR, const column_t *col) {
  const uint8_t *a = col->a;
  uint8_t *y = col->y;
  const uint32_t N = col->N;
  const rq_t q = {col->q.shift, col->q.lo, col->q.hi, col->q.lim};
  uint32_t bw[RB_N];
  int32_t m[RB_N], d[RB_N];
  for (int c = 0; c < NR; c++) { bw[c] = dpg_load4a(col->b + 4 * c); m[c] = col->p.m_col[c]; d[c] = col->p.a_col[c]; }
  for (uint32_t rows = col->rows; rows; rows--, a += 4, y += N) {
    const uint32_t x = dpg_load4a(a);
    for (int c = 0; c < NR; c++) y[c] = rq_out(0, dot(mode, x, bw[c]), m[c], d[c], &q);
  }
}

/* Per signedness: aligned rows with the short requant (fast), aligned rows with the general
   one, any rows (K % 4 != 0, K == 0 or unaligned bases) with the general one, and K == 4. */
typedef void column_fn(const column_t *);
#define COLUMN_COPIES(mode)                                                                        \
  static __attribute__((noinline)) void column_##mode##_fast(const column_t *c) { column(mode, 1, 0, c); } \
  static __attribute__((noinline)) void column_##mode##_general(const column_t *c) { column(mode, 1, 1, c); } \
  static __attribute__((noinline)) void column_##mode##_any(const column_t *c) { column(mode, 0, 1, c); } \
  static __attribute__((noinline)) void column_##mode##_k4(const column_t *c) {                   \
    if (c->nr == 4) column_k4(mode, 4, c);                                                       \
    else if (c->nr == 3) column_k4(mode, 3, c);                                                  \
    else if (c->nr == 2) column_k4(mode, 2, c);                                                  \
    else column_k4(mode, 1, c);                                                                  \
  }
COLUMN_COPIES(SS)
COLUMN_COPIES(US)
COLUMN_COPIES(SU)
COLUMN_COPIES(UU)
static column_fn *const COLUMN_FNS[4][4] = {
  [SS] = {column_SS_fast, column_SS_general, column_SS_any, column_SS_k4},
  [US] = {column_US_fast, column_US_general, column_US_any, column_US_k4},
  [SU] = {column_SU_fast, column_SU_general, column_SU_any, column_SU_k4},
  [UU] = {column_UU_fast, column_UU_general, column_UU_any, column_UU_k4},
};

/* The element-by-element loop, for parameters laid out in a way the blocks do not read (per
   element, per batch and column, ...) or a shift outside [0, 31]. Exact and slow; rare. */
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
  const uint32_t batch = g->batch, M = g->M, K = g->K, N = g->N;
  if (!batch || !M || !N) return;
  const param_kind_t mul_kind = param_kind(&mul, N), add_kind = param_kind(&add, N);
  if (shift < 0 || shift > 31 || mul_kind == PK_OTHER || add_kind == PK_OTHER) {
    rq_gemm_elementwise(a, a_signed, b, b_signed, &mul, &add, shift, lo, hi, y, g);
    return;
  }
  column_t col = {.K = K, .N = N, .M = M, .mul = &mul, .add = &add, .mul_kind = mul_kind, .add_kind = add_kind,
                  .q = {shift, lo, hi, 0}};
  for (int c = 0; c < RB_N; c++) { /* scalars: read once (L2); per-column parts: per column block */
    col.p.m_col[c] = mul_kind == PK_SCALAR ? mul.v[0] : 0;
    col.p.a_col[c] = add_kind == PK_SCALAR ? add.v[0] : 0;
  }
  /* The largest |acc| the operands allow: K * 128 * 128 when both are signed, up to K * 255 * 255. */
  const uint64_t acc_max = (uint64_t)K * (a_signed ? 128 : 255) * (b_signed ? 128 : 255);
  /* Row parts are scanned once; column parts are bounded per column block, from the values just
     loaded (scanning a per-column vector in L2 costs 15 cycles an element on every core). */
  const uint32_t row_mul = mul_kind == PK_ROW ? max_abs(&mul) : 0, row_add = add_kind == PK_ROW ? max_abs(&add) : 0;
  /* Every row of A and B starts 4-byte aligned when K % 4 == 0 and the bases are aligned
     (batch offsets are multiples of M*K or K*N); K == 0 takes the general path (all sums 0). */
  const int aligned = K % 4 == 0 && K && ((uintptr_t)a | (uintptr_t)b) % 4 == 0;
  column_fn *const *const fns = COLUMN_FNS[a_signed ? (b_signed ? SS : SU) : (b_signed ? US : UU)];
  column_fn *run = fns[0];
  int stale = 1; /* the bound and `run` need computing */

  /* This core's blocks [u0, u1), in the order batch, column block, row block. */
  const uint32_t row_blocks = (M + RB_M - 1) / RB_M, col_blocks = (N + RB_N - 1) / RB_N;
  uint32_t u0, u1;
  dpg_chunk(batch * row_blocks * col_blocks, &u0, &u1);
  uint32_t rb = u0 % row_blocks, cb = u0 / row_blocks % col_blocks, t = u0 / (row_blocks * col_blocks);
  for (uint32_t left = u1 - u0; left; t++, cb = 0) {
    const uint8_t *at = a + batch_at(g->a_off, t, M * K), *bt = b + batch_at(g->b_off, t, K * N);
    for (; left && cb < col_blocks; cb++, rb = 0) {
      const uint32_t n = row_blocks - rb < left ? row_blocks - rb : left, i = rb * RB_M, j = cb * RB_N;
      left -= n;
      col.nr = N - j < RB_N ? N - j : RB_N;
      col.rows = (rb + n == row_blocks ? M : (rb + n) * RB_M) - i;
      col.t = t;
      col.i = i;
      col.a = at + i * K;
      col.b = bt + j * K;
      col.y = y + (t * M + i) * N + j;
      if (mul_kind == PK_COL) load_cols(col.p.m_col, &mul, j, col.nr);
      if (add_kind == PK_COL) load_cols(col.p.a_col, &add, j, col.nr);
      if (stale) {
        const uint32_t max_mul = max4(col.p.m_col, row_mul), max_add = max4(col.p.a_col, row_add);
        col.q.lim = rq_bound(max_mul, max_add);
        const int general = mul_kind == PK_ROW || add_kind == PK_ROW || acc_max > col.q.lim;
        run = fns[aligned && !general && K == 4 ? 3 : !aligned ? 2 : general];
        stale = mul_kind == PK_COL || add_kind == PK_COL; /* scalars and row parts: once */
      }
      run(&col);
    }
  }
}

/* ---- dpg_gemm on 8-bit operands, A not transposed ---------------------------------------------
 * The cores split the output rows. Without offsets and with B transposed, every output is a
 * dot product of two contiguous rows (dpg_dot8, four products per instruction). Otherwise four
 * outputs of a row at a time, so each byte of A is loaded once per four products; an offset on
 * B is applied once per output: sum_k (a + ao)(b + bo) = sum_k (a + ao) b + bo * sum_k (a + ao).
 */
static inline __attribute__((always_inline)) void gemm8_rows(int a_signed, int b_signed, const uint8_t *a, int32_t a_off,
                                                             const uint8_t *b, int32_t b_off, const dpg_param_t *c,
                                                             int32_t alpha, int32_t beta, void *y, dpg_type_t yt,
                                                             const dpg_gemm_geom_t *g, uint32_t r0, uint32_t r1) {
  const uint32_t M = g->M, K = g->K, N = g->N;
  const uint32_t bk = g->trans_b ? 1 : N, bj = g->trans_b ? K : 1; /* (k, j) of B is at k*bk + j*bj */
  const int dots = g->trans_b && !a_off && !b_off;
  const uint32_t *const a_tab = g->a_off, *const b_tab = g->b_off;
  for (uint32_t r = r0; r < r1; r++) {
    const uint32_t t = r / M, i = r % M;
    const uint8_t *const ar = a + batch_at(a_tab, t, M * K) + i * K, *const bt = b + batch_at(b_tab, t, K * N);
    int32_t a_sum = 0;
    if (b_off)
      for (uint32_t k = 0; k < K; k++) a_sum += dpg_ld8(ar + k, a_signed, 0) + a_off;
    for (uint32_t j = 0; j < N; j += 4) {
      const uint32_t nr = N - j < 4 ? N - j : 4;
      int32_t acc[4] = {0, 0, 0, 0};
      const uint8_t *bp = bt + j * bj;
      if (dots) {
        for (uint32_t q = 0; q < nr; q++) acc[q] = dpg_dot8(ar, a_signed, bp + q * bj, b_signed, K);
      } else if (nr == 4) {
        for (uint32_t k = 0; k < K; k++, bp += bk) {
          const int32_t x = dpg_ld8(ar + k, a_signed, 0) + a_off;
          for (int q = 0; q < 4; q++) acc[q] = dpg_mac(acc[q], x, dpg_ld8(bp + q * bj, b_signed, 0));
        }
      } else {
        for (uint32_t k = 0; k < K; k++, bp += bk) {
          const int32_t x = dpg_ld8(ar + k, a_signed, 0) + a_off;
          for (uint32_t q = 0; q < nr; q++) acc[q] += x * dpg_ld8(bp + q * bj, b_signed, 0);
        }
      }
      for (uint32_t q = 0; q < nr; q++) {
        const uint32_t e = r * N + j + q;
        int64_t v = (int64_t)alpha * (acc[q] + b_off * a_sum);
        if (c->v) v += (int64_t)beta * dpg_param_at(c, e);
        dpg_st(y, yt, e, (int32_t)v);
      }
    }
  }
}

static void gemm8(const uint8_t *a, int a_signed, int32_t a_off, const uint8_t *b, int b_signed, int32_t b_off,
                  const dpg_param_t *c, int32_t alpha, int32_t beta, void *y, dpg_type_t yt, const dpg_gemm_geom_t *g) {
  uint32_t r0, r1;
  dpg_chunk(g->batch * g->M, &r0, &r1);
  /* one copy of the loops per signedness: the byte loads sign- or zero-extend */
  if (a_signed && b_signed) gemm8_rows(1, 1, a, a_off, b, b_off, c, alpha, beta, y, yt, g, r0, r1);
  else if (a_signed) gemm8_rows(1, 0, a, a_off, b, b_off, c, alpha, beta, y, yt, g, r0, r1);
  else if (b_signed) gemm8_rows(0, 1, a, a_off, b, b_off, c, alpha, beta, y, yt, g, r0, r1);
  else gemm8_rows(0, 0, a, a_off, b, b_off, c, alpha, beta, y, yt, g, r0, r1);
}
