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

/* y[n, c, oh, ow] = max over the window inside the input (padding never wins; M = C). */
void dpg_maxpool(const void *x, dpg_type_t t, void *y, const dpg_conv_geom_t *g, dpg_layout_t layout) {
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
