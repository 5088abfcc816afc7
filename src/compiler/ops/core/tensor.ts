// The interpreter's value type and the index arithmetic every op shares.
//
// Values are integers held in a Float64Array. A double holds every integer up to 2^53 exactly,
// so the representation is exact as long as no element exceeds MAX_EXACT in magnitude. Ops
// keep that promise by bounding their arithmetic before they run it (see exact.ts): a fast
// path when the bound proves every intermediate fits, a BigInt path when it does not, and a
// 'limit' error when even the result cannot be held. Nothing is ever silently rounded.
import { fail } from '../../../common/errors';

/** An integer tensor: row-major, every element an integer with |v| <= MAX_EXACT. */
export interface IntTensor {
  shape: number[];
  data: Float64Array;
}

/** Largest magnitude a double holds exactly together with all smaller integers (2^53 - 1). */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function tensor(shape: readonly number[], data?: Float64Array | readonly number[]): IntTensor {
  const n = numel(shape);
  const d = data === undefined ? new Float64Array(n) : data instanceof Float64Array ? data : Float64Array.from(data);
  if (d.length !== n) throw new Error(`tensor: ${d.length} values for shape [${shape.join(', ')}]`);
  return { shape: [...shape], data: d };
}

export function scalar(v: number): IntTensor {
  return tensor([], [v]);
}

export function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

export function shapeStr(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/** Largest |element|, 0 for an empty tensor. Cached on the tensor object: values never change. */
export function maxAbs(t: IntTensor): number {
  const cached = (t as { maxAbs?: number }).maxAbs;
  if (cached !== undefined) return cached;
  let m = 0;
  const d = t.data;
  for (let i = 0; i < d.length; i++) {
    const v = d[i] < 0 ? -d[i] : d[i];
    if (v > m) m = v;
  }
  Object.defineProperty(t, 'maxAbs', { value: m, enumerable: false });
  return m;
}

/** Normalises a possibly negative axis; `rank` is the rank it indexes into. */
export function normAxis(axis: number, rank: number, where: string, what = 'axis'): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!Number.isInteger(a) || a < 0 || a >= rank)
    fail('bad-graph', `${what} ${axis} is out of range for a rank-${rank} tensor`, where);
  return a;
}

/** numpy broadcasting of two shapes; 'shape-mismatch' when they do not broadcast. */
export function broadcastShapes(shapes: readonly (readonly number[])[], where: string): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const o = rank - s.length + i;
      const d = s[i];
      if (d === out[o] || d === 1) continue;
      if (out[o] === 1) out[o] = d;
      else fail('shape-mismatch', `shapes ${shapes.map(shapeStr).join(' and ')} do not broadcast`, where);
    }
  }
  return out;
}

/**
 * For every element of `outShape` (row-major), the flat index of the element of a tensor of
 * shape `inShape` that numpy broadcasting reads there. `inShape` must broadcast to `outShape`.
 */
export function broadcastIndex(inShape: readonly number[], outShape: readonly number[]): Int32Array {
  const n = numel(outShape);
  const idx = new Int32Array(n);
  const rank = outShape.length;
  const inStrides = stridesOf(inShape);
  // Stride of each output axis in the input (0 where the input is broadcast or absent).
  const st = new Array<number>(rank).fill(0);
  for (let i = 0; i < inShape.length; i++) {
    const o = rank - inShape.length + i;
    st[o] = inShape[i] === 1 ? 0 : inStrides[i];
  }
  if (n === 0) return idx;
  const counter = new Array<number>(rank).fill(0);
  let off = 0;
  for (let k = 0; k < n; k++) {
    idx[k] = off;
    for (let a = rank - 1; a >= 0; a--) {
      counter[a]++;
      off += st[a];
      if (counter[a] < outShape[a]) break;
      off -= st[a] * counter[a];
      counter[a] = 0;
    }
  }
  return idx;
}

/** Reads `t` broadcast to `outShape` as a flat array (a view when no broadcasting is needed). */
export function broadcastTo(t: IntTensor, outShape: readonly number[]): Float64Array {
  if (sameShape(t.shape, outShape)) return t.data;
  const n = numel(outShape);
  const out = new Float64Array(n);
  if (t.data.length === 1) return out.fill(t.data[0]);
  const idx = broadcastIndex(t.shape, outShape);
  for (let i = 0; i < n; i++) out[i] = t.data[idx[i]];
  return out;
}

/** Permutes the axes of `t`: output axis i is input axis perm[i]. */
export function transposeData(t: IntTensor, perm: readonly number[]): IntTensor {
  const rank = t.shape.length;
  const outShape = perm.map((p) => t.shape[p]);
  const n = t.data.length;
  const out = new Float64Array(n);
  if (n === 0) return { shape: outShape, data: out };
  const inStrides = stridesOf(t.shape);
  const st = perm.map((p) => inStrides[p]);
  const counter = new Array<number>(rank).fill(0);
  let off = 0;
  const src = t.data;
  for (let k = 0; k < n; k++) {
    out[k] = src[off];
    for (let a = rank - 1; a >= 0; a--) {
      counter[a]++;
      off += st[a];
      if (counter[a] < outShape[a]) break;
      off -= st[a] * counter[a];
      counter[a] = 0;
    }
  }
  return { shape: outShape, data: out };
}
