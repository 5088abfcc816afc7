// Ops that only rearrange elements: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat,
// Slice, Pad, Gather.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { constInts, optConstInts } from './core/constants';
import { indexInput, promote } from './core/dtypes';
import { normAxis, numel, shapeStr, stridesOf, tensor, transposeData, type IntTensor } from './core/tensor';
import { defineOp, float, int, ints, ONNX_DOMAINS, reqInt, str, type InferArgs } from './types';
import { concatRule, transposeRule, wholeRule, type TileRule } from '../tiling/rules';
import { clip, whole } from '../tiling/region';

/** Same data, new shape (values are immutable, so sharing the array is safe). */
function reshaped(x: IntTensor, shape: number[]): IntTensor {
  return { shape, data: x.data };
}

// ---------------------------------------------------------------------------------------------

export const Reshape = defineOp({
  ops: ['Reshape'],
  domains: ONNX_DOMAINS,
  summary: 'same elements, new shape; 0 copies the input dimension (unless allowzero), -1 is inferred',
  inputs: [{ name: 'data' }, { name: 'shape', index: true }],
  outputs: ['reshaped'],
  attrs: { allowzero: int(0) },
  infer: (a) => {
    const x = a.inputs[0]!;
    indexInput(a.inputs[1]!, 'the shape input', a.where);
    const spec = constInts(a, 1, 'the target shape');
    const out = spec.map((d, i) => (d === 0 && !a.attrs.allowzero ? (i < x.shape.length ? x.shape[i] : fail('shape-mismatch', `shape ${shapeStr(spec)} copies dimension ${i}, which the input ${shapeStr(x.shape)} does not have`, a.where)) : d));
    const unknown = out.filter((d) => d === -1).length;
    if (unknown > 1 || out.some((d) => d < -1)) fail('bad-graph', `invalid target shape ${shapeStr(spec)}`, a.where);
    const n = numel(x.shape);
    if (unknown) {
      const known = numel(out.filter((d) => d !== -1));
      if (known === 0 || n % known !== 0)
        fail('shape-mismatch', `cannot reshape ${shapeStr(x.shape)} (${n} elements) to ${shapeStr(spec)}`, a.where);
      out[out.indexOf(-1)] = n / known;
    }
    if (numel(out) !== n)
      fail('shape-mismatch', `cannot reshape ${shapeStr(x.shape)} (${n} elements) to ${shapeStr(spec)} (${numel(out)} elements)`, a.where);
    return [{ dtype: x.dtype, shape: out }];
  },
  eval: ({ inputs, outputs }) => [reshaped(inputs[0]!, outputs[0].shape)],
});

export const Flatten = defineOp({
  ops: ['Flatten'],
  domains: ONNX_DOMAINS,
  summary: 'reshape to 2-D: [prod(dims before axis), prod(dims from axis)]',
  inputs: [{ name: 'input' }],
  outputs: ['output'],
  attrs: { axis: int(1) },
  infer: ({ inputs, attrs, where }) => {
    const x = inputs[0]!;
    const r = x.shape.length;
    const axis = attrs.axis < 0 ? attrs.axis + r : attrs.axis;
    if (axis < 0 || axis > r) fail('bad-graph', `axis ${attrs.axis} is out of range for a rank-${r} tensor`, where);
    return [{ dtype: x.dtype, shape: [numel(x.shape.slice(0, axis)), numel(x.shape.slice(axis))] }];
  },
  eval: ({ inputs, outputs }) => [reshaped(inputs[0]!, outputs[0].shape)],
});

function axesOf(a: InferArgs<{ axes?: number[] }>, what: string): number[] | undefined {
  if (a.attrs.axes) return a.attrs.axes;
  if (a.inputs[1]) indexInput(a.inputs[1], 'the axes input', a.where);
  return optConstInts(a, 1, what);
}

