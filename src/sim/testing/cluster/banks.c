/* TCDM bank conflicts: 8 cores load in a loop, all from bank 0 (SAME_BANK=1) or each from its
   own bank (SAME_BANK=0). */
#include <stdio.h>
#include "hal.h"

#ifndef SAME_BANK
#define SAME_BANK 1
#endif
#define ITERS 250 /* x 4 loads */
static volatile int32_t words[16 * 8] HAL_L1;
static volatile int32_t sums[8];

static void hammer(void *arg) {
  (void)arg;
  int k = hal_core_id();
  /* word 16k is in bank 0 for every k; word k is in bank k */
  volatile int32_t *p = SAME_BANK ? &words[16 * k] : &words[k];
  int32_t s = 0;
  for (int i = 0; i < ITERS; i++) s += *p + *p + *p + *p;
  sums[k] = s;
}

int main(void) {
  for (int i = 0; i < 16 * 8; i++) words[i] = 1;
  uint32_t t0 = hal_cycles();
  hal_fork(8, hammer, 0);
  uint32_t t = hal_cycles() - t0;
  int ok = 1;
  for (int k = 0; k < 8; k++) ok &= sums[k] == 4 * ITERS;
  printf("same_bank=%d cycles %u %s\n", SAME_BANK, t, ok ? "ok" : "WRONG");
  return 0;
}
