/* Exit codes and traps, chosen by -DMODE: 0 main returns 42, 1 a worker calls hal_exit(7),
   2 worker 5 loads from an unmapped address, 3 a runaway loop, 4 a barrier core 0 never
   reaches (deadlock), 5 a core reads the weight memory (only the NPU may), 6 a DMA from beyond
   the end of L2, 7 an N-EUREKA task whose input lies outside memory (the commit faults). */
#include <stdio.h>
#include "hal.h"

static const uint8_t weights[16] HAL_WMEM = {9};

static void worker(void *arg) {
  int mode = *(int *)arg, k = hal_core_id();
  if (mode == 1 && k == 3) hal_exit(7);
  if (mode == 2 && k == 5) printf("%d\n", *(volatile int *)0x30000000);
  if (mode == 4 && k != 0) hal_barrier();
  if (mode == 5 && k == 2) printf("%d\n", *(volatile const uint8_t *)weights);
}

int main(void) {
  int mode = MODE;
  printf("mode %d\n", mode);
  if (mode == 3) for (volatile int i = 0;; i++) {}
  static int8_t l1[64] HAL_L1;
  if (mode == 6) hal_dma_wait(hal_dma_in(l1, (const void *)0x1c1ffff0, 64));
  if (mode == 7) {
    hal_neureka_write(NEUREKA_IN_H, 1); hal_neureka_write(NEUREKA_IN_W, 1);
    hal_neureka_write(NEUREKA_C_IN, 1); hal_neureka_write(NEUREKA_C_OUT, 1);
    hal_neureka_write(NEUREKA_IN_PIX, 1); hal_neureka_write(NEUREKA_OUT_PIX, 1);
    hal_neureka_write(NEUREKA_INPUT, 0x30000000u);
    hal_neureka_commit();
  }
  hal_fork(8, worker, &mode);
  return 42;
}