export const Squeeze = defineOp({
  ops: ['Squeeze'],
  domains: ONNX_DOMAINS,
  summary: 'drop the given size-1 axes (all size-1 axes when none are given)',
  inputs: [{ name: 'data' }, { name: 'axes', optional: true, index: true }],
  outputs: ['squeezed'],
  attrs: { axes: ints() },
  infer: (a) => {
    const x = a.inputs[0]!;
    const r = x.shape.length;
    const axes = axesOf(a, 'the axes to squeeze');
    const drop = new Set(axes ? axes.map((ax) => normAxis(ax, r, a.where)) : x.shape.flatMap((d, i) => (d === 1 ? [i] : [])));
    for (const ax of drop)
      if (x.shape[ax] !== 1) fail('shape-mismatch', `cannot squeeze axis ${ax} of ${shapeStr(x.shape)}: its size is not 1`, a.where);
    return [{ dtype: x.dtype, shape: x.shape.filter((_, i) => !drop.has(i)) }];
  },
  eval: ({ inputs, outputs }) => [reshaped(inputs[0]!, outputs[0].shape)],
});

export const Unsqueeze = defineOp({
  ops: ['Unsqueeze'],
  domains: ONNX_DOMAINS,
  summary: 'insert size-1 axes at the given output positions',
  inputs: [{ name: 'data' }, { name: 'axes', optional: true, index: true }],
  outputs: ['expanded'],
  attrs: { axes: ints() },
  infer: (a) => {
    const x = a.inputs[0]!;
    const axes = axesOf(a, 'the axes to insert');
    if (!axes) fail('bad-graph', 'Unsqueeze needs axes (an attribute before opset 13, an input after)', a.where);
    const r = x.shape.length + axes.length;
    const at = new Set(axes.map((ax) => normAxis(ax, r, a.where)));
    if (at.size !== axes.length) fail('bad-graph', `axes ${shapeStr(axes)} repeat an axis`, a.where);
    const out: number[] = [];
    let k = 0;
    for (let i = 0; i < r; i++) out.push(at.has(i) ? 1 : x.shape[k++]);
    return [{ dtype: x.dtype, shape: out }];
  },
  eval: ({ inputs, outputs }) => [reshaped(inputs[0]!, outputs[0].shape)],
});

// ---------------------------------------------------------------------------------------------

export function permOf(perm: number[] | undefined, rank: number, where: string): number[] {
  const p = perm ?? [...Array(rank).keys()].reverse();
  if (p.length !== rank || [...p].sort((a, b) => a - b).some((v, i) => v !== i))
    fail('bad-graph', `perm ${shapeStr(p)} is not a permutation of the ${rank} axes`, where);
  return p;
}

export const Transpose = defineOp({
  ops: ['Transpose'],
  tiling: transposeRule,
  domains: ONNX_DOMAINS,
  summary: 'permute axes: output axis i is input axis perm[i] (default: reverse)',
  inputs: [{ name: 'data' }],
  outputs: ['transposed'],
  attrs: { perm: ints() },
  infer: ({ inputs, attrs, where }) => {
    const x = inputs[0]!;
    const p = permOf(attrs.perm, x.shape.length, where);
    return [{ dtype: x.dtype, shape: p.map((i) => x.shape[i]) }];
  },
  eval: ({ inputs, attrs, where }) => [transposeData(inputs[0]!, permOf(attrs.perm, inputs[0]!.shape.length, where))],
});

// ---------------------------------------------------------------------------------------------

export const Concat = defineOp({
  ops: ['Concat'],
  tiling: concatRule,
  domains: ONNX_DOMAINS,
  summary: 'join tensors along axis (empty inputs, e.g. a prefill KV cache, contribute nothing)',
  inputs: [{ name: 'inputs', variadic: true }],
  outputs: ['concat_result'],
  attrs: { axis: reqInt() },
  infer: ({ inputs, attrs, where }) => {
    const ts = inputs.filter((t): t is TensorType => t !== undefined);
    if (ts.length === 0) fail('bad-graph', 'Concat has no inputs', where);
    const r = ts[0].shape.length;
    const axis = normAxis(attrs.axis, r, where);
    const out = [...ts[0].shape];
    out[axis] = 0;
    for (const t of ts) {
      if (t.shape.length !== r || t.shape.some((d, i) => i !== axis && d !== ts[0].shape[i]))
        fail('shape-mismatch', `cannot concatenate ${ts.map((x) => shapeStr(x.shape)).join(', ')} along axis ${attrs.axis}`, where);
      out[axis] += t.shape[axis];
    }
    return [{ dtype: promote(ts.map((t) => t.dtype)), shape: out }];
  },
  eval: ({ inputs, outputs, attrs }) => {
    const shape = outputs[0].shape;
    const axis = attrs.axis < 0 ? attrs.axis + shape.length : attrs.axis;
    const outer = numel(shape.slice(0, axis));
    const inner = numel(shape.slice(axis + 1));
    const out = new Float64Array(numel(shape));
    const rowOut = shape[axis] * inner;
    let at = 0;
    for (const t of inputs) {
      if (!t) continue;
      const row = t.shape[axis] * inner;
      if (row === 0) continue;
      for (let o = 0; o < outer; o++) out.set(t.data.subarray(o * row, (o + 1) * row), o * rowOut + at);
      at += row;
    }
    return [{ shape, data: out }];
  },
});

