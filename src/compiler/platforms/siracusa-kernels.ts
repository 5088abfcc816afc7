// Siracusa's cluster kernel library (PULP-NN style, channels-last), shared by both Siracusa
// platforms: fused requantized kernels first, then the common ones.
import {
  attrInt, convIs, convKind, eightBit, eightBitOut, broadcastParams, inT, int32Params, kernel, kernelSize, layout, noDilation,
  noPadding, outT, outputFits32, perChannel, rank, stride1, upTo32Bit, type KernelSpec, type NodeView,
} from '../bind/catalogue';
import { commonKernels } from './common-kernels';

const E = 'cluster' as const;
const dims = (v: NodeView) => (v.inputs[0].shape.length === 3 ? '1d' : '2d');

export const clusterKernels: KernelSpec[] = [
  ...kernel('RequantizedConv', E, (v) => `RequantizedPwConv${dims(v)}_HWC_${inT(0)(v)}_${outT()(v)}`,
    'pointwise (1x1) conv as a GEMM over pixels, requantized, parallel over output channels',
    [layout('HWC'), rank(0, 3, 4), convIs('dense'), kernelSize([1, 1], [1]), stride1, noPadding, eightBit(0, 1), int32Params(2, 3), perChannel('HWC', 2, 3), noDilation, eightBitOut]),
  ...kernel('RequantizedConv', E, (v) => `RequantizedDWConv${dims(v)}_HWC_${inT(0)(v)}_${outT()(v)}`,
    'depthwise conv on HWC data, requantized, parallel over channels',
    [layout('HWC'), rank(0, 3, 4), convIs('depthwise'), eightBit(0, 1), int32Params(2, 3), perChannel('HWC', 2, 3), noDilation, eightBitOut]),
  ...kernel('RequantizedConv', E, (v) => `RequantizedConv${dims(v)}_HWC_${inT(0)(v)}_${outT()(v)}`,
    'im2col conv on HWC data with 4x int8 SIMD dot products, requantized, parallel over output rows',
    [layout('HWC'), rank(0, 3, 4), convIs('dense'), eightBit(0, 1), int32Params(2, 3), perChannel('HWC', 2, 3), noDilation, eightBitOut]),
  ...kernel('Conv', E, (v) => `${convKind(v) === 'depthwise' ? 'DWConv' : 'Conv'}${dims(v)}_HWC_${inT(0)(v)}_s8_s32`,
    'conv on HWC data without requantization, int32 output',
    [layout('HWC'), rank(0, 3, 4), convIs('dense', 'depthwise'), noDilation, eightBit(0, 1), outputFits32]),
  ...kernel('MaxPool', E, (v) => `MaxPool${dims(v)}_HWC_${inT(0)(v)}`, 'max pooling on HWC data',
    [layout('HWC'), rank(0, 3, 4), noDilation, eightBit(0)]),
  ...kernel('Pad', E, (v) => `Pad${dims(v)}_HWC_${inT(0)(v)}`, 'constant padding of HWC data', [layout('HWC'), rank(0, 3, 4), eightBit(0)]),
  ...kernel('RequantizedGemm', E, (v) => (v.inputs[1].constant && v.inputs[1].shape.length === 2
    ? `RequantizedGemm_${inT(0)(v)}_${inT(1)(v)}_${outT()(v)}` : `RequantizedMatMul_${inT(0)(v)}_${inT(1)(v)}_${outT()(v)}`),
    'A [M, K] times B [N, K] (transB = 1), requantized in the output loop (mul and bias broadcast: per tensor, column, row or batch); batched when B is an activation',
    [attrInt('transA', 0), attrInt('transB', 1), eightBit(0, 1), int32Params(2, 3), broadcastParams(2, 3), eightBitOut]),
  ...kernel('RequantizedAdd', E, (v) => `RequantizedAdd_${inT(0)(v)}_${inT(1)(v)}_${outT()(v)}`,
    'y = RQout(RQ1(a) + RQ2(b)) with scalar requantizers, 8-bit in and out', [eightBit(0, 1), eightBitOut]),
  ...kernel('RequantizediHardswish', E, (v) => `RequantizediHardswish_${inT(0)(v)}_${outT()(v)}`,
    'iHardswish and its requantization in one loop', [eightBit(0), eightBitOut]),
  ...kernel('RequantizediGELU', E, (v) => `RequantizediGELU_${inT(0)(v)}_${outT()(v)}`,
    'iGELU and its requantization in one loop', [eightBit(0), int32Params(1, 2), broadcastParams(1, 2), eightBitOut]),
  ...kernel('RQIntegerDiv', E, (v) => `RQIntegerDiv_s32_${outT()(v)}`, 'IntegerDiv and its requantization in one loop',
    [upTo32Bit(0, 1), int32Params(2, 3), eightBitOut]),
  ...commonKernels(E),
];
