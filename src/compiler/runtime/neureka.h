/*
 * neureka.h: N-EUREKA's register-level task interface (this project's design, built from the
 * facts in shared/reference/siracusa.md; the table is also in src/sim/README.md).
 *
 * The NPU sits at 0x10201000 in the cluster peripherals. Every register is a 32-bit word at
 * NEUREKA_BASE + offset. The controller fills one task's registers (hal_neureka_write), writes
 * COMMIT (hal_neureka_commit) and reads WAIT (hal_neureka_wait), which sleeps until the task's
 * end event. Register values stay after a task: the next task only rewrites what changes.
 *
 * A task is one requantized convolution with stride 1, exactly RequantizedConv
 * (src/compiler/ops/requantized.ts) on channels-last 8-bit data:
 *   acc[oh][ow][m] = sum over the window of x[ih][iw][c] * w[...]     (zeros in the padding)
 *   y[oh][ow][m]   = clip((acc * MUL[m] + ADD[m]) >> SHIFT, CLIP_LO, CLIP_HI)   (64-bit, '>>' floors)
 * ADD already holds the rounding 2^(SHIFT-1) (Deeploy's add'). The output is the low byte of
 * the clipped value (int8 or uint8 alike: CLIP_LO/CLIP_HI pick the range).
 *
 * Weights: one byte per weight, in the conv's own channels-last order (the memory plan and the
 * tiler slice them like any tensor, and a tile's weights are a contiguous run of output channels):
 *   1x1        w[C_OUT][C_IN]
 *   3x3 dense  w[C_OUT][3][3][C_IN]
 *   3x3 dw     w[C][3][3]            (C_IN = C_OUT = C)
 * The PEs take weights bit-serially, one bit-plane per cycle, so a layer whose weights need
 * fewer bits runs faster: WEIGHT_BITS = b (1..8) makes the NPU stream b planes of each weight
 * and use the low b bits of each byte as a two's-complement b-bit value (bit b-1 is the sign):
 * exact when every weight lies in [-2^(b-1), 2^(b-1)-1] (the compiler writes the smallest such
 * b); otherwise the higher bits are ignored, in the simulator and the host emulation alike.
 * The output size follows from the input, the kernel and the padding:
 *   OUT_H = IN_H + PAD_TOP + PAD_BOTTOM - (k - 1), OUT_W likewise (k = 1 or 3).
 */
#ifndef DPG_NEUREKA_H
#define DPG_NEUREKA_H

#include <stdint.h>

#define NEUREKA_BASE 0x10201000 /* the same definition as siracusa/siracusa.h */

/* ---- control ---- */
#define NEUREKA_COMMIT      0x00 /* write: start the task held in the registers (any value) */
#define NEUREKA_WAIT        0x04 /* read: sleeps until the running task's end event; returns its status */
#define NEUREKA_STATUS      0x08 /* read: 1 while a task runs, else 0 (never sleeps) */
/* ---- addresses (byte addresses; L1, L2 or, for WEIGHTS, the weight memory) ---- */
#define NEUREKA_INPUT       0x10 /* input activations, 8-bit HWC */
#define NEUREKA_OUTPUT      0x14 /* output activations, 8-bit HWC */
#define NEUREKA_WEIGHTS     0x18 /* weights in the layout above */
#define NEUREKA_MUL         0x1C /* int32 scale per output channel [C_OUT] */
#define NEUREKA_ADD         0x20 /* int32 bias per output channel [C_OUT], rounding included */
/* ---- dimensions ---- */
#define NEUREKA_IN_H        0x24 /* input rows (before padding), >= 1 */
#define NEUREKA_IN_W        0x28 /* input columns (before padding), >= 1 */
#define NEUREKA_C_IN        0x2C /* input channels, >= 1 (depthwise: must equal C_OUT) */
#define NEUREKA_C_OUT       0x30 /* output channels, >= 1 */
/* ---- strides in bytes (a tile inside a bigger tensor; contiguous: ROW = W*C, PIX = C) ---- */
#define NEUREKA_IN_ROW      0x34 /* from one input row to the next */
#define NEUREKA_IN_PIX      0x38 /* from one input pixel to the next (>= C_IN) */
#define NEUREKA_OUT_ROW     0x3C /* from one output row to the next */
#define NEUREKA_OUT_PIX     0x40 /* from one output pixel to the next (>= C_OUT) */
/* ---- operation ---- */
#define NEUREKA_MODE        0x44 /* NEUREKA_MODE_* below */
#define NEUREKA_PADDING     0x48 /* zero padding, one byte each: top | left << 8 | bottom << 16 | right << 24; each 0 or 1, 0 in 1x1 mode */
#define NEUREKA_FLAGS       0x4C /* bit 0: input is int8 (else uint8); other bits 0 */
#define NEUREKA_SHIFT       0x50 /* arithmetic right shift of the scaled sum, 0..62 */
#define NEUREKA_CLIP_LO     0x54 /* int32: smallest output value */
#define NEUREKA_CLIP_HI     0x58 /* int32: largest output value (CLIP_LO <= CLIP_HI, both in -128..255) */
#define NEUREKA_WEIGHT_BITS 0x5C /* bit-planes per weight, 1..8 (0, the reset value, means 8) */

#define NEUREKA_REGS        0x60 /* bytes of the register window that are used */
#define NEUREKA_NREGS       (NEUREKA_REGS / 4)

#define NEUREKA_MODE_1X1    0
#define NEUREKA_MODE_3X3    1
#define NEUREKA_MODE_3X3_DW 2

#define NEUREKA_FLAG_SIGNED_IN 1u

/* What WAIT returns (and neureka_task_run): 0, or why the task was refused (nothing written). */
#define NEUREKA_OK          0
#define NEUREKA_ERR_MODE    1 /* MODE is not one of NEUREKA_MODE_* */
#define NEUREKA_ERR_DIMS    2 /* a dimension is 0, the output would be empty, or depthwise C_IN != C_OUT */
#define NEUREKA_ERR_PADDING 3 /* a padding above 1, or any padding in 1x1 mode */
#define NEUREKA_ERR_REQUANT 4 /* SHIFT above 62, or the clip range is empty or wider than 8 bits */
#define NEUREKA_ERR_STRIDE  5 /* a pixel stride smaller than its channel count */
#define NEUREKA_ERR_FLAGS   6 /* an unknown FLAGS bit */
#define NEUREKA_ERR_WEIGHTS 7 /* WEIGHT_BITS above 8 */

/*
 * The task's semantics in C (neureka_task.c): runs the task held in `regs` (indexed by offset / 4;
 * address registers hold host pointers, hence uintptr_t) and returns NEUREKA_OK or an error.
 * The host HAL runs it on commit; the simulator's tests use it as the reference.
 */
int neureka_task_run(const uintptr_t regs[NEUREKA_NREGS]);

#endif