// ---------------------------------------------------------------------------------------------

interface SliceSpec { starts: number[]; steps: number[]; shape: number[] }

/** ONNX Slice semantics: negative indices count from the end; bounds clamp per step sign. */
export function sliceSpec(shape: number[], starts: number[], ends: number[], axesIn: number[] | undefined,
  stepsIn: number[] | undefined, where: string): SliceSpec {
  const r = shape.length;
  const axes = axesIn ?? starts.map((_, i) => i);
  const stepsGiven = stepsIn ?? starts.map(() => 1);
  if (ends.length !== starts.length || axes.length !== starts.length || stepsGiven.length !== starts.length)
    fail('bad-graph', `starts, ends, axes and steps have different lengths (${starts.length}, ${ends.length}, ${axes.length}, ${stepsGiven.length})`, where);
  const s = { starts: new Array<number>(r).fill(0), steps: new Array<number>(r).fill(1), shape: [...shape] };
  const seen = new Set<number>();
  axes.forEach((ax0, i) => {
    const ax = normAxis(ax0, r, where);
    if (seen.has(ax)) fail('bad-graph', `axis ${ax0} is sliced twice`, where);
    seen.add(ax);
    const dim = shape[ax], step = stepsGiven[i];
    if (step === 0) fail('bad-graph', 'a slice step is 0', where);
    let b = starts[i] < 0 ? starts[i] + dim : starts[i];
    let e = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      b = Math.min(Math.max(b, 0), dim);
      e = Math.min(Math.max(e, 0), dim);
    } else {
      b = Math.min(Math.max(b, 0), dim - 1);
      e = Math.min(Math.max(e, -1), dim - 1);
    }
    s.starts[ax] = b;
    s.steps[ax] = step;
    s.shape[ax] = Math.max(0, Math.ceil((e - b) / step));
  });
  return s;
}

function sliceArgs(a: InferArgs<{ starts?: number[]; ends?: number[]; axes?: number[] }>): SliceSpec {
  const x = a.inputs[0]!;
  if (a.attrs.starts || a.attrs.ends) {
    // Opset < 10: bounds are attributes.
    if (!a.attrs.starts || !a.attrs.ends) fail('bad-graph', 'Slice needs both starts and ends attributes', a.where);
    return sliceSpec(x.shape, a.attrs.starts, a.attrs.ends, a.attrs.axes, undefined, a.where);
  }
  for (const i of [1, 2, 3, 4]) if (a.inputs[i]) indexInput(a.inputs[i]!, `input ${i}`, a.where);
  return sliceSpec(x.shape, constInts(a, 1, 'starts'), constInts(a, 2, 'ends'), optConstInts(a, 3, 'axes'),
    optConstInts(a, 4, 'steps'), a.where);
}

function gatherStrided(x: IntTensor, starts: number[], steps: number[], shape: number[]): IntTensor {
  const r = shape.length;
  const n = numel(shape);
  const out = new Float64Array(n);
  const st = stridesOf(x.shape);
  let base = 0;
  for (let i = 0; i < r; i++) base += starts[i] * st[i];
  const step = st.map((s, i) => s * steps[i]);
  const counter = new Array<number>(r).fill(0);
  let off = base;
  for (let k = 0; k < n; k++) {
    out[k] = x.data[off];
    for (let a = r - 1; a >= 0; a--) {
      counter[a]++;
      off += step[a];
      if (counter[a] < shape[a]) break;
      off -= step[a] * counter[a];
      counter[a] = 0;
    }
  }
  return { shape, data: out };
}

