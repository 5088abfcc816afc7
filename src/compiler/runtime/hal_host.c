/*
 * hal_host.c: the HAL on a developer's machine (gcc or clang, one thread).
 *
 * A fork runs fn on cores 0..n-1 one after another, so a barrier inside a fork could not wait
 * for cores that have not started: kernels must not need one (they write disjoint outputs),
 * and hal_barrier is a no-op here. DMA and L3 copies are memcpy and complete at once (DMA:
 * deferred to the wait with HAL_HOST_DEFERRED_DMA, see below). The cycle
 * counter is the process's CPU time in nanoseconds (monotonic, wraps at 2^32 like the
 * hardware's). The NPU is emulated: hal_neureka_write fills a register file and commit runs the
 * task with neureka_task_run (neureka_task.c) at once; wait reports a refused task.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hal.h"
#include "neureka.h"

static int current_core = 0;
static int current_cores = 1;

int hal_core_id(void) { return current_core; }
int hal_num_cores(void) { return current_cores; }

void hal_fork(int cores, void (*fn)(void *arg), void *arg) {
  if (cores < 1 || cores > 8) {
    fprintf(stderr, "hal_fork: %d cores requested; the cluster has 1 to 8\n", cores);
    exit(2);
  }
  current_cores = cores;
  for (int id = 0; id < cores; id++) {
    current_core = id;
    fn(arg);
  }
  current_core = 0;
  current_cores = 1;
}

void hal_barrier(void) {}

void hal_measure(int on) { (void)on; } /* the energy estimate is the simulator's */

uint32_t hal_cycles(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (uint32_t)((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec);
}

static uint32_t dma_ids = 0;

#ifdef HAL_HOST_DEFERRED_DMA
/*
 * Tests build with HAL_HOST_DEFERRED_DMA: a transfer is only queued, and its bytes move when
 * the program waits for it (or for a later one: the cluster DMA completes in order). Code that
 * reads a DMA'd buffer without waiting then reads stale data, as it could on the hardware.
 */
typedef struct { uint8_t *dst; const uint8_t *src; uint32_t rows, row_bytes, dst_stride, src_stride; } transfer_t;
#define QUEUE 4096
static transfer_t queue[QUEUE];
static uint32_t done_ids = 0; /* transfers 1..done_ids have moved their bytes */

static hal_dma_t dma_push(void *dst, const void *src, uint32_t rows, uint32_t row_bytes, uint32_t dst_stride, uint32_t src_stride) {
  if (dma_ids - done_ids >= QUEUE) {
    fprintf(stderr, "hal_dma: more than %d transfers queued without a wait\n", QUEUE);
    exit(2);
  }
  queue[dma_ids % QUEUE] = (transfer_t){(uint8_t *)dst, (const uint8_t *)src, rows, row_bytes, dst_stride, src_stride};
  return ++dma_ids;
}

void hal_dma_wait(hal_dma_t id) {
  if (id == 0 || id > dma_ids) {
    fprintf(stderr, "hal_dma_wait: transfer %u was never queued\n", (unsigned)id);
    exit(2);
  }
  for (; done_ids < id; done_ids++) {
    const transfer_t *t = &queue[done_ids % QUEUE];
    for (uint32_t r = 0; r < t->rows; r++) memcpy(t->dst + r * t->dst_stride, t->src + r * t->src_stride, t->row_bytes);
  }
}
#else
/* Transfers complete at once: the bytes move when the transfer is queued. */
static hal_dma_t dma_push(void *dst, const void *src, uint32_t rows, uint32_t row_bytes, uint32_t dst_stride, uint32_t src_stride) {
  for (uint32_t r = 0; r < rows; r++) memcpy((uint8_t *)dst + r * dst_stride, (const uint8_t *)src + r * src_stride, row_bytes);
  return ++dma_ids;
}

void hal_dma_wait(hal_dma_t id) { (void)id; }
#endif

hal_dma_t hal_dma_in(void *l1_dst, const void *l2_src, uint32_t bytes) {
  return dma_push(l1_dst, l2_src, 1, bytes, bytes, bytes);
}

hal_dma_t hal_dma_out(void *l2_dst, const void *l1_src, uint32_t bytes) {
  return dma_push(l2_dst, l1_src, 1, bytes, bytes, bytes);
}

hal_dma_t hal_dma_in_2d(void *l1_dst, const void *l2_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  return dma_push(l1_dst, l2_src, rows, row_bytes, row_bytes, l2_stride);
}

hal_dma_t hal_dma_out_2d(void *l2_dst, const void *l1_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  return dma_push(l2_dst, l1_src, rows, row_bytes, l2_stride, row_bytes);
}

void hal_l3_read(void *l2_dst, const void *l3_src, uint32_t bytes) { memcpy(l2_dst, l3_src, bytes); }
void hal_l3_write(void *l3_dst, const void *l2_src, uint32_t bytes) { memcpy(l3_dst, l2_src, bytes); }

/* ---- write guard: bounds are checked on the simulator only ---- */
void hal_guard_begin(uint32_t layer, const void *lo, uint32_t bytes) { (void)layer; (void)lo; (void)bytes; }
void hal_guard_allow(const void *lo, uint32_t bytes) { (void)lo; (void)bytes; }
void hal_guard_end(void) {}

/* Address registers hold host pointers (64-bit here), hence uintptr_t values. */
static uintptr_t neureka_regs[NEUREKA_NREGS];
static int neureka_status = NEUREKA_OK;

void hal_neureka_write(uint32_t reg, uintptr_t value) {
  if (reg % 4 != 0 || reg >= NEUREKA_REGS || reg < NEUREKA_INPUT) {
    fprintf(stderr, "hal_neureka_write: 0x%x is not a task register of neureka.h\n", (unsigned)reg);
    exit(2);
  }
  neureka_regs[reg / 4] = value;
}

void hal_neureka_commit(void) { neureka_status = neureka_task_run(neureka_regs); }

void hal_neureka_wait(void) {
  if (neureka_status != NEUREKA_OK) {
    fprintf(stderr, "hal_neureka_wait: N-EUREKA refused the task (neureka.h error %d)\n", neureka_status);
    exit(2);
  }
}

void hal_exit(int code) {
  fflush(stdout);
  exit(code);
}
