/* Barrier ordering: in every round each core arrives after a different delay, then checks that
   every other core's write of this round is visible and that its clock is past every core's
   arrival. Prints the number of violations (must be 0). */
#include <stdio.h>
#include "hal.h"

#define ROUNDS 5
static volatile int stamp[8];
static volatile uint32_t arrive[8];
static volatile int errors;

static void spin(int n) { for (volatile int i = 0; i < n; i++) {} }

static void work(void *arg) {
  (void)arg;
  int k = hal_core_id(), n = hal_num_cores();
  for (int r = 1; r <= ROUNDS; r++) {
    spin(((k * 7 + r * 3) % 8) * 40);
    stamp[k] = r;
    arrive[k] = hal_cycles();
    hal_barrier();
    uint32_t now = hal_cycles();
    for (int j = 0; j < n; j++) {
      if (stamp[j] < r) errors++;
      if ((int32_t)(now - arrive[j]) < 0) errors++;
    }
    hal_barrier();
  }
}

int main(void) {
  hal_fork(8, work, 0);
  hal_fork(3, work, 0);
  printf("barrier errors %d\n", errors);
  return errors;
}
