// Every kernel family of the library against the reference interpreter, bit for bit: small
// random graphs (random shapes, weights and inputs; seeded) go through the platform's lowering
// and binding, so each case exercises the kernel the catalogue really binds; the generated
// harness is built with the host compiler and run with 1, 3 and 8 cores (the cluster kernels
// split their work by core id: every count must give the same bits).
import { describe, expect, it } from 'vitest';
import { buildAndRunHost } from '../../sim/run/host';
import { testDataFor } from '../codegen/test-data';
import { generateWithPlan } from '../../testing/tiled-harness';
import { mulberry32 } from '../fuzz/prng';
import type { Graph } from '../ir/graph';
import { lowerGraph } from '../lower/lower';
import { at, GraphBuilder } from '../passes/testing';
import { DEFAULT_CONFIG, type PlatformName } from '../config';
import { HOST_CC, missing } from '../../testing/requires';

type Rng = () => number;
const pick = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

interface Case {
  name: string;
  platform: PlatformName;
  /** The kernel family the case must bind (proves which kernel it tests). */
  kernel: RegExp;
  graph: (rng: Rng) => Graph;
}

/**
 * Conv (NCHW, as exported) + per-channel RequantShift, for Siracusa's fusion into RequantizedConv.
 * kw: a different kernel width; pads: per side in [0, 2] instead of `pad` all round; tiny:
 * images smaller than the window (the padding makes up the rest); large: 10 to 14 rows and
 * columns; wide: multipliers up to 2^21 (acc*mul past 32 bits: the 64-bit requant); scalar: one
 * multiplier and addend for all channels; manyM: 65 to 80 output channels (the dense kernel's
 * parameters go to the stack 64 at a time).
 */
function convRq(rng: Rng, o: {
  k: number; kw?: number; group?: 'dw'; stride?: number; pad?: number; pads?: 'random'; tiny?: boolean; unsigned?: boolean;
  large?: boolean; oneD?: boolean; requant?: boolean; wide?: boolean; scalar?: boolean; manyM?: boolean;
  /** Spatial [H, W] ranges (overriding the others). */
  hw?: [[number, number], [number, number]];
  /** Per-channel multipliers in this range (shift 24, small addends): to straddle a 32-bit path's bound. */
  mulRange?: [number, number];
}): Graph {
  const b = new GraphBuilder();
  // Depthwise: two channels at least (one channel is a dense conv to the lowering).
  const C = pick(rng, o.group ? 2 : 1, 9), M = o.group ? C : o.manyM ? pick(rng, 65, 80) : pick(rng, 1, 11);
  const kk = o.oneD ? [o.k] : [o.k, o.kw ?? o.k];
  const p = o.pad ?? 0, s = o.stride ?? 1;
  const pads = [...kk, ...kk].map(() => (o.pads ? pick(rng, 0, 2) : p));
  const rank = kk.length;
  // Each spatial size at least the window less its padding (one output at least).
  const size = (i: number, hi: number) =>
    o.large ? pick(rng, 10, 14) : pick(rng, Math.max(1, kk[i] - pads[i] - pads[i + rank]), o.tiny ? 4 : hi);
  const spatial = o.hw ? o.hw.map(([lo, hi]) => pick(rng, lo, hi)) : o.oneD ? [size(0, 10)] : [size(0, 9), size(1, 10)];
  const x = b.input('x', [1, C, ...spatial], o.unsigned ? 'uint8' : 'float32');
  const w = b.init('w', [M, o.group ? 1 : C, ...kk], [-60, 60]);
  const y = b.node('Conv', [x, w], {
    kernel_shape: at.ints(kk), strides: at.ints(kk.map(() => s)), pads: at.ints(pads),
    dilations: at.ints(kk.map(() => 1)), group: at.int(o.group ? C : 1),
  });
  const mulShape = o.scalar ? [] : [M, ...kk.map(() => 1)];
  const rq = o.mulRange ? { shift: 24, mul: o.mulRange, add: [-3000, 3000] as [number, number] }
    : o.wide ? { shift: 27, mul: [1, 1 << 21] as [number, number], add: [-(2 ** 29), 2 ** 29] as [number, number] }
    : { shift: 11, mul: [1, 40] as [number, number], add: [-3000, 3000] as [number, number] };
  b.output(o.requant === false ? y : b.requant(y, rq.shift, { mulShape, mul: rq.mul, add: rq.add, signed: rng() < 0.5 }));
  return b.build();
}

