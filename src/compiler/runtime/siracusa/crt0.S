# Entry of every Siracusa core. All nine harts start here; mhartid tells them apart.
# The controller (hart 8) gets the top stack of L1 and runs main(), then exit(main's result).
# Workers (harts 0..7) take their stacks below it and loop: sleep in the event unit until a
# fork hands them a job, run fn(arg), report done. The loader zeroes all memory before it
# writes the segments, so .bss needs no clearing here.
#include "siracusa.h"

  .section .text.start, "ax"
  .globl _start
_start:
  csrr t0, mhartid
  li t1, SIRACUSA_CONTROLLER
  beq t0, t1, controller
  # Worker k: stack top = __worker_stacks_top - k * __worker_stack_size.
  la sp, __worker_stacks_top
  la t1, __worker_stack_size
  mul t1, t0, t1
  sub sp, sp, t1
  li s0, EU_BASE
1:
  lw t0, EU_WAIT_FORK(s0)
  lw a0, EU_FORK_ARG(s0)
  jalr t0
  sw zero, EU_DONE(s0)
  j 1b

controller:
  la sp, __controller_stack_top
  li a0, 0
  li a1, 0
  call main
  call exit
2:
  j 2b
