// Index arithmetic codegen hands to the kernels as constants: how a requant parameter lines up
// with a kernel's output (dpg_param_t), and strided walks over N-d tensors (dpg_walk_t) for
// broadcasting arithmetic and for every copy (Transpose, Pad, Slice, Concat, Gather).
import { fail } from '../../common/errors';
import { paramLayout } from '../ops/core/requant';
import { broadcastTo, numel, stridesOf } from '../ops/core/tensor';
import type { EmitSink } from './emit/types';
import type { TensorInfo } from './tensors';

/** dpg_param_t: output element i uses values[(i / inner) % count]. */
export interface ParamIndex {
  values: ArrayLike<number>;
  inner: number;
  count: number;
}

/**
 * Lines a parameter of shape p up with an output of shape x exactly as the reference does
 * (requant.ts paramLayout: numpy broadcasting, or one value per channel of axis 1). A
 * parameter whose non-1 dims cover a contiguous run of x's dims is indexed in place; any
 * other broadcast is materialised over the output.
 */
export function paramIndex(values: Float64Array, p: readonly number[], x: readonly number[], what: string, where: string): ParamIndex {
  if (values.length === 1) return { values, inner: 1, count: 1 };
  if (paramLayout(p, x, what, where) === 'channel') return { values, inner: numel(x.slice(2)), count: x[1] };
  const pr = [...new Array<number>(Math.max(0, x.length - p.length)).fill(1), ...p];
  const nonOne = pr.map((d, i) => (d !== 1 ? i : -1)).filter((i) => i >= 0);
  const a = nonOne[0], b = nonOne[nonOne.length - 1];
  let inPlace = true;
  for (let d = a; d <= b; d++) if (pr[d] !== x[d]) inPlace = false;
  if (inPlace) return { values, inner: numel(x.slice(b + 1)), count: numel(x.slice(a, b + 1)) };
  return { values: broadcastTo({ shape: [...p], data: values }, x), inner: 1, count: numel(x) };
}

/** The braced initialiser of a dpg_param_t over an int32 constant (prefix (dpg_param_t) for an argument). */
export function paramInit(out: EmitSink, t: TensorInfo, x: readonly number[], what: string, where: string): string {
  if (!t.constant || !t.values) fail('not-implemented', `its ${what} ('${t.name}') is not a constant`, where, 'the kernels take requantization parameters as constants');
  const p = paramIndex(t.values, t.shape, x, what, where);
  const id = out.constant(p.values, 'int32', `${t.name}${p.values === t.values ? '' : '_bcast'}`, where);
  return `{${id}, ${p.inner}, ${p.count}}`;
}

/** A scalar dpg_param_t initialiser (attribute values). */
export function scalarInit(out: EmitSink, v: number, name: string, where: string): string {
  return `{${out.constant([v], 'int32', name, where)}, 1, 1}`;
}

// ---- walks ------------------------------------------------------------------------------------

export const MAX_RANK = 6;

/** dims with per-operand element strides (operand 0 is the destination). */
export interface Walk {
  shape: number[];
  strides: number[][];
}

/** Drops size-1 dims and merges neighbours that are contiguous for every operand. */
export function simplify(w: Walk): Walk {
  const keep = w.shape.map((_, i) => i).filter((i) => w.shape[i] !== 1);
  let shape = keep.map((i) => w.shape[i]);
  let strides = w.strides.map((s) => keep.map((i) => s[i]));
  for (let d = shape.length - 2; d >= 0; d--) {
    if (strides.every((s) => s[d] === s[d + 1] * shape[d + 1])) {
      const n = shape[d + 1];
      shape = [...shape.slice(0, d), shape[d] * n, ...shape.slice(d + 2)];
      strides = strides.map((s) => [...s.slice(0, d), s[d + 1], ...s.slice(d + 2)]);
    }
  }
  return { shape, strides };
}

/** The C initialiser of a dpg_walk_t (strides of missing operands are 0). */
export function walkDecl(name: string, w0: Walk, where: string): string {
  const w = simplify(w0);
  if (w.shape.length > MAX_RANK)
    fail('not-implemented', `the access pattern needs ${w.shape.length} dims; the kernels walk at most ${MAX_RANK}`, where);
  const pad = (xs: number[]) => `{${[...xs, ...new Array<number>(MAX_RANK - xs.length).fill(0)].join(', ')}}`;
  const strides = [0, 1, 2].map((k) => pad(w.strides[k] ?? []));
  return `static const dpg_walk_t ${name} = {${w.shape.length}, ${pad(w.shape)}, {${strides.join(', ')}}};`;
}

/** Output [0] and operands [1], [2] broadcast numpy-style to `out`. */
export function broadcastWalk(out: readonly number[], operands: readonly (readonly number[])[]): Walk {
  const r = out.length;
  const strides = [stridesOf(out), ...operands.map((p) => {
    const pr = [...new Array<number>(r - p.length).fill(1), ...p];
    const s = stridesOf(pr);
    return pr.map((d, i) => (d === 1 ? 0 : s[i]));
  })];
  return { shape: [...out], strides };
}