/**
 * A [B?, M, K] x [K, N] MatMul (B constant or an activation) + RequantShift with per-row/column/tensor parameters.
 * k: K in 1..37 ('any'), a multiple of 4 (the kernels' word loads) or 4 (one word per row);
 * unsignedA / unsignedB: uint8 operands (else A is uint8 by chance); wide: multipliers so large that
 * acc*mul needs 64 bits; params: parameters per element, per batch or per row instead of a random choice of
 * per tensor, row or column ('no-row': per tensor or column).
 */
function matmulRq(rng: Rng, o: {
  constB: boolean; requant?: boolean; batch?: boolean; k?: 'any' | 'mul4' | 4; unsignedA?: boolean; unsignedB?: boolean; wide?: boolean;
  params?: 'element' | 'batch' | 'row' | 'no-row';
}): Graph {
  const b = new GraphBuilder();
  const K = o.k === 4 ? 4 : o.k === 'mul4' ? 4 * pick(rng, 1, 12) : pick(rng, 1, 37);
  // K = 4: at least one full column block of four, where the kernel keeps B's words in registers.
  const M = pick(rng, o.params ? 2 : 1, 9), N = pick(rng, o.k === 4 ? 4 : o.params ? 2 : 1, 13), B = o.batch ? pick(rng, 2, 3) : 0;
  const lead = B ? [B] : [];
  const a = b.input('a', [...lead, M, K], o.unsignedA || rng() < 0.3 ? 'uint8' : 'float32');
  const bb = o.constB ? b.init('b', [K, N], [-100, 100]) : b.input('b', [...lead, K, N], o.unsignedB ? 'uint8' : 'float32');
  const y = b.node('MatMul', [a, bb]);
  if (o.requant === false) { b.output(y); return b.build(); }
  const mulShape = o.params === 'element' ? [M, N] : o.params === 'batch' ? [B, 1, 1] : o.params === 'row' ? [M, 1]
    : [[], [N], ...(o.params === 'no-row' ? [] : [[M, 1]])][pick(rng, 0, o.params === 'no-row' ? 1 : 2)];
  const rq = o.wide ? { shift: 27, mul: [1 << 18, 1 << 21] as [number, number], add: [-(2 ** 30), 2 ** 30] as [number, number] }
    : { shift: 12, mul: [1, 60] as [number, number], add: [-4000, 4000] as [number, number] };
  b.output(b.requant(y, rq.shift, { mulShape, mul: rq.mul, add: rq.add, signed: rng() < 0.6 }));
  return b.build();
}

/** Gemm with B [N, K] (transB = 1: rows of B are contiguous) and a per-column bias. */
function gemmTransB(rng: Rng): Graph {
  const b = new GraphBuilder();
  const M = pick(rng, 1, 9), K = pick(rng, 1, 37), N = pick(rng, 1, 13);
  const a = b.input('a', [M, K], rng() < 0.3 ? 'uint8' : 'float32');
  const y = b.node('Gemm', [a, b.init('w', [N, K], [-100, 100]), b.init('c', [N], [-1000, 1000])], { transB: at.int(1) });
  b.output(y);
  return b.build();
}

function unaryOp(op: string, attrs: Record<string, number>, o: { requant?: boolean; unsigned?: boolean; rowMultiple?: number } = {}) {
  return (rng: Rng): Graph => {
    const b = new GraphBuilder();
    const m = o.rowMultiple ?? 1;
    const shape = [pick(rng, 1, 3), pick(rng, 1, 7), m * pick(rng, Math.ceil(2 / m), Math.floor(40 / m))];
    const x = b.input('x', shape, o.unsigned ? 'uint8' : 'float32');
    const extra: string[] = [];
    const L = shape[2];
    if (op === 'iRMSNorm') extra.push(b.init('w', [L], [20 * 2 ** 10, 40 * 2 ** 10]));
    if (op === 'iLayerNorm') extra.push(b.init('w', [L], [20 * 2 ** 10, 40 * 2 ** 10]), b.init('bias', [L], [-4 * 2 ** 10, 4 * 2 ** 10]));
    if (op === 'iNoNorm') extra.push(b.init('w', [L], [-8, 8]), b.init('bias', [L], [-100, 100]));
    const y = b.node(op, [x, ...extra], Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, at.int(v)])));
    b.output(o.requant ? b.requant(y, 10, { mul: [1, 30], add: [-500, 500] }) : y);
    return b.build();
  };
}

