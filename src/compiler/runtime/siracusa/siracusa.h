/*
 * siracusa.h: the simulated Siracusa's memory-mapped registers (our own layout; the tables are
 * in src/sim/README.md). Only hal_siracusa.c and crt0.S use them; generated code goes through
 * hal.h.
 */
#ifndef DPG_SIRACUSA_H
#define DPG_SIRACUSA_H

#define SIRACUSA_WORKERS 8
#define SIRACUSA_CONTROLLER 8 /* hart id of the cluster controller */

#define CLUSTER_CTRL_BASE 0x10200000
#define CC_EXIT 0x00     /* W: end the simulation with this exit code */
#define CC_PUTCHAR 0x04  /* W: one byte to stdout */
#define CC_WORKERS 0x08  /* R: number of worker cores */
#define CC_CTRL_HART 0x0c
#define CC_MEASURE 0x10  /* W: 1 starts, 0 ends the measured section (the simulator's energy estimate) */

#define TIMER_BASE 0x10200400
#define TIMER_LO 0x00 /* R: the reading core's cycle counter, low word */
#define TIMER_HI 0x04

#define EU_BASE 0x10200800
#define EU_CORE_ID 0x00     /* R: hart id */
#define EU_TEAM_SIZE 0x04   /* R: cores in the caller's fork (1 outside) */
#define EU_TEAM_INDEX 0x08  /* R: the caller's index in its fork (0 outside) */
#define EU_FORK_FN 0x0c     /* W: function of the next fork */
#define EU_FORK_ARG 0x10    /* W: argument of the next fork; R: the caller's job argument */
#define EU_FORK 0x14        /* W: worker mask: dispatch */
#define EU_WAIT_FORK 0x18   /* R, blocking: next job's function (workers) */
#define EU_DONE 0x1c        /* W: job finished (workers) */
#define EU_JOIN 0x20        /* R, blocking: until the last fork's workers are done */
#define EU_BARRIER 0x24     /* R, blocking: hardware barrier of the caller's team */
#define EU_EVT_TRIGGER 0x28 /* W: core mask: set their software event */
#define EU_EVT_WAIT 0x2c    /* R, blocking: until the caller's software event is set */

#define NEUREKA_BASE 0x10201000 /* N-EUREKA task registers: neureka.h */

#define GUARD_BASE 0x10201400 /* the calling core's write guard (hal.h "write guard") */
#define GUARD_LAYER 0x00    /* W: start guarding for this layer (stack bounds and windows written first) */
#define GUARD_LO 0x04       /* W: start of the next window */
#define GUARD_BYTES 0x08    /* W: its size: adds the window [LO, LO + BYTES) (before LAYER) */
#define GUARD_STACK_LO 0x0c /* W: the core's stack region [LO, HI) */
#define GUARD_STACK_HI 0x10
#define GUARD_END 0x14      /* W: forget the windows declared (any write faults while guarded) */

#define DMA_BASE 0x10201800
#define DMA_L1 0x00
#define DMA_L2 0x04
#define DMA_ROW_BYTES 0x08
#define DMA_L2_STRIDE 0x0c
#define DMA_ROWS 0x10
#define DMA_PUSH_IN 0x14      /* R: queue L2 -> L1, returns the id */
#define DMA_PUSH_OUT 0x18     /* R: queue L1 -> L2, returns the id */
#define DMA_WAIT 0x1c         /* W: id; blocks until done */
#define DMA_OUTSTANDING 0x20  /* R */

#define UDMA_BASE 0x1a102000
#define UDMA_L2 0x00
#define UDMA_L3 0x04
#define UDMA_SIZE 0x08
#define UDMA_CMD 0x0c /* W: 1 = L3 -> L2, 2 = L2 -> L3; blocks until done */

#endif