export const Slice = defineOp({
  ops: ['Slice'],
  tiling: wholeRule,
  domains: ONNX_DOMAINS,
  summary: 'x[starts:ends:steps] along axes (inputs from opset 10, attributes before)',
  inputs: [{ name: 'data' }, { name: 'starts', optional: true, index: true }, { name: 'ends', optional: true, index: true },
    { name: 'axes', optional: true, index: true }, { name: 'steps', optional: true, index: true }],
  outputs: ['output'],
  attrs: { starts: ints(), ends: ints(), axes: ints() },
  infer: (a) => [{ dtype: a.inputs[0]!.dtype, shape: sliceArgs(a).shape }],
  eval: (a) => {
    const x = a.inputs[0]!;
    const c = (i: number) => (a.inputs[i] ? Array.from(a.inputs[i]!.data) : undefined);
    const s = a.attrs.starts
      ? sliceSpec(x.shape, a.attrs.starts, a.attrs.ends ?? [], a.attrs.axes, undefined, a.where)
      : sliceSpec(x.shape, c(1)!, c(2)!, c(3), c(4), a.where);
    return [gatherStrided(x, s.starts, s.steps, s.shape)];
  },
});

// ---------------------------------------------------------------------------------------------

export interface PadSpec { begin: number[]; end: number[]; value: number }
export type PadAttrs = { pads?: number[]; mode: string; value: number; channels_first: number };

/** Pads from the attribute or input 1, value from input 2 or the attribute, axes from input 3. */
export function padSpec(attrs: PadAttrs, rank: number, read: (i: number) => number[] | undefined, where: string): PadSpec {
  if (attrs.mode !== 'constant') fail('not-implemented', `Pad mode '${attrs.mode}' is not supported; only 'constant' is`, where);
  let pads = attrs.pads ?? read(1);
  if (!pads) fail('bad-graph', 'Pad needs pads (an attribute before opset 11, an input after)', where);
  const value = read(2)?.[0] ?? attrs.value;
  if (!Number.isInteger(value)) fail('not-implemented', `pad value ${value} is not an integer`, where);
  const axes = read(3);
  if (axes) {
    const full = new Array<number>(2 * rank).fill(0);
    axes.forEach((ax0, i) => {
      const ax = normAxis(ax0, rank, where);
      full[ax] = pads![i];
      full[ax + rank] = pads![i + axes.length];
    });
    pads = full;
  }
  if (pads.length !== 2 * rank) fail('bad-graph', `pads has ${pads.length} values; a rank-${rank} input needs ${2 * rank}`, where);
  let begin = pads.slice(0, rank), end = pads.slice(rank);
  if (!attrs.channels_first && rank >= 3) {
    // Deeploy's NHWC lowering keeps the pads in [N, C, *S] order on data laid out [N, *S, C].
    const order = [0, ...Array.from({ length: rank - 2 }, (_, i) => i + 2), 1];
    [begin, end] = [order.map((i) => begin[i]), order.map((i) => end[i])];
  }
  return { begin, end, value };
}

function padShape(shape: number[], spec: PadSpec, where: string): number[] {
  const out = shape.map((d, i) => d + spec.begin[i] + spec.end[i]);
  if (out.some((d) => d < 0)) fail('shape-mismatch', `pads crop ${shapeStr(shape)} below zero`, where);
  return out;
}

/** Tiling: an output tile reads the same region shifted back by the begin pads, clipped to the input. */
const padRule: TileRule = {
  name: 'pad (shifted region)',
  kind: 'pad',
  splittable: (v) => v.output.map(() => true),
  inputRegion: (v, i, out) => {
    const x = v.inputs[i]!;
    if (i !== 0) return whole(x);
    const spec = padSpec(v.attrs as PadAttrs, x.length, (j) => v.constant(j), v.where);
    const start: number[] = [], size: number[] = [];
    x.forEach((n, d) => {
      const [s, k] = clip(out.start[d] - spec.begin[d], out.size[d], n);
      start.push(s); size.push(k);
    });
    return { start, size };
  },
  parallel: (v) => v.output.map((_, i) => i),
};