function binary(op: string, requantInputs = false) {
  return (rng: Rng): Graph => {
    const b = new GraphBuilder();
    const full = [pick(rng, 1, 3), pick(rng, 1, 5), pick(rng, 1, 9)];
    const bshape = [[], [full[2]], [full[1], 1], full][pick(rng, 0, 3)];
    const x = b.input('x', full, rng() < 0.3 ? 'uint8' : 'float32');
    const yv = rng() < 0.3 ? b.init('c', bshape, [-50, 50]) : b.input('y', bshape);
    if (!requantInputs) { b.output(b.node(op, [x, yv])); return b.build(); }
    const xa = b.requant(x, 6, { mul: [30, 90], add: [-40, 40] }), ya = b.requant(yv, 6, { mul: [30, 90], add: [-40, 40] });
    b.output(b.requant(b.node(op, [xa, ya]), 7, { mul: [40, 90], add: [-60, 60] }));
    return b.build();
  };
}

function movement(kind: 'transpose' | 'concat' | 'slice' | 'pad' | 'maxpool' | 'maxpool-padded' | 'maxpool-global' | 'reducemean' | 'reducesum' | 'gather') {
  return (rng: Rng): Graph => {
    const b = new GraphBuilder();
    // The pools with windows past 2x2 also take whole channel groups of 4 (the packed path).
    const shape = [1, kind.startsWith('maxpool-') ? [4, 8, 12, 5, 7][pick(rng, 0, 4)] : pick(rng, 1, 6), pick(rng, 2, 7), pick(rng, 2, 8)];
    const x = b.input('x', shape, rng() < 0.5 ? 'uint8' : 'float32');
    let y: string;
    switch (kind) {
      case 'transpose': y = b.node('Transpose', [x], { perm: at.ints([[0, 2, 3, 1], [0, 3, 1, 2], [3, 2, 1, 0]][pick(rng, 0, 2)]) }); break;
      case 'concat': {
        const axis = pick(rng, 1, 3), other = [...shape];
        other[axis] = pick(rng, 1, 4);
        y = b.node('Concat', [x, b.input('z', other), x], { axis: at.int(axis) });
        break;
      }
      case 'slice': y = b.node('Slice', [x, b.init('st', [2], [0, 1], 'int64'), b.init('en', [2], [shape[1], shape[3]], 'int64'),
        b.init('ax', [2], [1, 3], 'int64'), b.init('sp', [2], [pick(rng, 1, 2), pick(rng, 1, 2)], 'int64')]); break;
      case 'pad': y = b.node('Pad', [x, b.init('pads', [8], [0, 0, pick(rng, 0, 2), pick(rng, 0, 2), 0, 0, pick(rng, 0, 2), pick(rng, 0, 2)], 'int64')],
        { mode: at.str('constant') }); break;
      case 'maxpool': y = b.node('MaxPool', [x], { kernel_shape: at.ints([2, 2]), strides: at.ints([pick(rng, 1, 2), pick(rng, 1, 2)]) }); break;
      case 'maxpool-padded': {
        const k = pick(rng, 2, 3);
        y = b.node('MaxPool', [x], { kernel_shape: at.ints([k, k]), strides: at.ints([pick(rng, 1, 2), pick(rng, 1, 2)]),
          pads: at.ints([pick(rng, 0, 1), pick(rng, 0, 1), pick(rng, 0, 1), pick(rng, 0, 1)]) });
        break;
      }
      case 'maxpool-global': y = b.node('MaxPool', [x], { kernel_shape: at.ints([shape[2], shape[3]]) }); break;
      case 'reducemean': y = b.node('ReduceMean', [x], { axes: at.ints([[1], [2, 3], [1, 3]][pick(rng, 0, 2)]), keepdims: at.int(pick(rng, 0, 1)) }); break;
      case 'reducesum': y = b.node('ReduceSum', [x], { axes: at.ints([[1], [2, 3], [3]][pick(rng, 0, 2)]), keepdims: at.int(1) }); break;
      default: y = b.node('Gather', [x, b.init('idx', [3], [pick(rng, 0, shape[2] - 1), 0, -1], 'int64')], { axis: at.int(2) });
    }
    b.output(y);
    return b.build();
  };
}

