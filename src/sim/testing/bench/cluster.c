/* 8 workers busy: each runs the kernel on its own L1 slice (REPS x 1 KiB). */
#include <stdio.h>
#include "hal.h"
#include "kernel.h"

#ifndef REPS
#define REPS 200
#endif
#define N 1024
static int8_t a[8][N] HAL_L1;
static int8_t b[8][N] HAL_L1;
static int32_t out[8][N / 16] HAL_L1;
static uint32_t hash[8];

static void work(void *arg) {
  (void)arg;
  int k = hal_core_id();
  hash[k] = bench_kernel(a[k], b[k], out[k], N, REPS);
}

int main(void) {
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < N; i++) { a[k][i] = (int8_t)(i * 7 + k); b[k][i] = (int8_t)(i * 13 - k); }
  hal_fork(8, work, 0);
  uint32_t h = 0;
  for (int k = 0; k < 8; k++) h ^= hash[k];
  printf("hash %08x\n", h);
  return 0;
}
