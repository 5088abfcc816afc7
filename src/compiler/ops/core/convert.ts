// TensorData (typed arrays from ONNX / npz) <-> IntTensor, checking every value is an integer.
import { fail, type ErrorCode } from '../../../common/errors';
import type { DType, Initializer, TensorData } from '../../ir/graph';
import { MAX_EXACT, type IntTensor } from './tensor';

/**
 * Converts values to the exact-integer representation. Floats must hold integers (the Deeploy
 * files declare FLOAT but store integers); a fraction, NaN or a value beyond 2^53 is an error
 * with `code`, naming `what` at `where`.
 */
export function toIntTensor(data: TensorData, shape: readonly number[], what: string, where: string,
  code: ErrorCode = 'dtype-mismatch'): IntTensor {
  const n = data.length;
  const out = new Float64Array(n);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (let i = 0; i < n; i++) {
      const v = data[i];
      if (v > BigInt(MAX_EXACT) || v < -BigInt(MAX_EXACT))
        fail(code, `${what} holds ${v} at index ${i}, beyond the 2^53 the reference interpreter holds exactly`, where);
      out[i] = Number(v);
    }
  } else if (data instanceof Float32Array || data instanceof Float64Array) {
    for (let i = 0; i < n; i++) {
      const v = data[i];
      if (!Number.isInteger(v) || Math.abs(v) > MAX_EXACT)
        fail(code, `${what} holds the non-integer value ${v} at index ${i}`, where,
          'the reference interpreter runs integer (quantized) networks only');
      out[i] = v;
    }
  } else {
    out.set(data);
  }
  return { shape: [...shape], data: out };
}

export function initializerToInt(init: Initializer, where?: string): IntTensor {
  if (init.dtype === 'float16' || init.dtype === 'string')
    fail('dtype-mismatch', `initializer '${init.name}' has dtype ${init.dtype}, which the reference interpreter does not run`, where ?? `initializer '${init.name}'`);
  return toIntTensor(init.data, init.shape, `initializer '${init.name}'`, where ?? `initializer '${init.name}'`);
}

const CTOR: Partial<Record<DType, { new (n: number): TensorData }>> = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, float32: Float32Array, float64: Float64Array, bool: Uint8Array,
};

/** Writes exact integers into a typed array of `dtype` (int64 via BigInt), for export. */
export function fromIntTensor(t: IntTensor, dtype: DType): TensorData {
  if (dtype === 'int64' || dtype === 'uint64') {
    const out = dtype === 'int64' ? new BigInt64Array(t.data.length) : new BigUint64Array(t.data.length);
    for (let i = 0; i < t.data.length; i++) out[i] = BigInt(t.data[i]);
    return out;
  }
  const ctor = CTOR[dtype];
  if (!ctor) throw new Error(`fromIntTensor: no typed array for ${dtype}`);
  const out = new ctor(t.data.length);
  (out as Float64Array).set(t.data);
  return out;
}