export const Pad = defineOp({
  ops: ['Pad'],
  tiling: padRule,
  domains: ONNX_DOMAINS,
  summary: 'constant padding: pads = [begin_0..begin_n, end_0..end_n] (attribute before opset 11, input after; NCHW order when channels_first = 0)',
  inputs: [{ name: 'data' }, { name: 'pads', optional: true, index: true }, { name: 'constant_value', optional: true },
    { name: 'axes', optional: true, index: true }],
  outputs: ['output'],
  attrs: { pads: ints(undefined, { aliases: ['paddings'] }), mode: str('constant'), value: float(0), channels_first: int(1) },
  infer: (a) => {
    const x = a.inputs[0]!;
    if (a.inputs[1]) indexInput(a.inputs[1], 'the pads input', a.where);
    const what = ['', 'pads', 'the constant value', 'axes'];
    const spec = padSpec(a.attrs, x.shape.length, (i) => optConstInts(a, i, what[i]), a.where);
    return [{ dtype: x.dtype, shape: padShape(x.shape, spec, a.where) }];
  },
  eval: (a) => {
    const x = a.inputs[0]!;
    const spec = padSpec(a.attrs, x.shape.length, (i) => (a.inputs[i] ? Array.from(a.inputs[i]!.data) : undefined), a.where);
    const shape = a.outputs[0].shape;
    const out = tensor(shape);
    out.data.fill(spec.value);
    const r = shape.length;
    if (numel(x.shape) === 0) return [out];
    const os = stridesOf(shape);
    // Copy every input element that survives (negative pads crop) to its padded position.
    const counter = new Array<number>(r).fill(0);
    const n = x.data.length;
    for (let k = 0; k < n; k++) {
      let off = 0, inside = true;
      for (let i = 0; i < r; i++) {
        const o = counter[i] + spec.begin[i];
        if (o < 0 || o >= shape[i]) { inside = false; break; }
        off += o * os[i];
      }
      if (inside) out.data[off] = x.data[k];
      for (let i = r - 1; i >= 0; i--) {
        if (++counter[i] < x.shape[i]) break;
        counter[i] = 0;
      }
    }
    return [out];
  },
});

// ---------------------------------------------------------------------------------------------

export const Gather = defineOp({
  ops: ['Gather'],
  tiling: wholeRule,
  domains: ONNX_DOMAINS,
  summary: 'take slices along axis at the given (possibly negative) indices',
  inputs: [{ name: 'data' }, { name: 'indices', index: true }],
  outputs: ['output'],
  attrs: { axis: int(0) },
  infer: ({ inputs, attrs, where }) => {
    const x = inputs[0]!, idx = indexInput(inputs[1]!, 'the indices', where);
    const axis = normAxis(attrs.axis, x.shape.length, where);
    return [{ dtype: x.dtype, shape: [...x.shape.slice(0, axis), ...idx.shape, ...x.shape.slice(axis + 1)] }];
  },
  eval: ({ inputs, attrs, outputs, where }) => {
    const x = inputs[0]!, idx = inputs[1]!;
    const axis = normAxis(attrs.axis, x.shape.length, where);
    const dim = x.shape[axis];
    const outer = numel(x.shape.slice(0, axis)), inner = numel(x.shape.slice(axis + 1));
    const out = new Float64Array(numel(outputs[0].shape));
    const m = idx.data.length;
    for (let j = 0; j < m; j++) {
      let k = idx.data[j];
      if (k < -dim || k >= dim) fail('bad-graph', `index ${k} is out of range for an axis of size ${dim}`, where);
      if (k < 0) k += dim;
      for (let o = 0; o < outer; o++)
        out.set(x.data.subarray((o * dim + k) * inner, (o * dim + k + 1) * inner), (o * m + j) * inner);
    }
    return [{ shape: outputs[0].shape, data: out }];
  },
});
