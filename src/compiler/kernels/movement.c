/*
 * movement.c: kernels that move data without arithmetic. Transpose, Pad, Slice, Concat and
 * Gather are all strided N-d copies (codegen computes the strides; Pad first fills the output
 * with its value in a separate fork). The cores split the copied elements.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

/** Stores a word at any address (the cores split misaligned words themselves; C would store bytes). */
#if defined(DPG_XPULP)
static inline void store4(void *p, uint32_t v) { __asm__ volatile("sw %0, 0(%1)" : : "r"(v), "r"(p) : "memory"); }
#else
static inline void store4(void *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
#endif

/*
 * A whole block of the two innermost dims of a byte copy (n1 rows of n0 elements): one cursor
 * step per block instead of one per row. Rows contiguous on both sides (Transpose moving
 * groups of channels, say) go a word at a time when n0 is a multiple of 4.
 */
static void copy_block8(uint8_t *d, const uint8_t *s, uint32_t n1, uint32_t n0, int32_t sd1, int32_t ss1, int32_t sd0, int32_t ss0) {
  if (sd0 == 1 && ss0 == 1 && (n0 & 3) == 0) {
    for (uint32_t r = 0; r < n1; r++, d += sd1, s += ss1)
      for (uint32_t k = 0; k < n0; k += 4) store4(d + k, dpg_load4(s + k));
    return;
  }
  for (uint32_t r = 0; r < n1; r++, d += sd1, s += ss1)
    for (uint32_t k = 0; k < n0; k++) d[(int32_t)k * sd0] = s[(int32_t)k * ss0];
}

void dpg_fill(void *dst, dpg_type_t t, uint32_t n, int32_t v) {
  uint32_t lo, hi;
  dpg_chunk(n, &lo, &hi);
  for (uint32_t i = lo; i < hi; i++) dpg_st(dst, t, i, v);
}

/* dst[off0] = src[off1] for every element of the walk. */
void dpg_copy_nd(void *dst, dpg_type_t dt, const void *src, dpg_type_t st, const dpg_walk_t *walk_l2) {
  /* The walk is a constant in L2 (12-cycle loads), read at every run: work on a copy in L1. */
  dpg_walk_t w;
  dpg_walk_copy(&w, walk_l2);
  const dpg_walk_t *walk = &w;
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(walk), &lo, &hi);
  if (lo >= hi) return;
  dpg_cursor_t c;
  dpg_cursor_at(&c, walk, lo);
  if (dt != st) { /* a Concat of int8 and uint8 data into int16, say: convert element by element */
    for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&c, walk))
      dpg_st(dst, dt, (uint32_t)c.off[0], dpg_ld(src, st, (uint32_t)c.off[1]));
    return;
  }
  const uint32_t elem = dpg_size(dt);
  const uint32_t last = walk->rank ? walk->rank - 1 : 0;
  for (uint32_t i = lo; i < hi;) {
    /* At the start of a row: the rows left in this block of the two innermost dims (or in the
       core's share) in one copy_block8, when there are at least two of them. A core's share
       rarely starts at a block's first row. */
    uint32_t n1 = 0;
    if (elem == 1 && walk->rank >= 2 && c.idx[last] == 0) {
      n1 = walk->shape[last - 1] - c.idx[last - 1];
      const uint32_t fit = (hi - i) / walk->shape[last];
      if (n1 > fit) n1 = fit;
    }
    if (n1 >= 2) {
      const uint32_t n0 = walk->shape[last];
      copy_block8((uint8_t *)dst + c.off[0], (const uint8_t *)src + c.off[1], n1, n0, walk->stride[0][last - 1],
                  walk->stride[1][last - 1], walk->stride[0][last], walk->stride[1][last]);
      i += n0 * n1;
      if (i >= hi) break;
      /* to the last element copied, then one odometer step */
      c.idx[last] = n0 - 1;
      c.idx[last - 1] += n1 - 1;
      for (int k = 0; k < 3; k++) c.off[k] += walk->stride[k][last] * (int32_t)(n0 - 1) + walk->stride[k][last - 1] * (int32_t)(n1 - 1);
      dpg_cursor_next(&c, walk);
      continue;
    }
    /* a contiguous run along the innermost dim, then the odometer */
    uint32_t run = walk->rank ? walk->shape[last] - c.idx[last] : 1;
    if (run > hi - i) run = hi - i;
    const int32_t sd = walk->rank ? walk->stride[0][last] : 0, ss = walk->rank ? walk->stride[1][last] : 0;
    if (elem == 1) {
      uint8_t *d = (uint8_t *)dst + c.off[0];
      const uint8_t *s = (const uint8_t *)src + c.off[1];
      for (uint32_t k = 0; k < run; k++) d[(int32_t)k * sd] = s[(int32_t)k * ss];
    } else if (elem == 2) {
      uint16_t *d = (uint16_t *)dst + c.off[0];
      const uint16_t *s = (const uint16_t *)src + c.off[1];
      for (uint32_t k = 0; k < run; k++) d[(int32_t)k * sd] = s[(int32_t)k * ss];
    } else {
      uint32_t *d = (uint32_t *)dst + c.off[0];
      const uint32_t *s = (const uint32_t *)src + c.off[1];
      for (uint32_t k = 0; k < run; k++) d[(int32_t)k * sd] = s[(int32_t)k * ss];
    }
    i += run;
    if (i >= hi) break;
    if (walk->rank) {
      /* jump to the start of the next run */
      c.idx[last] += run - 1;
      for (int k = 0; k < 3; k++) c.off[k] += walk->stride[k][last] * (int32_t)(run - 1);
      dpg_cursor_next(&c, walk);
    }
  }
}

/* y[o] = sum over the reduced elements of x (64-bit); mean: floor(sum/count + 1/2). */
void dpg_reduce(const void *x, dpg_type_t xt, void *y, dpg_type_t yt, const dpg_walk_t *kept,
                const dpg_walk_t *red, int mean) {
  const uint32_t count = dpg_walk_size(red);
  uint32_t lo, hi;
  dpg_chunk(dpg_walk_size(kept), &lo, &hi);
  if (lo >= hi) return;
  dpg_cursor_t o;
  dpg_cursor_at(&o, kept, lo);
  for (uint32_t i = lo; i < hi; i++, dpg_cursor_next(&o, kept)) {
    int64_t sum = 0;
    dpg_cursor_t r;
    dpg_cursor_at(&r, red, 0);
    for (uint32_t k = 0; k < count; k++, dpg_cursor_next(&r, red))
      sum += dpg_ld(x, xt, (uint32_t)(o.off[0] + r.off[0]));
    dpg_st(y, yt, i, (int32_t)(mean ? dpg_floordiv(2 * sum + count, 2 * (int64_t)count) : sum));
  }
}
