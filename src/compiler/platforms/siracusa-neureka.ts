// Siracusa + N-EUREKA: the same SoC with its NPU (6x6 processing elements, 32 input x 32 output
// channels, bit-serial int8 weights) and the 4 MiB weight memory beside it. The lowering is
// Siracusa's plus one pass: linear layers with constant weights become 1x1 convolutions, which
// the NPU runs; the binder puts convs the NPU can do on the NPU (its kernels come first).
import {
  constantInput, convIs, eightBit, eightBitOut, inT, int32Params, kernel, kernelSize, layout, noDilation, outT, padAtMost,
  perChannel, rank, stride1, type KernelSpec, type NodeView,
} from '../bind/catalogue';
import { typeInputs } from '../passes/front/type-inputs';
import { dropIdentity } from '../passes/front/drop-identity';
import { sanitizeNames } from '../passes/front/sanitize-names';
import { nameIo } from '../passes/front/name-io';
import { dropEmptyInputs } from '../passes/front/drop-empty-inputs';
import { duplicateSharedConstants } from '../passes/front/duplicate-shared-constants';
import { foldConstants } from '../passes/front/fold-constants';
import { skipEmptyConcat } from '../passes/cleanup/skip-empty-concat';
import { dropIdentityRequants } from '../passes/requant/drop-identity-requants';
import { splitRequantPerConsumer } from '../passes/requant/split-requant-per-consumer';
import { mergeTrueIntegerDiv } from '../passes/requant/merge-true-integer-div';
import { mergeIntegerDiv } from '../passes/requant/merge-integer-div';
import { mergeIGelu } from '../passes/requant/merge-igelu';
import { mergeIHardswish } from '../passes/requant/merge-ihardswish';
import { fuseConvRequant } from '../passes/requant/fuse-conv-requant';
import { constAddIntoRequant } from '../passes/requant/const-add-into-requant';
import { fuseGemmRequant } from '../passes/requant/fuse-gemm-requant';
import { fuseAddRequants } from '../passes/requant/fuse-add-requants';
import { dropEmptyBias } from '../passes/cleanup/drop-empty-bias';
import { dropSingletonReduceMean } from '../passes/cleanup/drop-singleton-reduce-mean';
import { normalizeGemm } from '../passes/layout/normalize-gemm';
import { gemmToPointwiseConv } from '../passes/layout/gemm-to-pointwise-conv';
import { nchwToNhwc } from '../passes/layout/nchw-to-nhwc';
import { splitTransposesPerConsumer } from '../passes/layout/split-transposes-per-consumer';
import { squashTransposesAroundAdd } from '../passes/layout/squash-transposes-around-add';
import { mergeTransposePairs } from '../passes/layout/merge-transpose-pairs';
import { foldTransposesIntoConstants } from '../passes/layout/fold-transposes-into-constants';
import { dropIdentityTransposes } from '../passes/layout/drop-identity-transposes';
import { cseTransposes } from '../passes/layout/cse-transposes';
import { foldConstantReshapes } from '../passes/cleanup/fold-constant-reshapes';
import { mergeReshapes } from '../passes/cleanup/merge-reshapes';
import { dropOutputReshape } from '../passes/cleanup/drop-output-reshape';
import { CLUSTER, SIRACUSA_MEMORY } from './siracusa';
import { clusterKernels } from './siracusa-kernels';
import { MiB, type Platform } from './types';

const passes = [
  // front: make the graph tidy and self-contained
  typeInputs,                   // graph inputs typed from their values (int8, uint8, ...)
  dropIdentity,                 // Identity nodes go
  sanitizeNames,                // names become C identifiers
  nameIo,                       // graph I/O named input_i / output_i
  dropEmptyInputs,              // empty KV-cache inputs become empty constants
  duplicateSharedConstants,     // each node owns its constants
  foldConstants,                // constant subgraphs are evaluated
  // requantization: every op absorbs the requant around it
  skipEmptyConcat,              // Concat with an empty KV cache is a copy: gone
  dropIdentityRequants,         // requants that change no value go (after Concat/Reshape/Transpose)
  splitRequantPerConsumer,      // a requant feeding an Add or Concat and others: one copy each
  mergeTrueIntegerDiv,          // TrueIntegerDiv folds into the requant's mul
  mergeIntegerDiv,              // IntegerDiv + requant -> RQIntegerDiv
  mergeIGelu,                   // iGELU + requant -> RequantizediGELU
  mergeIHardswish,              // iHardswish + requant -> RequantizediHardswish
  fuseConvRequant,              // Conv + requant -> RequantizedConv
  constAddIntoRequant,          // a bias Add disappears into the requant after it
  fuseGemmRequant,              // Gemm/MatMul + requant -> RequantizedGemm
  fuseAddRequants,              // Add + input/output requants -> RequantizedAdd
  dropEmptyBias,                // all-zero biases go
  dropSingletonReduceMean,      // means over size-1 axes become Reshapes
  // layout: what the kernels read
  normalizeGemm,                // RequantizedGemm as A [M,K] x B [N,K] (transB = 1)
  gemmToPointwiseConv,          // N-EUREKA: linear layers -> 1x1 RequantizedConv in NHWC
  nchwToNhwc,                   // convs, pools, pads channels-last, Transposes around them
  // Transpose clean-up
  splitTransposesPerConsumer,   // one Transpose per reader
  squashTransposesAroundAdd,    // T(a) + T(b) -> T(a + b)
  mergeTransposePairs,          // T(T(x)) -> one Transpose (identity when they cancel)
  foldTransposesIntoConstants,  // Transposes of weights are applied now
  dropIdentityTransposes,       // identity Transposes go, size-1 moves become Reshapes
  cseTransposes,                // identical Transposes of one tensor: one is kept
  // Reshape clean-up
  foldConstantReshapes,         // Reshapes of constants are applied now
  mergeReshapes,                // Reshape chains collapse (around the 1x1 convs too)
  dropOutputReshape,            // graph outputs are written in their producer's shape
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
    { name: 'WMEM', bytes: 4 * MiB, base: 0x1040_0000, doc: 'Neural Memory Subsystem: weight memory with a direct ~36 B/cycle link to N-EUREKA (used with --neureka-wmem)' }],
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
  inputTyping: 'as-is',
  runtime: 'siracusa',
};
