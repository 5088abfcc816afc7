// Kernels every platform's library has, for one engine: requantization, matrix products
// without fusion, elementwise arithmetic, Deeploy's integer norms, softmaxes and activations,
// and data movement. Platform files list them after their own specialised kernels.
import type { EngineName } from '../lower/types';
import { eightBit, inT, int32Params, kernel, outT, outputFits32, upTo32Bit, type KernelSpec } from '../bind/catalogue';

export function commonKernels(E: EngineName): KernelSpec[] {
  return [
    ...kernel('RequantShift', E, (v) => `RequantShift_${inT(0)(v)}_${outT()(v)}`,
      'y = clip((x*mul + add + 2^(s-1)) >> s), scalar or broadcast parameters', [upTo32Bit(0), int32Params(1, 2)]),
    ...kernel('Gemm', E, (v) => `Gemm_${inT(0)(v)}_${inT(1)(v)}_s32`, 'GEMM with bias, int32 output (alpha, beta, trans flags in the loop)',
      [eightBit(0, 1), upTo32Bit(2), outputFits32]),
    ...kernel('MatMul', E, (v) => `MatMul_${inT(0)(v)}_${inT(1)(v)}_s32`, 'batched matrix product, int32 output',
      [eightBit(0, 1), outputFits32]),
    ...kernel('Add', E, 'Add_s32', 'elementwise sum with broadcasting, int32 accumulation', [upTo32Bit(), outputFits32]),
    ...kernel('Sub', E, 'Sub_s32', 'elementwise difference with broadcasting, int32', [upTo32Bit(), outputFits32]),
    ...kernel('Mul', E, (v) => `Mul_${inT(0)(v)}_${inT(1)(v)}_s32`, 'elementwise product with broadcasting, int32', [upTo32Bit(), outputFits32]),
    ...kernel('iRMSNorm', E, (v) => `iRMSNorm_${inT(0)(v)}_s8`, 'integer RMSNorm per row (isqrt, int8 output)', [eightBit(0), int32Params(1)]),
    ...kernel('iLayerNorm', E, (v) => `iLayerNorm_${inT(0)(v)}_s8`, 'integer LayerNorm per row', [eightBit(0), int32Params(1, 2)]),
    ...kernel('iNoNorm', E, (v) => `iNoNorm_${inT(0)(v)}_s8`, 'elementwise affine map (w, b) with requantization', [eightBit(0), int32Params(1, 2)]),
    ...kernel('iSoftmax', E, (v) => `iSoftmax_${inT(0)(v)}_u8`, 'integer softmax per row (polynomial exp), uint8 output', [eightBit(0)]),
    ...kernel(['ITAMax', 'ITAPartialMax'], E, (v) => `${v.node.op}_${inT(0)(v)}_u8`, "ITA's shift-based softmax per row, uint8 output", [eightBit(0)]),
    ...kernel('iHardswish', E, (v) => `iHardswish_${inT(0)(v)}_s32`, 'integer hardswish, int32 output', [eightBit(0)]),
    ...kernel('iGELU', E, (v) => `iGELU_${inT(0)(v)}_s32`, 'integer GELU (second-order polynomial), int32 output', [eightBit(0)]),
    ...kernel('TrueIntegerDiv', E, 'TrueIntegerDiv_s32', 'multiplication by the constant floor(Delta*eta/(y*eta+eps))', [upTo32Bit(0), outputFits32]),
    ...kernel('IntegerDiv', E, 'IntegerDiv_s32', 'rounded integer division of two tensors', [upTo32Bit(0, 1), outputFits32]),
    ...kernel(['ReduceMean', 'IntegerMean'], E, (v) => `ReduceMean_${inT(0)(v)}`, 'mean over axes, rounded half up', [upTo32Bit(0)]),
    ...kernel('ReduceSum', E, (v) => `ReduceSum_${inT(0)(v)}_s32`, 'sum over axes, int32', [upTo32Bit(0), outputFits32]),
    ...kernel('Relu', E, (v) => `Relu_${inT(0)(v)}`, 'max(x, 0)', [upTo32Bit(0)]),
    ...kernel('Clip', E, (v) => `Clip_${inT(0)(v)}`, 'clamp to [min, max]', [upTo32Bit(0)]),
    ...kernel('Transpose', E, (v) => `Transpose_${inT(0)(v)}`, 'permutes axes (strided copy)', [upTo32Bit(0)]),
    ...kernel('Pad', E, (v) => `PadNd_${inT(0)(v)}`, 'constant padding of any rank (strided copy)', [upTo32Bit(0)]),
    ...kernel('Concat', E, 'Concat_copy', 'copies each input into its slice of the output', [upTo32Bit()]),
    ...kernel('Slice', E, 'Slice_copy', 'strided copy of a window', [upTo32Bit(0)]),
    ...kernel('Gather', E, 'Gather_copy', 'copies the indexed slices', [upTo32Bit(0)]),
    ...kernel(['Reshape', 'Flatten', 'Squeeze', 'Unsqueeze'], E, 'Reshape_alias', 'no code: the output aliases the input buffer (same elements, same order)'),
    ...kernel('Identity', E, 'Copy', 'copies its input (an Identity from a graph input straight to a graph output)'),
  ];
}
