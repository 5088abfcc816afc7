/* The measured section (hal_measure): 100 L1 loads before it, 1000 on the controller and 8 x 500
   on the workers inside it, 100 after; the simulator counts only the inside for the energy estimate. */
#include <stdio.h>
#include "hal.h"

static volatile int32_t words[64] HAL_L1;
static volatile int32_t sums[8];

static int32_t loads(int n) {
  int32_t s = 0;
  for (int i = 0; i < n; i++) s += words[i & 63];
  return s;
}

static void job(void *arg) {
  (void)arg;
  sums[hal_core_id()] = loads(500);
}

int main(void) {
  for (int i = 0; i < 64; i++) words[i] = 1;
  int32_t s = loads(100);
  hal_measure(1);
  s += loads(1000);
  hal_fork(8, job, 0);
  hal_measure(0);
  s += loads(100);
  for (int k = 0; k < 8; k++) s += sums[k];
  printf("measure %d\n", (int)s);
  return 0;
}
