// ReduceSum, ReduceMean and Deeploy's IntegerMean: reductions over axes.
import type { TensorType } from '../ir/graph';
import { checkExact, floorDiv } from './core/exact';
import { optConstInts } from './core/constants';
import { indexInput, numeric } from './core/dtypes';
import { normAxis, numel, stridesOf, type IntTensor } from './core/tensor';
import { defineOp, DEEPLOY_DOMAINS, int, ints, ONNX_DOMAINS, type InferArgs } from './types';
import type { TileRule } from '../tiling/rules';
import { whole } from '../tiling/region';

const reduceAttrs = { axes: ints(), keepdims: int(1), noop_with_empty_axes: int(0) };
type ReduceAttrs = { axes?: number[]; keepdims: number; noop_with_empty_axes: number };

/** The reduced axes (sorted, normalised); empty means "none" only with noop_with_empty_axes. */
export function reducedAxes(rank: number, attrs: ReduceAttrs, axesInput: number[] | undefined, where: string): number[] {
  const axes = attrs.axes ?? axesInput;
  if (!axes || axes.length === 0) return attrs.noop_with_empty_axes ? [] : [...Array(rank).keys()];
  return [...new Set(axes.map((a) => normAxis(a, rank, where)))].sort((a, b) => a - b);
}

function inferReduce(a: InferArgs<ReduceAttrs>): TensorType[] {
  const x = numeric(a.inputs[0]!, 'the input', a.where);
  if (a.inputs[1]) indexInput(a.inputs[1], 'the axes input', a.where);
  const axes = reducedAxes(x.shape.length, a.attrs, optConstInts(a, 1, 'axes'), a.where);
  const shape = x.shape.flatMap((d, i) => (axes.includes(i) ? (a.attrs.keepdims ? [1] : []) : [d]));
  return [{ dtype: x.dtype, shape }];
}

/** Sums of each reduction group and the group size; sums are exact or a 'limit' error. */
function sums(x: IntTensor, axes: number[], where: string): { data: Float64Array; count: number } {
  const r = x.shape.length;
  const keptShape = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  const out = new Float64Array(numel(keptShape));
  const count = numel(axes.map((a) => x.shape[a]));
  const outStrides = stridesOf(keptShape);
  const st = x.shape.map((_, i) => (axes.includes(i) ? 0 : outStrides[i]));
  const counter = new Array<number>(r).fill(0);
  let off = 0;
  for (let k = 0; k < x.data.length; k++) {
    out[off] += x.data[k];
    for (let a = r - 1; a >= 0; a--) {
      counter[a]++;
      off += st[a];
      if (counter[a] < x.shape[a]) break;
      off -= st[a] * counter[a];
      counter[a] = 0;
    }
  }
  // Partial sums stay below count * max|x|; past 2^53 the final check catches the overflow.
  for (let i = 0; i < out.length; i++) checkExact(out[i], where);
  return { data: out, count };
}

function evalReduce(x: IntTensor, attrs: ReduceAttrs, axesInput: IntTensor | undefined, outShape: number[],
  where: string, finish: (sum: number, count: number) => number): IntTensor[] {
  const axes = reducedAxes(x.shape.length, attrs, axesInput ? Array.from(axesInput.data) : undefined, where);
  if (axes.length === 0) return [x];
  const { data, count } = sums(x, axes, where);
  for (let i = 0; i < data.length; i++) data[i] = finish(data[i], count);
  return [{ shape: outShape, data }];
}

/** floor(s/n + 1/2) = floor((2s + n) / 2n). */
const roundHalfUp = (s: number, n: number) => floorDiv(2 * s + n, 2 * n);

/**
 * Tiling: kept axes may be cut, reduced axes stay whole (a tile's sums are complete). With
 * keepdims = 0 the output's axes are the input's kept axes in order.
 */
const reduceRule: TileRule = {
  name: 'reduce (reduced axes whole)',
  kind: 'reduce',
  splittable: (v) => v.output.map(() => true),
  inputRegion: (v, i, out) => {
    const x = v.inputs[i]!;
    if (i !== 0) return whole(x);
    const axes = reducedAxes(x.length, v.attrs as ReduceAttrs, v.constant(1), v.where);
    const keep = (v.attrs as ReduceAttrs).keepdims !== 0;
    let k = 0;
    const start: number[] = [], size: number[] = [];
    x.forEach((n, d) => {
      if (axes.includes(d)) { start.push(0); size.push(n); if (keep) k++; return; }
      start.push(out.start[k]); size.push(out.size[k]); k++;
    });
    return { start, size };
  },
  parallel: (v) => v.output.map((_, i) => i),
};

const reduceInputs = [{ name: 'data' }, { name: 'axes', optional: true, index: true }] as const;

export const ReduceSum = defineOp({
  ops: ['ReduceSum'],
  tiling: reduceRule,
  domains: ONNX_DOMAINS,
  summary: 'sum over axes (attribute before opset 13, input after)',
  inputs: reduceInputs,
  outputs: ['reduced'],
  attrs: reduceAttrs,
  infer: inferReduce,
  eval: ({ inputs: [x, axes], attrs, outputs, where }) => evalReduce(x!, attrs, axes, outputs[0].shape, where, (s) => s),
});

export const ReduceMean = defineOp({
  ops: ['ReduceMean'],
  tiling: reduceRule,
  domains: ONNX_DOMAINS,
  summary: 'mean over axes, rounded half up: floor(mean + 1/2) (what the Deeploy golden outputs hold)',
  inputs: reduceInputs,
  outputs: ['reduced'],
  attrs: reduceAttrs,
  infer: inferReduce,
  eval: ({ inputs: [x, axes], attrs, outputs, where }) =>
    evalReduce(x!, attrs, axes, outputs[0].shape, where, roundHalfUp),
});

export const IntegerMean = defineOp({
  ops: ['IntegerMean'],
  tiling: reduceRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'Deeploy integer mean over axes: floor(mean(x) + 0.5)',
  inputs: reduceInputs,
  outputs: ['reduced'],
  attrs: reduceAttrs,
  infer: inferReduce,
  eval: ({ inputs: [x, axes], attrs, outputs, where }) =>
    evalReduce(x!, attrs, axes, outputs[0].shape, where, roundHalfUp),
});
