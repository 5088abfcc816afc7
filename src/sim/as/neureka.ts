// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// N-EUREKA: the task interface of src/compiler/runtime/neureka.h (table: src/sim/README.md).
// Like the DMA, a task's bytes are computed at COMMIT, bit-exact with neureka_task.c (the host
// emulation, its test's reference); its end cycle is fixed then from the timing model below,
// and a core reading WAIT sleeps (idle) until that end event.
//
// Timing. The PE array computes 6x6 output pixels; each PE has 9 bit-serial units (the 3x3
// taps) of 32 input-channel lanes, and takes one weight bit-plane of one output channel per
// cycle. So, per 6x6 spatial subtile (partial ones cost as much as whole ones):
//   1x1 and 3x3 dense: per group of <= 32 output channels, per subtile of <= 32 input channels,
//     compute = out channels x WEIGHT_BITS cycles (1x1 uses one unit of the nine);
//   depthwise: per group of <= 28 channels, compute = WEIGHT_BITS cycles (9 taps x 28 lanes).
// A step's loads (the in-bounds input window, and its weights unless they are in the weight
// memory) go through the NPU's memory port, 32 B/cycle from L1 and 8 B/cycle from L2 (the
// cluster's 64-bit AXI); weights in the weight memory come over their own 36 B/cycle link.
// The streamer runs ahead of the engine: a step takes max(compute, port, link); the first
// step's loads are not hidden. After each group's steps the accumulators drain: mul/add
// (8 B per channel) and the output pixels through the port. Plus NEUREKA_SETUP per task.
import { IC_L1, IC_L2, IDLE, L1_BASE, L1_SIZE, L2_BASE, L2_SIZE, MEM_L1, MEM_L2, MEM_WMEM, SCRATCH, WMEM_BASE, WMEM_SIZE } from './layout';
import { icacheInvalidate } from './core';
import { addStall, curCore, fullNow, setFaultAt } from './mem';
import { EV_NPU, IDLE_NPU, profEngine, profIdle } from './profile';

// Registers (byte offsets in the window), as in neureka.h.
export const NE_COMMIT: u32 = 0x00;
export const NE_WAIT: u32 = 0x04;
export const NE_STATUS: u32 = 0x08;
const NE_INPUT: u32 = 0x10;
const NE_OUTPUT: u32 = 0x14;
const NE_WEIGHTS: u32 = 0x18;
const NE_MUL: u32 = 0x1c;
const NE_ADD: u32 = 0x20;
const NE_IN_H: u32 = 0x24;
const NE_IN_W: u32 = 0x28;
const NE_C_IN: u32 = 0x2c;
const NE_C_OUT: u32 = 0x30;
const NE_IN_ROW: u32 = 0x34;
const NE_IN_PIX: u32 = 0x38;
const NE_OUT_ROW: u32 = 0x3c;
const NE_OUT_PIX: u32 = 0x40;
const NE_MODE: u32 = 0x44;
const NE_PADDING: u32 = 0x48;
const NE_FLAGS: u32 = 0x4c;
const NE_SHIFT: u32 = 0x50;
const NE_CLIP_LO: u32 = 0x54;
const NE_CLIP_HI: u32 = 0x58;
const NE_WEIGHT_BITS: u32 = 0x5c;
const NE_REGS: u32 = 0x60;

const MODE_1X1: u32 = 0;
const MODE_3X3_DW: u32 = 2;

// Refusal codes (neureka.h NEUREKA_ERR_*).
const ERR_MODE: u32 = 1;
const ERR_DIMS: u32 = 2;
const ERR_PADDING: u32 = 3;
const ERR_REQUANT: u32 = 4;
const ERR_STRIDE: u32 = 5;
const ERR_FLAGS: u32 = 6;
const ERR_WEIGHTS: u32 = 7;

export const NEUREKA_SETUP: u64 = 20;
const PE: i32 = 6; // output pixels per spatial subtile, each way
const CH: u32 = 32; // output channels per group, input channels per subtile
const CH_DW: u32 = 28; // depthwise channels per group
const L1_BPC: u64 = 32; // the port from / to L1, bytes per cycle
const L2_BPC: u64 = 8; // the same port reaching L2
const WMEM_BPC: u64 = 36; // the weight memory's link

