/* Cluster DMA: 1D in / out, 2D in / out with an L2 stride, several outstanding transfers;
   every byte checked, cycles from push to completion printed. */
#include <stdio.h>
#include "hal.h"

static uint8_t src[8192];
static uint8_t dst2[8192];
static uint8_t l1buf[8192] HAL_L1;

static int check(const uint8_t *p, int n, int seed) {
  int bad = 0;
  for (int i = 0; i < n; i++) bad += p[i] != (uint8_t)(i * 7 + seed);
  return bad;
}

int main(void) {
  int bad = 0;
  for (int i = 0; i < 8192; i++) src[i] = (uint8_t)(i * 7 + 1);

  /* 1D in, 4 KiB */
  uint32_t t0 = hal_cycles();
  hal_dma_t id = hal_dma_in(l1buf, src, 4096);
  hal_dma_wait(id);
  uint32_t t1d = hal_cycles() - t0;
  bad += check(l1buf, 4096, 1);
  bad += l1buf[4096] != 0; /* nothing beyond */

  /* 1D out (odd size, odd addresses) */
  for (int i = 0; i < 1001; i++) l1buf[i + 3] = (uint8_t)(i * 7 + 5);
  hal_dma_wait(hal_dma_out(dst2 + 1, l1buf + 3, 1001));
  bad += check(dst2 + 1, 1001, 5);
  bad += dst2[0] != 0 || dst2[1002] != 0;

  /* 2D in: 16 rows of 40 bytes, L2 stride 100 */
  for (int i = 0; i < 8192; i++) l1buf[i] = 0;
  t0 = hal_cycles();
  hal_dma_wait(hal_dma_in_2d(l1buf, src + 10, 16, 40, 100));
  uint32_t t2d = hal_cycles() - t0;
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 40; c++) bad += l1buf[r * 40 + c] != (uint8_t)((10 + r * 100 + c) * 7 + 1);
  bad += l1buf[640] != 0;

  /* 2D out: back to L2 with stride 64 */
  for (int i = 0; i < 8192; i++) dst2[i] = 0;
  hal_dma_wait(hal_dma_out_2d(dst2, l1buf, 16, 40, 64));
  for (int r = 0; r < 16; r++) {
    for (int c = 0; c < 40; c++) bad += dst2[r * 64 + c] != l1buf[r * 40 + c];
    for (int c = 40; c < 64; c++) bad += dst2[r * 64 + c] != 0;
  }

  /* 4 outstanding 1 KiB transfers, then one wait for the last */
  t0 = hal_cycles();
  hal_dma_t ids[4];
  for (int k = 0; k < 4; k++) ids[k] = hal_dma_in(l1buf + 1024 * k, src + 1024 * k, 1024);
  hal_dma_wait(ids[3]);
  uint32_t t4 = hal_cycles() - t0;
  bad += check(l1buf, 4096, 1);
  /* the same four one after another */
  t0 = hal_cycles();
  for (int k = 0; k < 4; k++) hal_dma_wait(hal_dma_in(l1buf + 1024 * k, src + 1024 * k, 1024));
  uint32_t t4s = hal_cycles() - t0;

  /* an empty transfer completes */
  hal_dma_wait(hal_dma_in(l1buf, src, 0));

  printf("dma bad %d 1d4096 %u 2d16x40 %u 4x1024 %u serial %u\n", bad, t1d, t2d, t4, t4s);
  return bad != 0;
}