const SOFTMAX = { coeffA: 1, coeffB: 11, coeffC: 61, log2: 8, n_levels: 256 };
const HARDSWISH = { one_over_six: 42, six: 144, three: 72 };
const GELU = { b: -75, one: 1993 };

const CASES: Case[] = [
  { name: 'RequantizedConv2d HWC (im2col, padded, strided)', platform: 'siracusa', kernel: /^RequantizedConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 3, pad: pick(r, 0, 1), stride: pick(r, 1, 2), unsigned: r() < 0.5 }) },
  { name: 'RequantizedConv2d HWC, any window, 64-bit requant, per channel or scalar', platform: 'siracusa', kernel: /^RequantizedConv2d_HWC_/,
    graph: (r) => convRq(r, { k: pick(r, 2, 4), kw: pick(r, 1, 4), pads: 'random', stride: pick(r, 1, 2), unsigned: r() < 0.5, wide: true, scalar: r() < 0.4 }) },
  { name: 'RequantizedConv2d HWC, more than 64 output channels', platform: 'siracusa', kernel: /^RequantizedConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 3, pad: 1, stride: 2, unsigned: r() < 0.5, manyM: true, wide: r() < 0.5 }) },
  { name: 'RequantizedConv1d HWC', platform: 'siracusa', kernel: /^RequantizedConv1d_HWC_/, graph: (r) => convRq(r, { k: 3, pad: 1, oneD: true }) },
  { name: 'RequantizedConv HWC, strided 1x1 (a ResNet shortcut, on the im2col kernel)', platform: 'siracusa', kernel: /^RequantizedConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 1, stride: 2, pad: pick(r, 0, 1), unsigned: r() < 0.5 }) },
  { name: 'RequantizedPwConv HWC', platform: 'siracusa', kernel: /^RequantizedPwConv2d_HWC_/, graph: (r) => convRq(r, { k: 1, unsigned: r() < 0.5 }) },
  { name: 'RequantizedPwConv HWC, multipliers past 32 bits (64-bit requant), per channel or scalar', platform: 'siracusa',
    kernel: /^RequantizedPwConv2d_HWC_/, graph: (r) => convRq(r, { k: 1, unsigned: r() < 0.5, wide: true, scalar: r() < 0.4 }) },
  { name: 'RequantizedDWConv HWC', platform: 'siracusa', kernel: /^RequantizedDWConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 3, group: 'dw', pad: 1, stride: pick(r, 1, 2), unsigned: r() < 0.5 }) },
  { name: 'RequantizedDWConv HWC, any window (sizes 1-5, paddings 0-2 per side, strides 1-3)', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/,
    graph: (r) => convRq(r, { k: pick(r, 1, 5), kw: pick(r, 1, 5), group: 'dw', pads: 'random', stride: pick(r, 1, 3), unsigned: r() < 0.5 }) },
  { name: 'RequantizedDWConv HWC, 3x3 on larger images (blocks of outputs per channel)', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/, graph: (r) => convRq(r, { k: 3, group: 'dw', pads: 'random', stride: pick(r, 1, 2), large: true, unsigned: r() < 0.5 }) },
  // dw_band3x3's copy runs along the longer side: tall images go column by column, in bands of a few columns.
  { name: 'RequantizedDWConv HWC, 3x3 on tall narrow images (KeywordSpotting-like 25x5 and taller: the copy transposed, in bands)', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/, graph: (r) => convRq(r, { k: 3, group: 'dw', pads: 'random', stride: pick(r, 1, 2), hw: [[20, 60], [2, 6]], unsigned: r() < 0.5 }) },
  { name: 'RequantizedDWConv HWC, 3x3 on long rows (one output row a band)', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/, graph: (r) => convRq(r, { k: 3, group: 'dw', pads: 'random', stride: pick(r, 1, 2), hw: [[3, 8], [100, 200]], unsigned: r() < 0.5 }) },
  // uint8 3x3: |acc| <= 9 * 255 * 128 = 293760, so 32 bits hold acc * mul + add up to mul 7300 or so:
  // the channels' multipliers straddle it (some take the 32-bit copy path, some the 64-bit one).
  { name: 'RequantizedDWConv HWC, 3x3 with multipliers on both sides of the 32-bit bound', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/, graph: (r) => convRq(r, { k: 3, group: 'dw', pad: 1, stride: pick(r, 1, 2), unsigned: true, mulRange: [7290, 7330] }) },
  { name: 'RequantizedDWConv HWC, 3x3 on images smaller than the window', platform: 'siracusa', kernel: /^RequantizedDWConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 3, group: 'dw', pads: 'random', stride: pick(r, 1, 2), tiny: true, unsigned: r() < 0.5 }) },
  { name: 'RequantizedDWConv HWC, multipliers past 32 bits (64-bit requant), per channel or scalar', platform: 'siracusa',
    kernel: /^RequantizedDWConv2d_HWC_/,
    graph: (r) => convRq(r, { k: 3, group: 'dw', pad: 1, stride: pick(r, 1, 2), unsigned: r() < 0.5, wide: true, scalar: r() < 0.4 }) },
  { name: 'RequantizedDWConv1d HWC', platform: 'siracusa', kernel: /^RequantizedDWConv1d_HWC_/,
    graph: (r) => convRq(r, { k: pick(r, 1, 5), group: 'dw', oneD: true, pads: 'random', stride: pick(r, 1, 2), unsigned: r() < 0.5 }) },
  { name: 'Conv HWC, int32 result', platform: 'siracusa', kernel: /^Conv2d_HWC_/, graph: (r) => convRq(r, { k: 3, pad: 1, requant: false }) },
  { name: 'DWConv HWC, int32 result', platform: 'siracusa', kernel: /^DWConv2d_HWC_/, graph: (r) => convRq(r, { k: 3, group: 'dw', requant: false }) },
  { name: 'Conv CHW (Generic, unsigned input: offset added back)', platform: 'generic', kernel: /^Conv2d_CHW_/,
    graph: (r) => convRq(r, { k: 3, pad: 1, stride: pick(r, 1, 2), unsigned: true }) },
  { name: 'DWConv1d CHW (Generic)', platform: 'generic', kernel: /^DWConv1d_CHW_/, graph: (r) => convRq(r, { k: 3, group: 'dw', oneD: true }) },
  { name: 'RequantizedGemm (constant B)', platform: 'siracusa', kernel: /^RequantizedGemm_/, graph: (r) => matmulRq(r, { constB: true }) },
  { name: 'RequantizedMatMul (batched activations)', platform: 'siracusa', kernel: /^RequantizedMatMul_/, graph: (r) => matmulRq(r, { constB: false, batch: true }) },
  { name: 'RequantizedMatMul, K a multiple of 4 (word loads), B broadcast over batches', platform: 'siracusa', kernel: /^Requantized(Gemm|MatMul)_/,
    graph: (r) => matmulRq(r, { constB: true, batch: true, k: 'mul4' }) },
  { name: 'RequantizedMatMul, K = 4 (a word per row)', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 4, params: 'no-row' }) },
  { name: 'RequantizedMatMul, K = 4, unsigned A', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 4, unsignedA: true, params: 'no-row' }) },
  { name: 'RequantizedMatMul, K = 4, unsigned B', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 4, unsignedB: true, params: 'no-row' }) },
  { name: 'RequantizedMatMul, K = 4, unsigned A and B', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 4, unsignedA: true, unsignedB: true, params: 'no-row' }) },
  { name: 'RequantizedMatMul, K = 4, parameters per row', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 4, params: 'row' }) },
  { name: 'RequantizedMatMul, unsigned A and B, any K', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: r() < 0.5, unsignedA: true, unsignedB: true }) },
  { name: 'RequantizedMatMul, unsigned B, any K', platform: 'siracusa', kernel: /^RequantizedMatMul_/,
    graph: (r) => matmulRq(r, { constB: false, batch: r() < 0.5, unsignedB: true }) },
  { name: 'RequantizedMatMul, multipliers past 32 bits (64-bit requant)', platform: 'siracusa', kernel: /^Requantized(Gemm|MatMul)_/,
    graph: (r) => matmulRq(r, { constB: r() < 0.5, batch: true, k: r() < 0.5 ? 'mul4' : 'any', wide: true }) },
  { name: 'RequantizedMatMul, multipliers past 32 bits, per row', platform: 'siracusa', kernel: /^Requantized(Gemm|MatMul)_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 'mul4', wide: true, params: 'row' }) },
  { name: 'RequantizedMatMul, parameters per element', platform: 'siracusa', kernel: /^Requantized(Gemm|MatMul)_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 'mul4', params: 'element' }) },
  { name: 'RequantizedMatMul, parameters per batch', platform: 'siracusa', kernel: /^Requantized(Gemm|MatMul)_/,
    graph: (r) => matmulRq(r, { constB: false, batch: true, k: 'mul4', params: 'batch' }) },
  { name: 'MatMul, int32 result', platform: 'siracusa', kernel: /^MatMul_/, graph: (r) => matmulRq(r, { constB: false, requant: false, batch: r() < 0.5 }) },
  { name: 'MatMul (Generic), unsigned A and B: offsets', platform: 'generic', kernel: /^(MatMul|Gemm)_/,
    graph: (r) => matmulRq(r, { constB: false, requant: false, unsignedA: true, unsignedB: true, batch: r() < 0.5 }) },
  { name: 'Gemm, transB and bias, int32 result', platform: 'siracusa', kernel: /^Gemm_/, graph: (r) => gemmTransB(r) },
  { name: 'MatMul (Generic)', platform: 'generic', kernel: /^(MatMul|Gemm)_/, graph: (r) => matmulRq(r, { constB: true, requant: false }) },
  { name: 'RequantShift (Generic, per row / column)', platform: 'generic', kernel: /^RequantShift_/, graph: (r) => matmulRq(r, { constB: true }) },
  { name: 'RequantizedAdd', platform: 'siracusa', kernel: /^RequantizedAdd_/, graph: binary('Add', true) },
  { name: 'Add with broadcasting', platform: 'siracusa', kernel: /^Add_s32$/, graph: binary('Add') },
  { name: 'Sub (Generic)', platform: 'generic', kernel: /^Sub_s32$/, graph: binary('Sub') },
  { name: 'Mul', platform: 'siracusa', kernel: /^Mul_/, graph: binary('Mul') },
  { name: 'iRMSNorm', platform: 'siracusa', kernel: /^iRMSNorm_/, graph: unaryOp('iRMSNorm', { D: 2 ** 10, n_levels: 256 }) },
  { name: 'iLayerNorm', platform: 'siracusa', kernel: /^iLayerNorm_/, graph: unaryOp('iLayerNorm', { D: 2 ** 10, n_levels: 256 }) },
  { name: 'iNoNorm', platform: 'siracusa', kernel: /^iNoNorm_/, graph: unaryOp('iNoNorm', { D: 2 ** 6, mul: 3, n_levels: 256 }) },
  { name: 'iSoftmax', platform: 'siracusa', kernel: /^iSoftmax_/, graph: unaryOp('iSoftmax', SOFTMAX) },
  // microLlama's coefficients (the 32-bit path), ones past 31 bits (the 64-bit path), and a
  // negative C (exponentials below zero: the signed division).
  { name: 'iSoftmax, microLlama coefficients', platform: 'siracusa', kernel: /^iSoftmax_/,
    graph: unaryOp('iSoftmax', { coeffA: 1, coeffB: 64, coeffC: 2136, log2: 47, n_levels: 256 }, { unsigned: true }) },
  { name: 'iSoftmax, 64-bit exponentials', platform: 'siracusa', kernel: /^iSoftmax_/,
    graph: unaryOp('iSoftmax', { coeffA: 3000, coeffB: 64, coeffC: 2136, log2: 47, n_levels: 256 }) },
  // Exponentials past 2^15 (no int16 table: the 32-bit path with a reciprocal per row).
  { name: 'iSoftmax, exponentials past 16 bits', platform: 'siracusa', kernel: /^iSoftmax_/,
    graph: unaryOp('iSoftmax', { coeffA: 1, coeffB: 200, coeffC: 5, log2: 47, n_levels: 256 }) },
  { name: 'iSoftmax, negative exponentials', platform: 'siracusa', kernel: /^iSoftmax_/,
    graph: unaryOp('iSoftmax', { coeffA: 1, coeffB: 11, coeffC: -20, log2: 8, n_levels: 256 }) },
  { name: 'ITAMax', platform: 'siracusa', kernel: /^ITAMax_/, graph: unaryOp('ITAMax', { n_levels: 256 }) },
  { name: 'ITAPartialMax', platform: 'siracusa', kernel: /^ITAPartialMax_/,
    graph: unaryOp('ITAPartialMax', { group_width: 4, n_levels: 256 }, { rowMultiple: 4 }) },
  { name: 'iHardswish, int32 result', platform: 'siracusa', kernel: /^iHardswish_/, graph: unaryOp('iHardswish', HARDSWISH) },
  { name: 'RequantizediHardswish', platform: 'siracusa', kernel: /^RequantizediHardswish_/, graph: unaryOp('iHardswish', HARDSWISH, { requant: true }) },
  { name: 'RequantizediGELU', platform: 'siracusa', kernel: /^RequantizediGELU_/, graph: unaryOp('iGELU', GELU, { requant: true }) },
  { name: 'TrueIntegerDiv (Generic)', platform: 'generic', kernel: /^TrueIntegerDiv_/,
    graph: unaryOp('TrueIntegerDiv', { Delta: 2 ** 14, eps: 1, eta: 1, y: 3 }, { requant: true }) },
  { name: 'Relu', platform: 'siracusa', kernel: /^Relu_/, graph: unaryOp('Relu', {}) },
  { name: 'Transpose', platform: 'siracusa', kernel: /^Transpose_/, graph: movement('transpose') },
  { name: 'Concat (mixed input types)', platform: 'siracusa', kernel: /^Concat_copy$/, graph: movement('concat') },
  { name: 'Slice with steps', platform: 'siracusa', kernel: /^Slice_copy$/, graph: movement('slice') },
  { name: 'Pad (Generic, unsigned input: pad value shifted)', platform: 'generic', kernel: /^Pad2d_CHW_/, graph: movement('pad') },
  { name: 'Pad', platform: 'siracusa', kernel: /^Pad/, graph: movement('pad') },
  { name: 'MaxPool HWC', platform: 'siracusa', kernel: /^MaxPool2d_HWC_/, graph: movement('maxpool') },
  { name: 'MaxPool HWC, padded 2x2 and 3x3 windows, channels in groups of 4', platform: 'siracusa', kernel: /^MaxPool2d_HWC_/, graph: movement('maxpool-padded') },
  { name: 'MaxPool HWC, global (one output pixel: the cores split the channels)', platform: 'siracusa', kernel: /^MaxPool2d_HWC_/, graph: movement('maxpool-global') },
  { name: 'MaxPool CHW (Generic)', platform: 'generic', kernel: /^MaxPool2d_CHW_/, graph: movement('maxpool') },
  { name: 'ReduceMean', platform: 'siracusa', kernel: /^ReduceMean_/, graph: movement('reducemean') },
  { name: 'ReduceSum', platform: 'siracusa', kernel: /^ReduceSum_/, graph: movement('reducesum') },
  { name: 'Gather', platform: 'siracusa', kernel: /^Gather_copy$/, graph: movement('gather') },
];


