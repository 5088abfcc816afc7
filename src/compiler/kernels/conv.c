/*
 * conv.c: direct convolution with an int32 accumulator (Conv and DWConv, CHW and HWC, 1-D and
 * 2-D, any group) and max pooling. The cores split the output elements.
 */
#include "dpg_kernels.h"
#include "xpulp.h"

/** Flat index of x[n, c, h, w] in the layout. */
static inline uint32_t at_x(const dpg_conv_geom_t *g, dpg_layout_t l, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
  return l == DPG_CHW ? ((n * g->C + c) * g->H + h) * g->W + w : ((n * g->H + h) * g->W + w) * g->C + c;
}

/** Coordinates (n, m, oh, ow) of flat output element i in the layout. */
static inline void out_coords(const dpg_conv_geom_t *g, dpg_layout_t l, uint32_t i, uint32_t *n, uint32_t *m,
                              uint32_t *oh, uint32_t *ow) {
  if (l == DPG_CHW) {
    *ow = i % g->OW; i /= g->OW;
    *oh = i % g->OH; i /= g->OH;
    *m = i % g->M; *n = i / g->M;
  } else {
    *m = i % g->M; i /= g->M;
    *ow = i % g->OW; i /= g->OW;
    *oh = i % g->OH; *n = i / g->OH;
  }
}

/*
 * y[n, m, oh, ow] = bias[m] + sum_{c, kh, kw} (x[n, g*Cg + c, oh*sh - pt + kh, ow*sw - pl + kw] + x_off) * w[m, c, kh, kw]
 * (padding contributes zero; x_off is Generic's input offset, 0 otherwise).
 */
void dpg_conv(const void *x, dpg_type_t xt, int32_t x_off, const int8_t *w, const int32_t *bias,
              void *y, dpg_type_t yt, const dpg_conv_geom_t *g, dpg_layout_t layout) {
  const uint32_t Cg = g->C / g->group, Mg = g->M / g->group;
  uint32_t lo, hi;
  dpg_chunk(g->N * g->M * g->OH * g->OW, &lo, &hi);
  for (uint32_t i = lo; i < hi; i++) {
    uint32_t n, m, oh, ow;
    out_coords(g, layout, i, &n, &m, &oh, &ow);
    const uint32_t c0 = (m / Mg) * Cg;
    int32_t acc = bias ? bias[m] : 0;
    for (uint32_t kh = 0; kh < g->KH; kh++) {
      const int32_t ih = (int32_t)(oh * g->stride_h + kh) - (int32_t)g->pad_top;
      if (ih < 0 || ih >= (int32_t)g->H) continue;
      for (uint32_t kw = 0; kw < g->KW; kw++) {
        const int32_t iw = (int32_t)(ow * g->stride_w + kw) - (int32_t)g->pad_left;
        if (iw < 0 || iw >= (int32_t)g->W) continue;
        for (uint32_t c = 0; c < Cg; c++) {
          const uint32_t wi = layout == DPG_CHW ? ((m * Cg + c) * g->KH + kh) * g->KW + kw
                                                : ((m * g->KH + kh) * g->KW + kw) * Cg + c;
          acc += (dpg_ld(x, xt, at_x(g, layout, n, c0 + c, (uint32_t)ih, (uint32_t)iw)) + x_off) * w[wi];
        }
      }
    }
    dpg_st(y, yt, i, acc);
  }
}

/*
 * HWC with 8-bit elements: each output pixel's window clipped to the input once, then its
 * channels four at a time (a packed max per tap). The cores split (pixel, channel group) units:
 * whole pixels when there are many, the channel groups of a few (a global pool has one pixel).
 */