/** The register file: one word per register, in the scratch area (the simulator never allocates). */
const REGS_AT: usize = SCRATCH + 0xa00;
let busyUntil: u64 = 0;
let status: u32 = 0;
export let neurekaTasks: u32 = 0;
export let neurekaBusy: u64 = 0;
export let neurekaPortBytes: u64 = 0; // read and written through the L1 / L2 port
export let neurekaWmemBytes: u64 = 0; // weights over the weight memory's link

@inline function R(off: u32): u32 { return load<u32>(REGS_AT + <usize>off); }

export function neurekaReset(): void {
  memory.fill(REGS_AT, 0, <usize>NE_REGS);
  busyUntil = 0; status = 0; neurekaTasks = 0; neurekaBusy = 0; neurekaPortBytes = 0; neurekaWmemBytes = 0;
}

/** Wasm address of [a, a + len) in L1, L2 or (weights only) the weight memory; 0 if outside. */
function xlate(a: u32, len: u64, wmem: bool): usize {
  if (len == 0) return 1;
  let o = a - L1_BASE;
  if (o < L1_SIZE && <u64>o + len <= <u64>L1_SIZE) return MEM_L1 + <usize>o;
  o = a - L2_BASE;
  if (o < L2_SIZE && <u64>o + len <= <u64>L2_SIZE) return MEM_L2 + <usize>o;
  o = a - WMEM_BASE;
  if (wmem && o < WMEM_SIZE && <u64>o + len <= <u64>WMEM_SIZE) return MEM_WMEM + <usize>o;
  return 0;
}

@inline function inWmem(a: u32): bool { return a - WMEM_BASE < WMEM_SIZE; }

@inline function ceilDiv(a: u64, b: u64): u64 { return (a + b - 1) / b; }

/** neureka_task.c's check(), word for word. */
function check(): u32 {
  const mode = R(NE_MODE), pad = R(NE_PADDING);
  if (mode > MODE_3X3_DW) return ERR_MODE;
  if (R(NE_IN_H) == 0 || R(NE_IN_W) == 0 || R(NE_C_IN) == 0 || R(NE_C_OUT) == 0) return ERR_DIMS;
  if (mode == MODE_3X3_DW && R(NE_C_IN) != R(NE_C_OUT)) return ERR_DIMS;
  for (let b: u32 = 0; b < 4; b++) {
    const p = (pad >> (8 * b)) & 0xff;
    if (p > 1 || (mode == MODE_1X1 && p != 0)) return ERR_PADDING;
  }
  if (mode != MODE_1X1) {
    if (<u64>R(NE_IN_H) + <u64>(pad & 0xff) + <u64>((pad >> 16) & 0xff) < 3) return ERR_DIMS;
    if (<u64>R(NE_IN_W) + <u64>((pad >> 8) & 0xff) + <u64>((pad >> 24) & 0xff) < 3) return ERR_DIMS;
  }
  const lo = <i32>R(NE_CLIP_LO), hi = <i32>R(NE_CLIP_HI);
  if (R(NE_SHIFT) > 62 || lo > hi || lo < -128 || hi > 255) return ERR_REQUANT;
  if (R(NE_IN_PIX) < R(NE_C_IN) || R(NE_OUT_PIX) < R(NE_C_OUT)) return ERR_STRIDE;
  if ((R(NE_FLAGS) & ~1) != 0) return ERR_FLAGS;
  if (R(NE_WEIGHT_BITS) > 8) return ERR_WEIGHTS;
  return 0;
}

/** A weight byte as the PEs see it: its low `bits` bits, two's complement (neureka_task.c weight()). */
@inline function weight(byte: u32, bits: u32): i32 {
  const low = <i32>(byte & ((1 << bits) - 1));
  return low >= (1 << (bits - 1)) ? low - (1 << bits) : low;
}

/** Port cycles for `bytes` at address `a`: L1 at 32 B/cycle, else (L2) 8 B/cycle. */
@inline function portCycles(bytes: u64, a: u32): u64 {
  return ceilDiv(bytes, a - L1_BASE < L1_SIZE ? L1_BPC : L2_BPC);
}

