// Generic: Deeploy's host target. One core, one flat memory, plain C kernels on channels-first
// (NCHW) data. The lowering only simplifies: no fusion into Requantized* ops, NCHW kept.
import {
  broadcastParams, convIs, eightBit, inT, int32Params, kernel, layout, noDilation, noPadding, outT, outputFits32, rank, upTo32Bit,
  type KernelSpec,
} from '../bind/catalogue';
import { typeInputs } from '../passes/front/type-inputs';
import { dropIdentity } from '../passes/front/drop-identity';
import { sanitizeNames } from '../passes/front/sanitize-names';
import { nameIo } from '../passes/front/name-io';
import { dropEmptyInputs } from '../passes/front/drop-empty-inputs';
import { duplicateSharedConstants } from '../passes/front/duplicate-shared-constants';
import { foldConstants } from '../passes/front/fold-constants';
import { mergeIGelu } from '../passes/requant/merge-igelu';
import { mergeMatMulAdd } from '../passes/layout/merge-matmul-add';
import { constAddIntoRequant } from '../passes/requant/const-add-into-requant';
import { extractPadding } from '../passes/layout/extract-padding';
import { dropEmptyBias } from '../passes/cleanup/drop-empty-bias';
import { dropSingletonReduceMean } from '../passes/cleanup/drop-singleton-reduce-mean';
import { PLATFORM_LIMITS } from './limits';
import { MiB, type Platform } from './types';
import { commonKernels } from './common-kernels';

const passes = [
  // front: make the graph tidy and self-contained
  typeInputs,                 // graph inputs typed from their values (int8, uint8, ...)
  dropIdentity,               // Identity nodes go
  sanitizeNames,              // names become C identifiers
  nameIo,                     // graph I/O named input_i / output_i
  dropEmptyInputs,            // empty KV-cache inputs become empty constants
  duplicateSharedConstants,   // each node owns its constants
  foldConstants,              // constant subgraphs are evaluated
  // Generic
  mergeIGelu,                 // iGELU + RequantShift -> RequantizediGELU
  mergeMatMulAdd,             // 2-D MatMul + bias Add -> Gemm
  constAddIntoRequant,        // a bias Add disappears into the requant after it
  extractPadding,             // Conv / MaxPool padding -> explicit Pad nodes
  dropEmptyBias,              // all-zero biases go
  dropSingletonReduceMean,    // means over size-1 axes become Reshapes
];

const E = 'cpu' as const;

const kernels: KernelSpec[] = [
  ...kernel('Conv', E, (v) => `${v.inputs[0].shape.length === 3 ? 'Conv1d' : 'Conv2d'}_CHW_${inT(0)(v)}_s8_s32`,
    'direct convolution on CHW data, int32 output; padding comes from a separate Pad node',
    [layout('CHW'), rank(0, 3, 4), convIs('dense'), noDilation, noPadding, eightBit(0, 1), outputFits32]),
  ...kernel('Conv', E, (v) => `${v.inputs[0].shape.length === 3 ? 'DWConv1d' : 'DWConv2d'}_CHW_${inT(0)(v)}_s8_s32`,
    'depthwise convolution on CHW data, int32 output',
    [layout('CHW'), rank(0, 3, 4), convIs('depthwise'), noDilation, noPadding, eightBit(0, 1), outputFits32]),
  ...kernel('RequantizediGELU', E, (v) => `RequantizediGELU_${inT(0)(v)}_${outT()(v)}`, 'iGELU with its requantization in one loop',
    [eightBit(0), int32Params(1, 2), broadcastParams(1, 2)]),
  ...kernel('MaxPool', E, (v) => `${v.inputs[0].shape.length === 3 ? 'MaxPool1d' : 'MaxPool2d'}_CHW_${inT(0)(v)}`, 'max pooling on CHW data',
    [layout('CHW'), rank(0, 3, 4), noDilation, eightBit(0)]),
  ...kernel('Pad', E, (v) => `Pad${v.inputs[0].shape.length - 2}d_CHW_${inT(0)(v)}`, 'constant padding on CHW data',
    [layout('CHW'), rank(0, 3, 4), upTo32Bit(0)]),
  ...commonKernels(E),
];

export const generic: Platform = {
  name: 'generic',
  title: 'Generic',
  description: "Deeploy's Generic target: plain C kernels on one host core, channels-first data, one flat memory. The lowering simplifies the graph but fuses nothing.",
  passes,
  memory: [{ name: 'RAM', bytes: 64 * MiB, doc: 'one flat memory: every buffer lives here, nothing is tiled' }],
  engines: [{ name: 'cpu', title: 'host CPU', cores: 1, doc: 'one core running the Generic C kernels' }],
  kernels,
  userEngine: 'cpu',
  inputTyping: 'signed-offset',
  limits: PLATFORM_LIMITS.generic,
};