static inline __attribute__((always_inline)) void maxpool_hwc8(int sgn, const uint8_t *x, uint8_t *y,
                                                               const dpg_conv_geom_t *g) {
  const uint32_t C = g->C, H = g->H, W = g->W, OH = g->OH, OW = g->OW, groups = (C + 3) / 4;
  const uint32_t WC = W * C;
  /* Words at C-byte steps from an aligned x are aligned: plain loads the compiler may schedule. */
  const int aligned = C % 4 == 0 && ((uintptr_t)x & 3) == 0;
  uint32_t lo, hi;
  dpg_chunk(g->N * OH * OW * groups, &lo, &hi);
  uint32_t p = lo / groups, gi = lo - p * groups;
  for (uint32_t u = lo; u < hi;) {
    const uint32_t ow = p % OW, oh = (p / OW) % OH, n = p / (OW * OH);
    /* The window's rows [kh0, kh1) and columns [kw0, kw1) inside the input. */
    const int32_t ih = (int32_t)(oh * g->stride_h) - (int32_t)g->pad_top, iw = (int32_t)(ow * g->stride_w) - (int32_t)g->pad_left;
    const int32_t kh0 = ih < 0 ? -ih : 0, kw0 = iw < 0 ? -iw : 0;
    const int32_t kh1 = (int32_t)H - ih < (int32_t)g->KH ? (int32_t)H - ih : (int32_t)g->KH;
    const int32_t kw1 = (int32_t)W - iw < (int32_t)g->KW ? (int32_t)W - iw : (int32_t)g->KW;
    const uint32_t rows = kh1 > kh0 ? (uint32_t)(kh1 - kh0) : 0, cols = kw1 > kw0 ? (uint32_t)(kw1 - kw0) : 0;
    const uint8_t *const win = x + ((n * H + (uint32_t)(ih + kh0)) * W + (uint32_t)(iw + kw0)) * C;
    uint8_t *const yp = y + p * C;
    const uint32_t g_end = hi - u < groups - gi ? gi + (hi - u) : groups;
    u += g_end - gi;
    for (; gi < g_end; gi++) {
      const uint32_t c = 4 * gi, lanes = C - c < 4 ? C - c : 4;
      if (!rows || !cols) { /* only padding: the generic kernel's INT32_MIN, truncated */
        for (uint32_t l = 0; l < lanes; l++) yp[c + l] = 0;
        continue;
      }
      if (lanes == 4) {
        uint32_t v = dpg_load4(win + c);
        for (uint32_t r = 0; r < rows; r++) {
          const uint8_t *q = win + r * WC + c;
          if (aligned)
            for (uint32_t k = 0; k < cols; k++, q += C) v = sgn ? dpg_max4_s8(v, dpg_load4a(q)) : dpg_max4_u8(v, dpg_load4a(q));
          else
            for (uint32_t k = 0; k < cols; k++, q += C) v = sgn ? dpg_max4_s8(v, dpg_load4(q)) : dpg_max4_u8(v, dpg_load4(q));
        }
        yp[c] = (uint8_t)v; yp[c + 1] = (uint8_t)(v >> 8); yp[c + 2] = (uint8_t)(v >> 16); yp[c + 3] = (uint8_t)(v >> 24);
        continue;
      }
      for (uint32_t l = 0; l < lanes; l++) { /* the last channels, one at a time */
        int32_t best = sgn ? (int8_t)win[c + l] : win[c + l];
        for (uint32_t r = 0; r < rows; r++)
          for (uint32_t k = 0; k < cols; k++) {
            const uint8_t b = win[r * WC + k * C + c + l];
            best = dpg_max(best, sgn ? (int8_t)b : b);
          }
        yp[c + l] = (uint8_t)best;
      }
    }
    gi = 0;
    p++;
  }
}
static __attribute__((noinline)) void maxpool_hwc_s8(const uint8_t *x, uint8_t *y, const dpg_conv_geom_t *g) { maxpool_hwc8(1, x, y, g); }
static __attribute__((noinline)) void maxpool_hwc_u8(const uint8_t *x, uint8_t *y, const dpg_conv_geom_t *g) { maxpool_hwc8(0, x, y, g); }

/* y[n, c, oh, ow] = max over the window inside the input (padding never wins; M = C). */
void dpg_maxpool(const void *x, dpg_type_t t, void *y, const dpg_conv_geom_t *g, dpg_layout_t layout) {
  if (layout == DPG_HWC && (t == DPG_S8 || t == DPG_U8)) {
    (t == DPG_S8 ? maxpool_hwc_s8 : maxpool_hwc_u8)((const uint8_t *)x, (uint8_t *)y, g);
    return;
  }
  uint32_t lo, hi;
  dpg_chunk(g->N * g->C * g->OH * g->OW, &lo, &hi);
  for (uint32_t i = lo; i < hi; i++) {
    uint32_t n, c, oh, ow;
    out_coords(g, layout, i, &n, &c, &oh, &ow);
    int32_t best = INT32_MIN;
    for (uint32_t kh = 0; kh < g->KH; kh++) {
      const int32_t ih = (int32_t)(oh * g->stride_h + kh) - (int32_t)g->pad_top;
      if (ih < 0 || ih >= (int32_t)g->H) continue;
      for (uint32_t kw = 0; kw < g->KW; kw++) {
        const int32_t iw = (int32_t)(ow * g->stride_w + kw) - (int32_t)g->pad_left;
        if (iw < 0 || iw >= (int32_t)g->W) continue;
        best = dpg_max(best, dpg_ld(x, t, at_x(g, layout, n, c, (uint32_t)ih, (uint32_t)iw)));
      }
    }
    dpg_st(y, t, i, best);
  }
}