/** Input pixels of [from, from + n) (padded coordinates shifted by `pad`) inside [0, size). */
@inline function inside(from: i32, n: i32, size: i32): i32 {
  const lo = from < 0 ? 0 : from, hi = from + n > size ? size : from + n;
  return hi > lo ? hi - lo : 0;
}

/** Runs the task in the registers; returns false after raising a fault (an address outside memory). */
function commit(a: u32, now: u32): bool {
  const t = fullNow(now);
  const start = t > busyUntil ? t : busyUntil; // a task committed while one runs starts after it
  status = check();
  if (status != 0) { busyUntil = start + NEUREKA_SETUP; return true; }
  const mode = R(NE_MODE), pad = R(NE_PADDING);
  const H = <i32>R(NE_IN_H), W = <i32>R(NE_IN_W), C = R(NE_C_IN), M = R(NE_C_OUT);
  const inRow = R(NE_IN_ROW), inPix = R(NE_IN_PIX), outRow = R(NE_OUT_ROW), outPix = R(NE_OUT_PIX);
  const sgn = (R(NE_FLAGS) & 1) != 0, shift = <i64>R(NE_SHIFT);
  const lo = <i64><i32>R(NE_CLIP_LO), hi = <i64><i32>R(NE_CLIP_HI);
  const k: i32 = mode == MODE_1X1 ? 1 : 3;
  const pt = <i32>(pad & 0xff), pl = <i32>((pad >> 8) & 0xff);
  const OH = H + pt + <i32>((pad >> 16) & 0xff) - (k - 1), OW = W + pl + <i32>((pad >> 24) & 0xff) - (k - 1);
  const dw = mode == MODE_3X3_DW;
  const bits = R(NE_WEIGHT_BITS) == 0 ? 8 : R(NE_WEIGHT_BITS);

  // Every operand must lie in memory the NPU reaches: fault on the first that does not.
  const xs = <u64>(H - 1) * inRow + <u64>(W - 1) * inPix + C;
  const ys = <u64>(OH - 1) * outRow + <u64>(OW - 1) * outPix + M;
  const ws = dw ? <u64>C * 9 : <u64>M * <u64>(k * k) * C;
  const px = xlate(R(NE_INPUT), xs, false), py = xlate(R(NE_OUTPUT), ys, false), pw = xlate(R(NE_WEIGHTS), ws, true);
  const pm = xlate(R(NE_MUL), <u64>M * 4, false), pa = xlate(R(NE_ADD), <u64>M * 4, false);
  if (px == 0) { setFaultAt(R(NE_INPUT), true); return false; }
  if (py == 0) { setFaultAt(R(NE_OUTPUT), true); return false; }
  if (pw == 0) { setFaultAt(R(NE_WEIGHTS), true); return false; }
  if (pm == 0) { setFaultAt(R(NE_MUL), true); return false; }
  if (pa == 0) { setFaultAt(R(NE_ADD), true); return false; }

  for (let oh: i32 = 0; oh < OH; oh++)
    for (let ow: i32 = 0; ow < OW; ow++)
      for (let m: u32 = 0; m < M; m++) {
        let acc: i32 = 0;
        for (let kh: i32 = 0; kh < k; kh++)
          for (let kw: i32 = 0; kw < k; kw++) {
            const ih = oh + kh - pt, iw = ow + kw - pl;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue; // zero padding
            const p = px + <usize>(<u32>ih * inRow + <u32>iw * inPix);
            if (dw) {
              const v: i32 = sgn ? <i32>load<i8>(p + m) : <i32>load<u8>(p + m);
              acc += v * weight(load<u8>(pw + <usize>((m * 3 + <u32>kh) * 3 + <u32>kw)), bits);
            } else {
              const wm = pw + <usize>(((m * <u32>k + <u32>kh) * <u32>k + <u32>kw) * C);
              for (let c: u32 = 0; c < C; c++)
                acc += (sgn ? <i32>load<i8>(p + c) : <i32>load<u8>(p + c)) * weight(load<u8>(wm + c), bits);
            }
          }
        const v = (<i64>acc * <i64>load<i32>(pm + (<usize>m << 2)) + <i64>load<i32>(pa + (<usize>m << 2))) >> shift;
        store<u8>(py + <usize>(<u32>oh * outRow + <u32>ow * outPix + m), <u8>(v < lo ? lo : v > hi ? hi : v));
      }
  // Outputs may overwrite code the cores have predecoded.
  const out = R(NE_OUTPUT);
  if (out - L1_BASE < L1_SIZE) icacheInvalidate(IC_L1 + (<usize>(out - L1_BASE) << 2), <usize>ys << 2);
  else icacheInvalidate(IC_L2 + (<usize>(out - L2_BASE) << 2), <usize>ys << 2);

  const end = start + taskCycles(OH, OW, H, W, C, M, k, pt, pl, bits, dw);
  neurekaBusy += end - start;
  neurekaTasks++;
  busyUntil = end;
  profEngine(EV_NPU, curCore, start, end, 0);
  return true;
}

