// Dtype rules shared by the ops. The Deeploy test graphs declare FLOAT everywhere yet hold
// integers (and sometimes mix int32 initializers into float graphs), so the rules check
// what matters: arithmetic needs numbers, indices need integers. Output dtypes follow ONNX
// where ONNX says something, and the data input's dtype otherwise.
import { fail } from '../../../common/errors';
import type { DType, TensorType } from '../../ir/graph';

const RANK: Partial<Record<DType, number>> = {
  bool: 0, uint8: 1, int8: 2, uint16: 3, int16: 4, uint32: 5, int32: 6, uint64: 7, int64: 8,
  float16: 9, float32: 10, float64: 11,
};

export function isNumeric(d: DType): boolean {
  return d !== 'string' && d !== 'bool';
}

export function isIntegerDType(d: DType): boolean {
  return d.startsWith('int') || d.startsWith('uint');
}

/** Checks an arithmetic operand. */
export function numeric(t: TensorType, what: string, where: string): TensorType {
  if (!isNumeric(t.dtype)) fail('dtype-mismatch', `${what} has dtype ${t.dtype}; this op needs numbers`, where);
  return t;
}

/** Checks an input that holds indices, axes, pads or a shape. */
export function indexInput(t: TensorType, what: string, where: string): TensorType {
  if (!isIntegerDType(t.dtype))
    fail('dtype-mismatch', `${what} has dtype ${t.dtype}; it must be an integer tensor (int64 or int32)`, where);
  return t;
}

/** The dtype of a result computed from several numeric operands: the widest of them. */
export function promote(dtypes: readonly DType[]): DType {
  let best = dtypes[0];
  for (const d of dtypes) if ((RANK[d] ?? -1) > (RANK[best] ?? -1)) best = d;
  return best;
}
