// Helpers shared by the fusion passes: reading a RequantShift's constants, lining requant
// parameters up with the tensor they scale, and building the attributes of the fused nodes.
import type { Attr, Node } from '../ir/graph';
import { fits } from '../ops/core/exact';
import { levelsRange, paramLayout, shiftOfDiv } from '../ops/core/requant';
import { broadcastIndex, broadcastShapes, numel, sameShape, type IntTensor } from '../ops/core/tensor';
import { RequantShift } from '../ops/requant-shift';
import { readAttrs, whereNode } from '../ops/types';
import type { Editor } from './editor';

export interface Requant {
  node: Node;
  mul: IntTensor;
  add: IntTensor;
  /** div = 2^shift. */
  shift: number;
  nLevels: number;
  signed: boolean;
  /** The clip range. */
  lo: number;
  hi: number;
}

/** A RequantShift node with constant mul/add, read; undefined for anything else. */
export function readRequant(ed: Editor, node: Node | undefined): Requant | undefined {
  if (!node || node.op !== 'RequantShift') return undefined;
  const mul = ed.constant(node.inputs[1]), add = ed.constant(node.inputs[2]);
  if (!mul || !add) return undefined;
  const where = whereNode(node);
  const a = readAttrs(node, RequantShift.attrs, where);
  const shift = shiftOfDiv(a.div, where);
  const [lo, hi] = levelsRange(a.n_levels, !!a.signed, where);
  return { node, mul, add, shift, nLevels: a.n_levels, signed: !!a.signed, lo, hi };
}

/** 2^(s-1), the rounding term Deeploy folds into the add of fused requants (0 for s = 0). */
export function half(shift: number): number {
  return shift > 0 ? 2 ** (shift - 1) : 0;
}

/** The output attributes of a fused requant: shift, n_levels, signed. */
export function requantOutAttrs(rq: Requant): Record<string, Attr> {
  return {
    shift: { kind: 'int', value: rq.shift },
    n_levels: { kind: 'int', value: rq.nLevels },
    signed: { kind: 'int', value: rq.signed ? 1 : 0 },
  };
}

export function scalarValue(t: IntTensor): number | undefined {
  return t.data.length === 1 ? t.data[0] : undefined;
}

/**
 * A requant parameter in a shape that numpy-broadcasts onto `result` with the meaning the
 * op registry gives it (paramLayout): per-channel parameters of axis 1 become [C, 1, ...].
 */
export function aligned(p: IntTensor, result: readonly number[]): IntTensor {
  if (numel(p.shape) === 1) return { shape: [], data: p.data };
  if (paramLayout(p.shape, [...result], 'a parameter', 'lowering') === 'broadcast') return p;
  return { shape: [result[1], ...new Array<number>(result.length - 2).fill(1)], data: p.data };
}

/**
 * Elementwise f over parameters aligned to `result`, broadcast to their common shape (which
 * never grows the result). Undefined when a value leaves the exactly representable range.
 */
export function combine(result: readonly number[], params: IntTensor[], f: (...v: number[]) => number): IntTensor | undefined {
  const al = params.map((p) => aligned(p, result));
  const shape = broadcastShapes(al.map((p) => p.shape), 'lowering');
  if (!sameShape(broadcastShapes([[...result], shape], 'lowering'), [...result])) return undefined;
  const n = numel(shape);
  const idx = al.map((p) => broadcastIndex(p.shape, shape));
  const out = new Float64Array(n);
  const args = new Array<number>(al.length);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < al.length; k++) args[k] = al[k].data[idx[k][i]];
    const v = f(...args);
    if (!Number.isInteger(v) || !fits(Math.abs(v))) return undefined;
    out[i] = v;
  }
  return squeezeLeading({ shape, data: out });
}

/** Drops leading 1s ([1, 1, C] -> [C]); a single value becomes a scalar. */
export function squeezeLeading(t: IntTensor): IntTensor {
  if (t.data.length === 1) return { shape: [], data: t.data };
  let k = 0;
  while (k < t.shape.length - 1 && t.shape[k] === 1) k++;
  return { shape: t.shape.slice(k), data: t.data };
}

export const intAttr = (value: number): Attr => ({ kind: 'int', value });
export const intsAttr = (value: number[]): Attr => ({ kind: 'ints', value });
