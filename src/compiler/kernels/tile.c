/*
 * tile.c: moving one tile of a tensor between its home buffer (L2) and its dense L1 buffer.
 *
 * A tile is a box [start, start + size) of a row-major tensor. The dims after the last cut one
 * are whole, so each of the box's rows is one contiguous run in L2; the cut dim right before
 * gives the rows of one 2D transfer (L2 stride = that dim's pitch) and the dims before it are
 * a loop of 2D transfers. The cluster DMA completes transfers in order, so waiting for the
 * last id returned waits for all of them.
 */
#include "dpg_kernels.h"

/* One command moves less than 128 KiB (the DMA's size field); rows are grouped below that. */
#define DPG_DMA_MAX_BYTES 65536u

static hal_dma_t push(int out, uint8_t *l1, uint8_t *l2, uint32_t rows, uint32_t run, uint32_t stride) {
  return out ? hal_dma_out_2d(l2, l1, rows, run, stride) : hal_dma_in_2d(l1, l2, rows, run, stride);
}

hal_dma_t dpg_dma_box(void *l1, void *home, const dpg_tensor_dims_t *t, const uint32_t *start, const uint32_t *size, int out) {
  const uint32_t r = t->rank;
  if (r == 0) return push(out, (uint8_t *)l1, (uint8_t *)home, 1, t->elem, t->elem);
  /* d: the outermost dim of the contiguous run (every dim after it is whole). */
  uint32_t d = r - 1;
  while (d > 0 && size[d] == t->shape[d]) d--;
  uint32_t pitch[DPG_MAX_RANK]; /* bytes between consecutive indices of each dim in home */
  uint32_t p = t->elem;
  for (int k = (int)r - 1; k >= 0; k--) { pitch[k] = p; p *= t->shape[k]; }
  uint32_t run = t->elem;
  for (uint32_t k = d; k < r; k++) run *= size[k];
  if (run == 0) return 0;
  /* The row dim of the 2D transfers: d - 1 when there is one, else a single row. */
  const int rowDim = (int)d - 1;
  const uint32_t rows = rowDim >= 0 ? size[rowDim] : 1, stride = rowDim >= 0 ? pitch[rowDim] : run;
  uint32_t base = 0;
  for (uint32_t k = 0; k < r; k++) base += start[k] * pitch[k];
  uint32_t idx[DPG_MAX_RANK] = {0};
  uint8_t *dst = (uint8_t *)l1;
  hal_dma_t id = 0;
  for (;;) {
    uint32_t off = base;
    for (int k = 0; k < rowDim; k++) off += idx[k] * pitch[k];
    /* Rows per command under the size limit (a run longer than that goes in 1D pieces). */
    if (run > DPG_DMA_MAX_BYTES) {
      for (uint32_t row = 0; row < rows; row++)
        for (uint32_t b = 0; b < run; b += DPG_DMA_MAX_BYTES) {
          const uint32_t n = run - b < DPG_DMA_MAX_BYTES ? run - b : DPG_DMA_MAX_BYTES;
          id = push(out, dst + row * run + b, (uint8_t *)home + off + row * stride + b, 1, n, n);
        }
    } else {
      const uint32_t per = DPG_DMA_MAX_BYTES / run;
      for (uint32_t row = 0; row < rows; row += per) {
        const uint32_t n = rows - row < per ? rows - row : per;
        id = push(out, dst + row * run, (uint8_t *)home + off + row * stride, n, run, stride);
      }
    }
    dst += rows * run;
    /* Next index of the outer dims (an odometer over dims 0 .. rowDim - 1). */
    int k = rowDim - 1;
    while (k >= 0 && ++idx[k] == size[k]) idx[k--] = 0;
    if (k < 0) break;
  }
  return id;
}
