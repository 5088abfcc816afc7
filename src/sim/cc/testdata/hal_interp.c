/* hal_interp.c: the HAL (runtime/hal.h) for running generated programs in the front end's IR
   interpreter: one core, DMA and L3 transfers as copies, no cycle counter, no NPU. */
#include <string.h>
#include "hal.h"

void exit(int code) __attribute__((noreturn));

int hal_core_id(void) { return 0; }
int hal_num_cores(void) { return 1; }
void hal_fork(int cores, void (*fn)(void *arg), void *arg) { (void)cores; fn(arg); }
void hal_barrier(void) {}
uint32_t hal_cycles(void) { return 0; }
void hal_measure(int on) { (void)on; }

hal_dma_t hal_dma_in(void *l1_dst, const void *l2_src, uint32_t bytes) { memcpy(l1_dst, l2_src, bytes); return 0; }
hal_dma_t hal_dma_out(void *l2_dst, const void *l1_src, uint32_t bytes) { memcpy(l2_dst, l1_src, bytes); return 0; }
hal_dma_t hal_dma_in_2d(void *l1_dst, const void *l2_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  for (uint32_t r = 0; r < rows; r++) memcpy((char *)l1_dst + r * row_bytes, (const char *)l2_src + r * l2_stride, row_bytes);
  return 0;
}
hal_dma_t hal_dma_out_2d(void *l2_dst, const void *l1_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride) {
  for (uint32_t r = 0; r < rows; r++) memcpy((char *)l2_dst + r * l2_stride, (const char *)l1_src + r * row_bytes, row_bytes);
  return 0;
}
void hal_dma_wait(hal_dma_t id) { (void)id; }
void hal_l3_read(void *l2_dst, const void *l3_src, uint32_t bytes) { memcpy(l2_dst, l3_src, bytes); }
void hal_l3_write(void *l3_dst, const void *l2_src, uint32_t bytes) { memcpy(l3_dst, l2_src, bytes); }
void hal_neureka_write(uint32_t reg, uintptr_t value) { (void)reg; (void)value; }
void hal_neureka_commit(void) {}
void hal_neureka_wait(void) {}
void hal_exit(int code) { exit(code); }
