/* Software events: inside one fork, core k sleeps on its event until core k-1 triggers it (a
   relay 0 -> 1 -> ... -> 7); each core records when it was triggered and when it woke.
   Prints the number of violations (a core woke before its trigger + 2 cycles). */
#include <stdio.h>
#include "hal.h"
#include "siracusa.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))
static volatile uint32_t triggered[8], woke[8];

static void spin(int n) { for (volatile int i = 0; i < n; i++) {} }

static void relay(void *arg) {
  (void)arg;
  int k = hal_core_id();
  if (k > 0) {
    (void)REG(EU_BASE, EU_EVT_WAIT);
    woke[k] = hal_cycles();
  }
  spin(50);
  if (k < 7) {
    triggered[k + 1] = hal_cycles();
    REG(EU_BASE, EU_EVT_TRIGGER) = 1u << (k + 1);
  }
}

int main(void) {
  hal_fork(8, relay, 0);
  int bad = 0;
  for (int k = 1; k < 8; k++) bad += (int32_t)(woke[k] - triggered[k]) < 2;
  for (int k = 2; k < 8; k++) bad += (int32_t)(woke[k] - woke[k - 1]) < 50;
  printf("events bad %d span %u\n", bad, woke[7] - woke[1]);
  return bad;
}
