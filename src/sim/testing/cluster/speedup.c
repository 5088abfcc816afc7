/* Parallel speedup: the same compute loop over an L1 array on 1, 2, 4 and 8 cores. */
#include <stdio.h>
#include "hal.h"

#define N 4096
static int32_t data[N] HAL_L1;
static int32_t partial[8] HAL_L1;

static void kernel(void *arg) {
  (void)arg;
  int k = hal_core_id(), n = hal_num_cores();
  int chunk = N / n;
  int32_t acc = 0;
  for (int i = k * chunk; i < (k + 1) * chunk; i++) acc += data[i] * (i & 7) + (data[i] >> 3);
  partial[k] = acc;
}

int main(void) {
  for (int i = 0; i < N; i++) data[i] = i * 3 - 100;
  int32_t expect = 0;
  for (int i = 0; i < N; i++) expect += data[i] * (i & 7) + (data[i] >> 3);
  for (int n = 1; n <= 8; n *= 2) {
    uint32_t t0 = hal_cycles();
    hal_fork(n, kernel, 0);
    uint32_t t = hal_cycles() - t0;
    int32_t sum = 0;
    for (int i = 0; i < n; i++) sum += partial[i];
    printf("cores %d cycles %u %s\n", n, t, sum == expect ? "ok" : "WRONG");
  }
  return 0;
}