/** The timing model (header comment): cycles of one task from its start to its end event. */
function taskCycles(OH: i32, OW: i32, H: i32, W: i32, C: u32, M: u32, k: i32, pt: i32, pl: i32, bits: u32, dw: bool): u64 {
  const xa = R(NE_INPUT), ya = R(NE_OUTPUT), wa = R(NE_WEIGHTS), ma = R(NE_MUL);
  const wmem = inWmem(wa);
  const group: u32 = dw ? CH_DW : CH;
  let t: u64 = NEUREKA_SETUP, fill: u64 = 0, port: u64 = 0, link: u64 = 0;
  for (let sh: i32 = 0; sh < OH; sh += PE)
    for (let sw: i32 = 0; sw < OW; sw += PE) {
      const vh = OH - sh < PE ? OH - sh : PE, vw = OW - sw < PE ? OW - sw : PE;
      const win = <u64>(inside(sh - pt, vh + k - 1, H) * inside(sw - pl, vw + k - 1, W));
      for (let m0: u32 = 0; m0 < M; m0 += group) {
        const mo: u64 = <u64>(M - m0 < group ? M - m0 : group);
        // Dense: one step per input-channel subtile; depthwise: one step, its own channels.
        const cEnd: u32 = dw ? 1 : C;
        for (let c0: u32 = 0; c0 < cEnd; c0 += CH) {
          const ci: u64 = dw ? mo : <u64>(C - c0 < CH ? C - c0 : CH);
          const inB = win * ci, wB = dw ? mo * 9 : mo * <u64>(k * k) * ci;
          const compute: u64 = dw ? <u64>bits : mo * <u64>bits;
          const load = portCycles(inB, xa) + (wmem ? 0 : portCycles(wB, wa));
          const wl = wmem ? ceilDiv(wB, WMEM_BPC) : 0;
          if (fill == 0) fill = load > wl ? load : wl; // the first loads are not hidden
          let step = compute > load ? compute : load;
          if (wl > step) step = wl;
          t += step;
          port += inB + (wmem ? 0 : wB);
          link += wmem ? wB : 0;
        }
        const outB = <u64>(vh * vw) * mo;
        t += portCycles(mo * 8, ma) + portCycles(outB, ya); // drain: requant parameters and outputs
        port += mo * 8 + outB;
      }
    }
  neurekaPortBytes += port;
  neurekaWmemBytes += link;
  return t + fill;
}

export function neurekaRead(off: u32, a: u32, now: u32): u32 {
  switch (off) {
    case NE_WAIT: {
      const t = fullNow(now);
      if (busyUntil > t) { addStall(<i32>(busyUntil - t), IDLE); profIdle(curCore, t, busyUntil, IDLE_NPU); } // the end event wakes the reader
      return status;
    }
    case NE_STATUS: return fullNow(now) < busyUntil ? 1 : 0;
    default:
      if (off >= NE_INPUT && off < NE_REGS && (off & 3) == 0) return R(off);
      setFaultAt(a, false);
      return 0;
  }
}

export function neurekaWrite(off: u32, a: u32, v: u32, now: u32): void {
  if (off == NE_COMMIT) { commit(a, now); return; }
  if (off >= NE_INPUT && off < NE_REGS && (off & 3) == 0) { store<u32>(REGS_AT + <usize>off, v); return; }
  setFaultAt(a, true);
}
