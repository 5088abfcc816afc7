/* Fork on 1..8 cores: each core of the team writes its index, the team size and its hart id. */
#include <stdio.h>
#include "hal.h"

static volatile int seen_index[8], seen_size[8], seen_hart[8], calls;

static void work(void *arg) {
  int k = hal_core_id();
  int hart;
  __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
  seen_index[k] = k + *(int *)arg;
  seen_size[k] = hal_num_cores();
  seen_hart[k] = hart;
}

int main(void) {
  printf("controller %d/%d\n", hal_core_id(), hal_num_cores());
  for (int n = 1; n <= 8; n++) {
    for (int i = 0; i < 8; i++) seen_index[i] = seen_size[i] = seen_hart[i] = -1;
    int base = 100 * n;
    hal_fork(n, work, &base);
    printf("n=%d:", n);
    for (int i = 0; i < 8; i++) printf(" %d/%d/%d", seen_index[i], seen_size[i], seen_hart[i]);
    printf("\n");
  }
  return 0;
}
