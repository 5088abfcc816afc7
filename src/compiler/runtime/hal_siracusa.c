/*
 * hal_siracusa.c: hal.h on the simulated Siracusa's registers (siracusa/siracusa.h; the
 * register tables are in src/sim/README.md), plus the console and exit the tiny libc needs.
 */
#include "hal.h"
#include "siracusa/siracusa.h"
#include "neureka.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

/* ---- cores ---- */
int hal_core_id(void) { return (int)REG(EU_BASE, EU_TEAM_INDEX); }
int hal_num_cores(void) { return (int)REG(EU_BASE, EU_TEAM_SIZE); }

void hal_fork(int cores, void (*fn)(void *arg), void *arg) {
  if (cores < 1) cores = 1;
  if (cores > SIRACUSA_WORKERS) cores = SIRACUSA_WORKERS;
  REG(EU_BASE, EU_FORK_FN) = (uint32_t)fn;
  REG(EU_BASE, EU_FORK_ARG) = (uint32_t)arg;
  REG(EU_BASE, EU_FORK) = (1u << cores) - 1;
  (void)REG(EU_BASE, EU_JOIN); /* the controller sleeps until every worker is done */
}

void hal_barrier(void) { (void)REG(EU_BASE, EU_BARRIER); }

/* ---- time ---- */
uint32_t hal_cycles(void) { return REG(TIMER_BASE, TIMER_LO); }
void hal_measure(int on) { REG(CLUSTER_CTRL_BASE, CC_MEASURE) = (uint32_t)on; }

/* ---- cluster DMA ---- */
static hal_dma_t dma_push(uint32_t l1, uint32_t l2, uint32_t rows, uint32_t row_bytes, uint32_t stride, int out) {
  REG(DMA_BASE, DMA_L1) = l1;
  REG(DMA_BASE, DMA_L2) = l2;
  REG(DMA_BASE, DMA_ROW_BYTES) = row_bytes;
  REG(DMA_BASE, DMA_L2_STRIDE) = stride;
  REG(DMA_BASE, DMA_ROWS) = rows;
  return REG(DMA_BASE, out ? DMA_PUSH_OUT : DMA_PUSH_IN);
}

hal_dma_t hal_dma_in(void *l1_dst, const void *l2_src, uint32_t bytes) {
  return dma_push((uint32_t)l1_dst, (uint32_t)l2_src, 1, bytes, bytes, 0);
}
hal_dma_t hal_dma_out(void *l2_dst, const void *l1_src, uint32_t bytes) {
  return dma_push((uint32_t)l1_src, (uint32_t)l2_dst, 1, bytes, bytes, 1);
}
hal_dma_t hal_dma_in_2d(void *l1_dst, const void *l2_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  return dma_push((uint32_t)l1_dst, (uint32_t)l2_src, rows, row_bytes, l2_stride, 0);
}
hal_dma_t hal_dma_out_2d(void *l2_dst, const void *l1_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  return dma_push((uint32_t)l1_src, (uint32_t)l2_dst, rows, row_bytes, l2_stride, 1);
}
void hal_dma_wait(hal_dma_t id) { REG(DMA_BASE, DMA_WAIT) = id; }

/* ---- L3 through the uDMA (blocking) ---- */
static void l3_copy(uint32_t l2, uint32_t l3, uint32_t bytes, uint32_t cmd) {
  if (bytes == 0) return;
  REG(UDMA_BASE, UDMA_L2) = l2;
  REG(UDMA_BASE, UDMA_L3) = l3;
  REG(UDMA_BASE, UDMA_SIZE) = bytes;
  REG(UDMA_BASE, UDMA_CMD) = cmd;
}
void hal_l3_read(void *l2_dst, const void *l3_src, uint32_t bytes) { l3_copy((uint32_t)l2_dst, (uint32_t)l3_src, bytes, 1); }
void hal_l3_write(void *l3_dst, const void *l2_src, uint32_t bytes) { l3_copy((uint32_t)l2_src, (uint32_t)l3_dst, bytes, 2); }

/* ---- N-EUREKA (neureka.h): registers, commit, and WAIT, which sleeps until the end event ---- */
void hal_neureka_write(uint32_t reg, uintptr_t value) { REG(NEUREKA_BASE, reg) = (uint32_t)value; }
void hal_neureka_commit(void) { REG(NEUREKA_BASE, NEUREKA_COMMIT) = 1; }
void hal_neureka_wait(void) {
  uint32_t status = REG(NEUREKA_BASE, NEUREKA_WAIT);
  if (status != NEUREKA_OK) { /* a refused task wrote nothing: stop as the host HAL does */
    printf("hal_neureka_wait: N-EUREKA refused the task (neureka.h error %u)\n", (unsigned)status);
    hal_exit(2);
  }
}

/* ---- write guard (the guard's registers: src/sim/README.md) ----
 * The stack region and the windows are written first; the write of LAYER starts the guard, and
 * every later write to its registers faults until the core is back in its fork dispatcher.
 * The guard also lets the core write its own stack. Its bounds come from the link script's
 * symbols, the ones crt0.S sets the stack pointers from (worker k's stack is the k-th below
 * __worker_stacks_top, the controller's the top one), so they follow link.ld; the simulator
 * refuses a guard whose stack region does not hold the stack pointer. */
extern char __worker_stacks_top[], __worker_stack_size[], __controller_stack_top[], __controller_stack_size[];

void hal_guard_begin(uint32_t layer, const void *lo, uint32_t bytes) {
  uint32_t hart = REG(EU_BASE, EU_CORE_ID), top, size;
  if (hart == SIRACUSA_CONTROLLER) {
    top = (uint32_t)__controller_stack_top;
    size = (uint32_t)__controller_stack_size;
  } else {
    size = (uint32_t)__worker_stack_size;
    top = (uint32_t)__worker_stacks_top - hart * size;
  }
  REG(GUARD_BASE, GUARD_STACK_LO) = top - size;
  REG(GUARD_BASE, GUARD_STACK_HI) = top;
  hal_guard_allow(lo, bytes);
  REG(GUARD_BASE, GUARD_LAYER) = layer; /* from here on the guard's registers are out of reach */
}
void hal_guard_allow(const void *lo, uint32_t bytes) {
  REG(GUARD_BASE, GUARD_LO) = (uint32_t)lo;
  REG(GUARD_BASE, GUARD_BYTES) = bytes;
}
void hal_guard_end(void) { REG(GUARD_BASE, GUARD_END) = 1; }

/* ---- console and exit (the libc's platform half) ---- */
int putchar(int c) {
  REG(CLUSTER_CTRL_BASE, CC_PUTCHAR) = (uint32_t)(unsigned char)c;
  return (unsigned char)c;
}
int fflush(void *stream) { (void)stream; return 0; }

void hal_exit(int code) {
  REG(CLUSTER_CTRL_BASE, CC_EXIT) = (uint32_t)code;
  for (;;) {}
}
void exit(int code) { hal_exit(code); }
