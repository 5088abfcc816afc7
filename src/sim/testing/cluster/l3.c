/* L3 through the uDMA: initialised data linked into L3 read to L2; L2 written to L3 and back. */
#include <stdio.h>
#include "hal.h"

static uint32_t table[1024] HAL_L3 = { /* not const: one section cannot hold const and writable data */
#define R4(i) (i) * 2654435761u, (i + 1) * 2654435761u, (i + 2) * 2654435761u, (i + 3) * 2654435761u
#define R16(i) R4(i), R4(i + 4), R4(i + 8), R4(i + 12)
#define R64(i) R16(i), R16(i + 16), R16(i + 32), R16(i + 48)
  R64(0), R64(64), R64(128), R64(192), R64(256), R64(320), R64(384), R64(448),
  R64(512), R64(576), R64(640), R64(704), R64(768), R64(832), R64(896), R64(960),
};
static uint32_t scratch[1024] HAL_L3;
static uint32_t buf[1024];
static uint32_t back[1024];
static const uint8_t weights[256] HAL_WMEM = {1, 2, 3};

int main(void) {
  int bad = 0;
  uint32_t t0 = hal_cycles();
  hal_l3_read(buf, table, sizeof buf);
  uint32_t t = hal_cycles() - t0;
  for (int i = 0; i < 1024; i++) bad += buf[i] != i * 2654435761u;
  for (int i = 0; i < 1024; i++) buf[i] = ~buf[i];
  hal_l3_write(scratch, buf, sizeof buf);
  hal_l3_read(back, scratch, sizeof back);
  for (int i = 0; i < 1024; i++) bad += back[i] != ~(i * 2654435761u);
  printf("l3 bad %d read4096 %u wmem %p\n", bad, t, (void *)weights);
  return bad != 0;
}
