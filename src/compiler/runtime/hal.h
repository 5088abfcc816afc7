/*
 * hal.h: the one interface between generated code (and the kernel library) and the machine.
 *
 * Everything a network program does that is not plain C goes through these functions: who am
 * I, run this on N cores, wait for the others, move bytes between memory levels, drive the NPU,
 * read the cycle counter, print, exit. Two implementations exist:
 *   hal_host.c      a host build (gcc/clang on the developer's machine): forks run the cores
 *                   one after another, DMA is memcpy, cycles come from a counter of calls;
 *   hal_siracusa.c  the Siracusa simulator's memory-mapped event unit, cluster DMA, uDMA, timer
 *                   and N-EUREKA (register map: src/sim/README.md).
 * Generated code never touches an address of a peripheral itself.
 *
 * Execution model: main() runs on the cluster controller. Kernels run forked on worker cores
 * 0..n-1 (n = the configured --cores); hal_fork returns when all of them have returned.
 */
#ifndef DPG_HAL_H
#define DPG_HAL_H

#include <stddef.h>
#include <stdint.h>

/* ---- placement ------------------------------------------------------------------------------
 * Static buffers are put in a memory level with these attributes; the linker script maps the
 * sections (.l1 in the TCDM, .l2 in L2 (the default), .l3 in the off-chip RAM, .wmem in the
 * N-EUREKA weight memory). Data in .l3 and .wmem is only reached through hal_l3_* / the NPU.
 * On a host build they are ordinary arrays. */
#if defined(__riscv)
#define HAL_L1 __attribute__((section(".l1"), aligned(4)))
#define HAL_L2 __attribute__((aligned(4)))
#define HAL_L3 __attribute__((section(".l3"), aligned(4)))
#define HAL_WMEM __attribute__((section(".wmem"), aligned(4)))
#else
#define HAL_L1 __attribute__((aligned(4)))
#define HAL_L2 __attribute__((aligned(4)))
#define HAL_L3 __attribute__((aligned(4)))
#define HAL_WMEM __attribute__((aligned(4)))
#endif

/* ---- cores ---------------------------------------------------------------------------------- */

/** Index of the calling worker inside a fork (0..hal_num_cores()-1); the controller gets 0. */
int hal_core_id(void);
/** Cores taking part in the current fork (1 on the controller outside a fork). */
int hal_num_cores(void);
/** Runs fn(arg) on worker cores 0..cores-1 (1 <= cores <= 8) and returns when all are done. */
void hal_fork(int cores, void (*fn)(void *arg), void *arg);
/** Inside a fork: waits until every core of the fork has reached this barrier. */
void hal_barrier(void);

/* ---- time ----------------------------------------------------------------------------------- */

/** The cluster's cycle counter (free-running, wraps at 2^32). */
uint32_t hal_cycles(void);
/** Marks the section the simulator's energy estimate covers (the harness: RunNetwork): 1 at its start, 0 at its end. */
void hal_measure(int on);

/* ---- cluster DMA: L2 <-> L1 -------------------------------------------------------------------
 * Asynchronous: each call queues one transfer and returns its id; hal_dma_wait(id) blocks until
 * that transfer is complete. 2D transfers copy `rows` rows of `row_bytes`; the L1 side is
 * contiguous, the L2 side advances by `l2_stride` bytes per row. Called by the controller. */
typedef uint32_t hal_dma_t;
hal_dma_t hal_dma_in(void *l1_dst, const void *l2_src, uint32_t bytes);
hal_dma_t hal_dma_out(void *l2_dst, const void *l1_src, uint32_t bytes);
hal_dma_t hal_dma_in_2d(void *l1_dst, const void *l2_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride);
hal_dma_t hal_dma_out_2d(void *l2_dst, const void *l1_src, uint32_t rows, uint32_t row_bytes, uint32_t l2_stride);
void hal_dma_wait(hal_dma_t id);

/* ---- L3 (off-chip RAM through the SoC's uDMA): blocking copies to and from L2 ---------------- */
void hal_l3_read(void *l2_dst, const void *l3_src, uint32_t bytes);
void hal_l3_write(void *l3_dst, const void *l2_src, uint32_t bytes);

/* ---- N-EUREKA -------------------------------------------------------------------------------
 * Register-level task interface (register offsets: neureka.h). The controller writes a task's
 * registers, commits it, and waits for its end event. `value` is a uintptr_t so address
 * registers can hold a pointer on a 64-bit host (the emulation); on Siracusa it is 32 bits. */
#include "neureka.h"
void hal_neureka_write(uint32_t reg, uintptr_t value);
void hal_neureka_commit(void);
void hal_neureka_wait(void);

/* ---- write guard ----------------------------------------------------------------------------
 * Bounds checking of a layer's kernel on the simulator. From hal_guard_begin to the end of the
 * CALLING worker's fork job, every store of that core to memory must fall inside [lo, lo + bytes),
 * inside a window hal_guard_allow added BEFORE hal_guard_begin (4 windows in all per core), or
 * inside the core's own stack (the kernel's locals and its callees'); any other store stops the
 * run, and the error names the layer (`layer`: codegen's index of it), the core, the address and
 * the source line. Each worker calls it inside its fork, as the last thing before the kernel:
 *   hal_guard_begin(3, y, 4096); kernel(...);
 * The guarded code cannot undo it: a write to the guard's registers (hal_guard_allow,
 * hal_guard_begin, hal_guard_end), the exit register, an N-EUREKA task, a DMA transfer writing
 * outside the windows, or waiting for a fork job other than by returning stops the run too. The
 * guard ends when the core is back in crt0.S's dispatcher. hal_guard_end forgets windows
 * declared for a guard not begun. On a host build they do nothing. */
void hal_guard_begin(uint32_t layer, const void *lo, uint32_t bytes);
void hal_guard_allow(const void *lo, uint32_t bytes);
void hal_guard_end(void);

/* ---- console and exit ----------------------------------------------------------------------- */
int printf(const char *fmt, ...);
void hal_exit(int code) __attribute__((noreturn));

#endif
