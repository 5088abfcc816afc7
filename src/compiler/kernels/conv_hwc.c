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

/*
 * Dense conv (group 1), split over output pixels. For each pixel, the window (KH x KW x C bytes,
 * zeros in the padding) is gathered once into this core's im2col row; then every output
 * channel is one dot product of that row with the channel's weights [KH, KW, C], four int8
 * products per instruction. `im2col` holds one row of (K + 3) & ~3 bytes per core.
 */
void dpg_rq_conv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                     int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g,
                     uint8_t *im2col) {
  const uint32_t C = g->C, K = g->KH * g->KW * C;
  uint8_t *col = im2col + (uint32_t)hal_core_id() * ((K + 3u) & ~3u);
  uint32_t p0, p1;
  dpg_chunk(g->N * g->OH * g->OW, &p0, &p1);
  for (uint32_t p = p0; p < p1; p++) {
    const uint32_t ow = p % g->OW, oh = (p / g->OW) % g->OH, n = p / (g->OW * g->OH);
    uint8_t *dst = col;
    for (uint32_t kh = 0; kh < g->KH; kh++) {
      const int32_t ih = (int32_t)(oh * g->stride_h + kh) - (int32_t)g->pad_top;
      for (uint32_t kw = 0; kw < g->KW; kw++, dst += C) {
        const int32_t iw = (int32_t)(ow * g->stride_w + kw) - (int32_t)g->pad_left;
        if (ih < 0 || ih >= (int32_t)g->H || iw < 0 || iw >= (int32_t)g->W) {
          for (uint32_t c = 0; c < C; c++) dst[c] = 0;
        } else {
          const uint8_t *src = x + ((n * g->H + (uint32_t)ih) * g->W + (uint32_t)iw) * C;
          for (uint32_t c = 0; c < C; c++) dst[c] = src[c];
        }
      }
    }
    for (uint32_t m = 0; m < g->M; m++) {
      const int32_t acc = dpg_dot8(col, x_signed, (const uint8_t *)(w + m * K), 1, K);
      y[p * g->M + m] = rq8(acc, &mul, &add, p * g->M + m, shift, lo, hi);
    }
  }
}

/*
 * Pointwise (1x1, stride 1, no padding) conv: a GEMM of the pixels [P, C] with the weights
 * [M, C], split over output channels; every output is a dot product of two contiguous rows.
 */
void dpg_rq_pwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, uint32_t pixels, uint32_t C, uint32_t M) {
  uint32_t m0, m1;
  dpg_chunk(M, &m0, &m1);
  for (uint32_t p = 0; p < pixels; p++)
    for (uint32_t m = m0; m < m1; m++) {
      const int32_t acc = dpg_dot8(x + p * C, x_signed, (const uint8_t *)(w + m * C), 1, C);
      y[p * M + m] = rq8(acc, &mul, &add, p * M + m, shift, lo, hi);
    }
}

/*
 * Depthwise conv (group = C = M), weights [C, KH, KW, 1], split over channels: each core
 * convolves its channels over all pixels.
 */
void dpg_rq_dwconv_hwc(const uint8_t *x, int x_signed, const int8_t *w, dpg_param_t mul, dpg_param_t add,
                       int32_t shift, int32_t lo, int32_t hi, uint8_t *y, const dpg_conv_geom_t *g) {
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
      y[p * C + c] = rq8(acc, &mul, &add, p * C + c, shift, lo, hi);
    }
  }
}