describe.skipIf(missing(HOST_CC))('kernel library vs the reference interpreter', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      for (const variant of [1, 2]) {
        const rng = mulberry32(variant * 7919 + c.name.length);
        const graph = c.graph(rng);
        // Generic has one core: its kernels run with 1; the cluster's with 1, 3 and 8.
        for (const cores of c.platform === 'generic' ? [1] : [1, 3, 8]) {
          const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: c.platform, cores }, { check: 'none' });
          expect(lower.failures).toEqual([]);
          const kernels = Object.values(lower.bindings).map((x) => x.kernel);
          expect(kernels.some((k) => c.kernel.test(k)), `${c.kernel} in ${kernels.join(', ')}`).toBe(true);
          const data = testDataFor(graph, lower, undefined, undefined, variant);
          const r = buildAndRunHost(await generateWithPlan(lower, data, { cores, tiled: false }));
          expect(r.stdout, `variant ${variant}, ${cores} cores`).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        }
      }
    });
  }

  it('a wrong golden value is reported: the harness can fail', async () => {
    const graph = convRq(mulberry32(5), { k: 3, pad: 1 });
    const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa', cores: 3 }, { check: 'none' });
    const data = testDataFor(graph, lower);
    const golden = data.golden.map((g) => ({ ...g, data: Float64Array.from(g.data as Float64Array, (v, i) => (i === 2 ? v + 1 : v)) }));
    const r = buildAndRunHost(await generateWithPlan(lower, { ...data, golden }, { cores: 3, tiled: false }));
    expect(r.stdout).toMatch(/^Mismatch in output 0 at index 2: got -?\d+, expected -?\d+$/m);
    expect(r.errors).toBe(1);
    expect(r.exitCode).toBe(1);
  });
});
