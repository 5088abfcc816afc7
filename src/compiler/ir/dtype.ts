// Element types: sizes, typed-array constructors and value ranges, in one table.
import type { DType, TensorData } from './graph';

type TypedCtor = { new (n: number | ArrayBuffer): TensorData; BYTES_PER_ELEMENT: number };

interface DTypeInfo {
  bytes: number;
  array: TypedCtor | null; // null: no typed array (string, float16 kept as raw uint16)
  integer: boolean;
  min?: number;
  max?: number;
}

export const DTYPES: Record<DType, DTypeInfo> = {
  float32: { bytes: 4, array: Float32Array, integer: false },
  float64: { bytes: 8, array: Float64Array, integer: false },
  float16: { bytes: 2, array: Uint16Array, integer: false },
  int8: { bytes: 1, array: Int8Array, integer: true, min: -128, max: 127 },
  uint8: { bytes: 1, array: Uint8Array, integer: true, min: 0, max: 255 },
  int16: { bytes: 2, array: Int16Array, integer: true, min: -32768, max: 32767 },
  uint16: { bytes: 2, array: Uint16Array, integer: true, min: 0, max: 65535 },
  int32: { bytes: 4, array: Int32Array, integer: true, min: -(2 ** 31), max: 2 ** 31 - 1 },
  uint32: { bytes: 4, array: Uint32Array, integer: true, min: 0, max: 2 ** 32 - 1 },
  int64: { bytes: 8, array: BigInt64Array as unknown as TypedCtor, integer: true },
  uint64: { bytes: 8, array: BigUint64Array as unknown as TypedCtor, integer: true },
  bool: { bytes: 1, array: Uint8Array, integer: true, min: 0, max: 1 },
  string: { bytes: 0, array: null, integer: false },
};

export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function allocTensor(dtype: DType, n: number): TensorData {
  const ctor = DTYPES[dtype].array;
  if (!ctor) throw new Error(`cannot allocate a ${dtype} tensor`);
  return new ctor(n);
}

/** Element i as a JS number (int64 via BigInt; exact below 2^53). */
export function elementAt(data: TensorData, i: number): number {
  const v = data[i];
  return typeof v === 'bigint' ? Number(v) : v;
}
