// ONNX TensorProto.DataType numbers <-> our DType names.
import type { DType } from '../ir/graph';

const ONNX_TO_DTYPE: Record<number, DType> = {
  1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64',
  8: 'string', 9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64',
};

const DTYPE_TO_ONNX = Object.fromEntries(
  Object.entries(ONNX_TO_DTYPE).map(([k, v]) => [v, Number(k)]),
) as Record<DType, number>;

export function dtypeFromOnnx(code: number): DType | undefined {
  return ONNX_TO_DTYPE[code];
}

export function dtypeToOnnx(dtype: DType): number {
  return DTYPE_TO_ONNX[dtype];
}
