/*
 * neureka_task.c: what one N-EUREKA task computes (neureka.h), written as plainly as possible:
 * it is the reference the host HAL runs and the simulator's model is tested against, so it
 * follows RequantizedConv's definition, not the hardware's dataflow.
 */
#include "neureka.h"

#define R(off) (regs[(off) / 4])

/** The refusal a task's registers earn, or NEUREKA_OK. */
static int check(const uintptr_t regs[NEUREKA_NREGS]) {
  const uintptr_t mode = R(NEUREKA_MODE), pad = R(NEUREKA_PADDING);
  if (mode > NEUREKA_MODE_3X3_DW) return NEUREKA_ERR_MODE;
  if (R(NEUREKA_IN_H) == 0 || R(NEUREKA_IN_W) == 0 || R(NEUREKA_C_IN) == 0 || R(NEUREKA_C_OUT) == 0) return NEUREKA_ERR_DIMS;
  if (mode == NEUREKA_MODE_3X3_DW && R(NEUREKA_C_IN) != R(NEUREKA_C_OUT)) return NEUREKA_ERR_DIMS;
  for (int b = 0; b < 4; b++) {
    const uintptr_t p = (pad >> (8 * b)) & 0xff;
    if (p > 1 || (mode == NEUREKA_MODE_1X1 && p != 0)) return NEUREKA_ERR_PADDING;
  }
  if (mode != NEUREKA_MODE_1X1) {
    /* a 3x3 window needs 3 padded rows and columns */
    if (R(NEUREKA_IN_H) + (pad & 0xff) + ((pad >> 16) & 0xff) < 3) return NEUREKA_ERR_DIMS;
    if (R(NEUREKA_IN_W) + ((pad >> 8) & 0xff) + ((pad >> 24) & 0xff) < 3) return NEUREKA_ERR_DIMS;
  }
  const int32_t lo = (int32_t)(uint32_t)R(NEUREKA_CLIP_LO), hi = (int32_t)(uint32_t)R(NEUREKA_CLIP_HI);
  if (R(NEUREKA_SHIFT) > 62 || lo > hi || lo < -128 || hi > 255) return NEUREKA_ERR_REQUANT;
  if (R(NEUREKA_IN_PIX) < R(NEUREKA_C_IN) || R(NEUREKA_OUT_PIX) < R(NEUREKA_C_OUT)) return NEUREKA_ERR_STRIDE;
  if (R(NEUREKA_FLAGS) & ~(uintptr_t)NEUREKA_FLAG_SIGNED_IN) return NEUREKA_ERR_FLAGS;
  if (R(NEUREKA_WEIGHT_BITS) > 8) return NEUREKA_ERR_WEIGHTS;
  return NEUREKA_OK;
}

/** A weight byte as the PEs see it: its low `bits` bits, two's complement. */
static int32_t weight(uint8_t byte, uint32_t bits) {
  const int32_t low = byte & ((1 << bits) - 1);
  return low >= (1 << (bits - 1)) ? low - (1 << bits) : low;
}

int neureka_task_run(const uintptr_t regs[NEUREKA_NREGS]) {
  const int err = check(regs);
  if (err != NEUREKA_OK) return err;
  const uint8_t *x = (const uint8_t *)R(NEUREKA_INPUT);
  const uint8_t *w = (const uint8_t *)R(NEUREKA_WEIGHTS);
  const uint32_t bits = R(NEUREKA_WEIGHT_BITS) ? (uint32_t)R(NEUREKA_WEIGHT_BITS) : 8;
  const int32_t *mul = (const int32_t *)R(NEUREKA_MUL), *add = (const int32_t *)R(NEUREKA_ADD);
  uint8_t *y = (uint8_t *)R(NEUREKA_OUTPUT);
  const uint32_t mode = (uint32_t)R(NEUREKA_MODE), pad = (uint32_t)R(NEUREKA_PADDING);
  const int32_t H = (int32_t)R(NEUREKA_IN_H), W = (int32_t)R(NEUREKA_IN_W);
  const uint32_t C = (uint32_t)R(NEUREKA_C_IN), M = (uint32_t)R(NEUREKA_C_OUT);
  const uint32_t in_row = (uint32_t)R(NEUREKA_IN_ROW), in_pix = (uint32_t)R(NEUREKA_IN_PIX);
  const uint32_t out_row = (uint32_t)R(NEUREKA_OUT_ROW), out_pix = (uint32_t)R(NEUREKA_OUT_PIX);
  const int sgn = (R(NEUREKA_FLAGS) & NEUREKA_FLAG_SIGNED_IN) != 0;
  const int32_t shift = (int32_t)R(NEUREKA_SHIFT);
  const int32_t lo = (int32_t)(uint32_t)R(NEUREKA_CLIP_LO), hi = (int32_t)(uint32_t)R(NEUREKA_CLIP_HI);
  const int32_t k = mode == NEUREKA_MODE_1X1 ? 1 : 3;
  const int32_t pt = (int32_t)(pad & 0xff), pl = (int32_t)((pad >> 8) & 0xff);
  const int32_t OH = H + pt + (int32_t)((pad >> 16) & 0xff) - (k - 1);
  const int32_t OW = W + pl + (int32_t)((pad >> 24) & 0xff) - (k - 1);

  for (int32_t oh = 0; oh < OH; oh++)
    for (int32_t ow = 0; ow < OW; ow++)
      for (uint32_t m = 0; m < M; m++) {
        int32_t acc = 0;
        for (int32_t kh = 0; kh < k; kh++)
          for (int32_t kw = 0; kw < k; kw++) {
            const int32_t ih = oh + kh - pt, iw = ow + kw - pl;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue; /* zero padding */
            const uint8_t *px = x + (uint32_t)ih * in_row + (uint32_t)iw * in_pix;
            if (mode == NEUREKA_MODE_3X3_DW) {
              const int32_t v = sgn ? (int8_t)px[m] : px[m];
              acc += v * weight(w[(m * 3 + (uint32_t)kh) * 3 + (uint32_t)kw], bits);
            } else {
              const uint8_t *wm = w + ((m * (uint32_t)k + (uint32_t)kh) * (uint32_t)k + (uint32_t)kw) * C;
              for (uint32_t c = 0; c < C; c++) acc += (sgn ? (int8_t)px[c] : px[c]) * weight(wm[c], bits);
            }
          }
        const int64_t v = ((int64_t)acc * mul[m] + add[m]) >> shift;
        y[(uint32_t)oh * out_row + (uint32_t)ow * out_pix + m] = (uint8_t)(v < lo ? lo : v > hi ? hi : v);
      }
  return NEUREKA_OK;
}
