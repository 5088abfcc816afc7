// Layers that move data: Transpose, Pad, Slice, Concat, Gather and Identity are strided
// copies (dpg_copy_nd over a walk computed here); Reshape and friends alias their input.
import { fail } from '../../../common/errors';
import { normAxis, numel, stridesOf } from '../../ops/core/tensor';
import { padSpec, permOf, sliceSpec, type PadAttrs } from '../../ops/shape-ops';
import { cComment } from '../c-text';
import { checkFits } from '../ctypes';
import { walkDecl, type Walk } from '../layout';
import { input, tag } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';
import type { TensorInfo } from '../tensors';

/** One dpg_copy_nd of `walk` from src + srcBase to dst + dstBase (element offsets). */
function copy(l: LayerSpec, out: EmitSink, name: string, dst: TensorInfo, dstBase: number, src: TensorInfo, srcBase: number, walk: Walk): string {
  if (numel(walk.shape) === 0) return `/* ${cComment(src.name)}: nothing to copy */`;
  out.decl(walkDecl(`${l.id}_${name}`, walk, l.where));
  const at = (t: TensorInfo, base: number, cast: string) => (base ? `(${cast})${out.data(t)} + ${base}` : out.data(t));
  return `dpg_copy_nd(${at(dst, dstBase, `${cType(dst)} *`)}, ${tag(dst)}, ${at(src, srcBase, `const ${cType(src)} *`)}, ${tag(src)}, &${l.id}_${name});`;
}

const C_OF: Record<string, string> = { int8: 'int8_t', uint8: 'uint8_t', int16: 'int16_t', uint16: 'uint16_t', int32: 'int32_t', uint32: 'uint32_t' };
const cType = (t: TensorInfo) => C_OF[t.type];

const transpose: Emitter = {
  family: /^Transpose_/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    const perm = permOf(l.attrs.perm as number[] | undefined, x.shape.length, l.where);
    const xs = stridesOf(x.shape);
    out.step(copy(l, out, 'walk', y, 0, x, 0, { shape: [...y.shape], strides: [stridesOf(y.shape), perm.map((p) => xs[p])] }));
  },
};

const pad: Emitter = {
  family: /^Pad(Nd|[12]d)_/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    const read = (i: number) => {
      const t = l.ins[i];
      if (t && !t.values) fail('not-implemented', `its input ${i} is not a constant`, l.where);
      return t?.values ? Array.from(t.values) : undefined;
    };
    const spec = padSpec(l.attrs as unknown as PadAttrs, x.shape.length, read, l.where);
    // The pad value is real data: stored shifted like the tensor (Generic input typing).
    const value = spec.value + y.offset;
    checkFits([value], y.type, 'pad value', l.where);
    const xs = stridesOf(x.shape), ys = stridesOf(y.shape);
    // The part of x that survives (negative pads crop) and where it lands in y.
    const lo = x.shape.map((_, d) => Math.max(0, -spec.begin[d]));
    const hi = x.shape.map((n, d) => n - Math.max(0, -spec.end[d]));
    const walk = { shape: lo.map((v, d) => Math.max(0, hi[d] - v)), strides: [ys, xs] };
    const srcBase = lo.reduce((s, v, d) => s + v * xs[d], 0);
    const dstBase = lo.reduce((s, v, d) => s + (v + spec.begin[d]) * ys[d], 0);
    out.step(`dpg_fill(${out.data(y)}, ${tag(y)}, ${numel(y.shape)}, ${value});`);
    out.step(copy(l, out, 'walk', y, dstBase, x, srcBase, walk));
  },
};

const slice: Emitter = {
  family: /^Slice_copy$/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    const a = l.attrs as { starts?: number[]; ends?: number[]; axes?: number[] };
    const c = (i: number) => {
      const t = l.ins[i];
      if (t && !t.values) fail('not-implemented', `its input ${i} is not a constant`, l.where);
      return t?.values ? Array.from(t.values) : undefined;
    };
    const s = a.starts ? sliceSpec(x.shape, a.starts, a.ends ?? [], a.axes, undefined, l.where)
      : sliceSpec(x.shape, c(1)!, c(2)!, c(3), c(4), l.where);
    const xs = stridesOf(x.shape);
    const base = s.starts.reduce((acc, v, d) => acc + v * xs[d], 0);
    out.step(copy(l, out, 'walk', y, 0, x, base, { shape: s.shape, strides: [stridesOf(s.shape), xs.map((v, d) => v * s.steps[d])] }));
  },
};

const concat: Emitter = {
  family: /^Concat_copy$/,
  offsets: 'passthrough',
  emit(l, out) {
    const y = l.outs[0];
    const axis = normAxis(l.attrs.axis as number, y.shape.length, l.where);
    const ys = stridesOf(y.shape);
    let at = 0;
    const calls: string[] = [];
    l.ins.forEach((t, k) => {
      if (!t || numel(t.shape) === 0) return;
      calls.push(copy(l, out, `in${k}`, y, at * ys[axis], t, 0, { shape: [...t.shape], strides: [ys, stridesOf(t.shape)] }));
      at += t.shape[axis];
    });
    out.step(calls.join('\n'));
  },
};

const gather: Emitter = {
  family: /^Gather_copy$/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0], idx = input(l, 1, 'indices');
    if (!idx.values) fail('not-implemented', 'its indices are not a constant', l.where);
    const axis = normAxis(l.attrs.axis as number, x.shape.length, l.where);
    const dim = x.shape[axis], outer = numel(x.shape.slice(0, axis)), inner = numel(x.shape.slice(axis + 1)), m = idx.values.length;
    const calls = Array.from(idx.values, (k0, j) => {
      const k = k0 < 0 ? k0 + dim : k0;
      if (k < 0 || k >= dim) fail('bad-graph', `index ${k0} is out of range for an axis of size ${dim}`, l.where);
      return copy(l, out, `idx${j}`, y, j * inner, x, k * inner, { shape: [outer, inner], strides: [[m * inner, 1], [dim * inner, 1]] });
    });
    out.step(calls.join('\n'));
  },
};

const identity: Emitter = {
  family: /^Copy$/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    out.step(copy(l, out, 'walk', y, 0, x, 0, { shape: [numel(x.shape)], strides: [[1], [1]] }));
  },
};

const reshape: Emitter = {
  family: /^Reshape_alias$/,
  offsets: 'alias',
  emit() { /* no code: the output is the input's buffer */ },
};

export const movementEmitters: Emitter[] = [transpose, pad, slice, concat, gather, identity, reshape];
