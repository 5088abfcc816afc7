// Siracusa + N-EUREKA: the same SoC with its NPU (6x6 processing elements, 32 input x 32 output
// channels, bit-serial int8 weights) and the 4 MiB weight memory beside it. The lowering is
// Siracusa's plus one pass: linear layers with constant weights become 1x1 convolutions, which
// the NPU runs; the binder puts convs the NPU can do on the NPU (its kernels come first).
import {
  constantInput, convIs, eightBit, eightBitOut, inT, int32Params, kernel, kernelSize, layout, noDilation, outT, padAtMost,
  perChannel, rank, stride1, type KernelSpec, type NodeView,
} from '../bind/catalogue';
import { normalizeGemm } from '../passes/layout/normalize-gemm';
import { gemmToPointwiseConv } from '../passes/layout/gemm-to-pointwise-conv';
import { CLEANUP_PASSES, CLUSTER, FRONT_PASSES, insertAfter, LAYOUT_PASSES, REQUANT_PASSES, SIRACUSA_MEMORY } from './siracusa';
import { PLATFORM_LIMITS } from './limits';
import { SIRACUSA_MAP } from './siracusa-memory';
import { clusterKernels } from './siracusa-kernels';
import type { Platform } from './types';

// Siracusa's listing with one insertion: linear layers become 1x1 convolutions (the NPU runs
// them) once the Gemms are normalized, before the layout moves convolutions channels-last.
const passes = [
  ...FRONT_PASSES,
  ...REQUANT_PASSES,
  ...insertAfter(LAYOUT_PASSES, normalizeGemm, gemmToPointwiseConv),
  ...CLEANUP_PASSES,
];

const N = 'neureka' as const;

/** What codegen does to the weights of an NPU layer. */
function npuNotes(v: NodeView): string[] {
  return [
    'weights kept as plain int8 [C_out][kh][kw][C_in] (depthwise [C][3][3]), streamed bit-serially: WEIGHT_BITS = the fewest bits holding them; mul and add one int32 per output channel (runtime/neureka.h)',
    v.wmem ? 'weights placed in the weight memory (read by the NPU in place, no DMA)' : 'weights moved like any operand: DMA to L1 when tiled, read from their home level untiled (weight memory off)',
  ];
}

const npuCommon = [layout('HWC'), rank(0, 4), constantInput(1, 'weights'), stride1, noDilation, eightBit(0, 1), int32Params(2, 3),
  perChannel('HWC', 2, 3), eightBitOut];

const npuKernels: KernelSpec[] = [
  ...kernel('RequantizedConv', N, (v) => `NeurekaPwConv1x1_${inT(0)(v)}_${outT()(v)}`,
    'N-EUREKA 1x1 mode: input channels in subtiles of 32, 32 output channels per pass, per-channel scale, bias and shift',
    [...npuCommon, convIs('dense'), kernelSize([1, 1]), padAtMost(0)], npuNotes),
  ...kernel('RequantizedConv', N, (v) => `NeurekaDenseConv3x3_${inT(0)(v)}_${outT()(v)}`,
    'N-EUREKA 3x3 dense mode on 6x6 output pixels x 32 channels per pass',
    [...npuCommon, convIs('dense'), kernelSize([3, 3]), padAtMost(1)], npuNotes),
  ...kernel('RequantizedConv', N, (v) => `NeurekaDwConv3x3_${inT(0)(v)}_${outT()(v)}`,
    'N-EUREKA 3x3 depthwise mode (channel subtile 28)',
    [...npuCommon, convIs('depthwise'), kernelSize([3, 3]), padAtMost(1)], npuNotes),
];

export const siracusaNeureka: Platform = {
  name: 'siracusa-neureka',
  title: 'Siracusa + N-EUREKA',
  description: 'Siracusa with its N-EUREKA NPU and 4 MiB weight memory: linear layers become 1x1 convolutions, and convolutions with constant weights, stride 1 and 1x1 or 3x3 kernels run on the NPU.',
  passes,
  memory: [...SIRACUSA_MEMORY,
    { name: 'WMEM', bytes: SIRACUSA_MAP.WMEM.bytes, base: SIRACUSA_MAP.WMEM.base, doc: 'Neural Memory Subsystem: weight memory with a direct ~36 B/cycle link to N-EUREKA (used when the weights are placed in the weight memory)' }],
  engines: [CLUSTER, {
    name: 'neureka', title: 'N-EUREKA NPU',
    doc: '6x6 spatial PEs, 32 input x 32 output channels, bit-serial int8 weights; modes 1x1, 3x3 dense, 3x3 depthwise; stride 1; reads activations from L1 at ~32 B/cycle',
    tiling: {
      // The PE array computes 6x6 output pixels x 32 output channels at a time: a tile that is
      // not a whole number of such subtiles leaves PEs idle (the tiler prefers whole subtiles).
      efficiency: (_v, tile) => {
        const used = (n: number, q: number) => n / (Math.ceil(n / q) * q);
        const c = tile[tile.length - 1], [h, w] = tile.length === 4 ? [tile[1], tile[2]] : [1, tile[1] ?? 1];
        return used(c, 32) * used(h, 6) * used(w, 6);
      },
      // With --neureka-wmem the weights sit in the weight memory, read over the NPU's own link.
      directInput: (_v, input, config) => (input === 1 && config.neurekaWmem ? 'WMEM' : undefined),
      opsPerCycle: 256,
      tileOverhead: 200,
    },
  }],
  kernels: [...npuKernels, ...clusterKernels],
  userEngine: 'cluster',
  inputTyping: 'as-is',
  runtime: 'siracusa',
  limits: PLATFORM_LIMITS['siracusa-neureka'],
};
