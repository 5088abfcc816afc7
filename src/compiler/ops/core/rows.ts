// Helpers for the Deeploy ops that work row by row over the last axis (norms, softmaxes).
import { fail } from '../../../common/errors';
import type { TensorType } from '../../ir/graph';
import { numeric } from './dtypes';
import { shapeStr } from './tensor';

/** The row length (last dimension); rows of length 0 are rejected. */
export function rowLength(shape: readonly number[], where: string): number {
  const L = shape.at(-1);
  if (L === undefined || L === 0) fail('shape-mismatch', `needs a non-empty last dimension, got ${shapeStr(shape)}`, where);
  return L;
}

/** Checks a per-column parameter (weight, bias) of a row op: [L] or broadcastable to [L]. */
export function rowParam(t: TensorType | undefined, L: number, what: string, where: string): void {
  if (!t) return;
  numeric(t, what, where);
  const n = t.shape.reduce((a, b) => a * b, 1);
  if (!(n === 1 || (n === L && t.shape.at(-1) === L)))
    fail('shape-mismatch', `${what} ${shapeStr(t.shape)} must have the row length ${L} (or one value)`, where);
}

/** Reads parameter p at column j (a scalar parameter repeats). */
export function col(p: Float64Array, j: number): number {
  return p.length === 1 ? p[0] : p[j];
}
