/* The instruction cache: a loop whose body is LINES 16-byte lines of straight-line code (4-byte
   nops, four to a line), run ITER times by the first TEAM workers. 16 lines fit a worker's 512 B
   L0; 64 do not, but fit the shared 4 KiB L1, so every core refills them from L2 about once. */
#include <stdio.h>
#include "hal.h"

#ifndef LINES
#define LINES 16
#endif
#ifndef TEAM
#define TEAM 1
#endif
#define ITER 50
#define STR_(x) #x
#define STR(x) STR_(x)

static void body(void *arg) {
  (void)arg;
#pragma clang loop unroll(disable)
  for (int i = 0; i < ITER; i++)
    __asm__ volatile(".balign 16\n.rept " STR(LINES) " * 4\n.word 0x00000013\n.endr");
}

int main(void) {
  hal_fork(TEAM, body, 0);
  printf("icache %d lines on %d cores\n", LINES, TEAM);
  return 0;
}
