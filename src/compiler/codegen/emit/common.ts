// Small helpers every emitter uses: operands, dtype tags, 8-bit checks, offsets.
import { fail } from '../../../common/errors';
import type { IntType } from '../../passes/ranges';
import { DPG_TYPE, is8bit, lit } from '../ctypes';
import type { TensorInfo } from '../tensors';
import type { LayerSpec } from './types';

/** Input i, which must be present. */
export function input(l: LayerSpec, i: number, what: string): TensorInfo {
  const t = l.ins[i];
  if (!t) fail('bad-graph', `its ${what} (input ${i}) is missing`, l.where);
  return t;
}

/** Input i as a constant (weights, parameters). */
export function constInput(l: LayerSpec, i: number, what: string): TensorInfo & { values: Float64Array } {
  const t = input(l, i, what);
  if (!t.constant || !t.values) fail('not-implemented', `its ${what} ('${t.name}') is not a constant`, l.where, 'the kernel takes it as a constant');
  return t as TensorInfo & { values: Float64Array };
}

export const tag = (t: TensorInfo): string => DPG_TYPE[t.type];

/** The tensor is stored in 8 bits (int8 or uint8), or a 'dtype-mismatch' error. */
export function need8(l: LayerSpec, t: TensorInfo, what: string): IntType {
  if (!is8bit(t.type)) fail('dtype-mismatch', `its ${what} '${t.name}' is stored as ${t.type} (values ${t.range[0]}..${t.range[1]})`, l.where,
    'the kernel reads and writes 8-bit data');
  return t.type;
}

export const signedFlag = (t: TensorInfo): string => (t.type === 'int8' ? '1' : '0');

/** The kernel's x_off argument: what it adds to stored values to get the real ones. */
export const offArg = (t: TensorInfo): string => String(-t.offset);

/** For kernels that cannot take Generic's shifted input data. */
export function noOffsets(l: LayerSpec): void {
  const t = l.ins.find((x) => x && x.offset !== 0);
  if (t) fail('not-implemented', `its input '${t.name}' holds data shifted by ${t.offset} (Generic input typing), which this kernel cannot add back`, l.where);
}

export const numelOf = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/**
 * An integer attribute as the C literal of a kernel's int32 parameter, or a 'limit' error: C
 * would silently wrap it (found by the fuzzer: one_over_six = 2^32 became 0).
 */
export function int32Attr(l: LayerSpec, name: string): string {
  const v = l.attrs[name];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v > 2 ** 31 - 1)
    fail('limit', `attribute ${name} = ${String(v)} does not fit the kernel's 32-bit parameter`, l.where, 'the kernels take these parameters as int32');
  return lit(v);
}
