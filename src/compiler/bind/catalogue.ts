// Kernel catalogues: what a platform's kernel library can run, one row per kernel template.
// A row names its op, its engine, how its kernel name is spelled for a node (dtypes, layout)
// and its requirements; each requirement either passes or names the missing capability
// ("input 0 is int16; the kernel takes int8/uint8"), which is what a binding failure reports.
import type { Node } from '../ir/graph';
import type { EngineName } from '../lower/types';
import { SHORT, type IntType, type Range } from '../passes/ranges';

/** What a requirement sees of a node: parsed attributes, operand types, ranges, constness. */
export interface NodeView {
  node: Node;
  attrs: Record<string, unknown>;
  inputs: Operand[];
  outputs: Operand[];
  /** Cluster cores configured. */
  cores: number;
  /** N-EUREKA weights placed in the weight memory. */
  wmem: boolean;
}

export interface Operand {
  name: string;
  shape: number[];
  range: Range;
  /** Narrowest integer type holding the range; undefined beyond 32 bits or unknown. */
  type?: IntType;
  constant: boolean;
  /** Values, for constants. */
  values?: Float64Array;
}

/** Undefined when met; otherwise the missing capability, in words. */
export type Requirement = (v: NodeView) => string | undefined;

export interface KernelSpec {
  op: string;
  engine: EngineName;
  /** The kernel's name for this node, e.g. RequantizedConv2d_HWC_u8. */
  name: (v: NodeView) => string;
  /** What the kernel is, for the properties panel. */
  doc: string;
  needs: Requirement[];
  /** Data-layout notes for codegen (e.g. N-EUREKA's weight encoding). */
  notes?: (v: NodeView) => string[];
}

export function kernel(op: string | string[], engine: EngineName, name: string | ((v: NodeView) => string), doc: string,
  needs: Requirement[] = [], notes?: (v: NodeView) => string[]): KernelSpec[] {
  return (Array.isArray(op) ? op : [op]).map((o) => ({
    op: o, engine, name: typeof name === 'string' ? () => name : name, doc, needs, notes,
  }));
}

// ---- dtype spelling ---------------------------------------------------------------------------

export const dt = (o: Operand | undefined): string => (o?.type ? SHORT[o.type] : 'unk');
export const inT = (i: number) => (v: NodeView): string => dt(v.inputs[i]);
export const outT = (i = 0) => (v: NodeView): string => dt(v.outputs[i]);

const describe = (o: Operand): string => {
  const r = Number.isFinite(o.range[0]) && Number.isFinite(o.range[1]) ? `values ${o.range[0]}..${o.range[1]}` : 'values unbounded';
  return `${o.type ?? 'wider than 32 bits or of unknown range'} (${r})`;
};

// ---- requirements -----------------------------------------------------------------------------

/** Input i holds 8-bit values (int8 or uint8). */
export const eightBit = (...idx: number[]): Requirement => (v) => {
  for (const i of idx) {
    const o = v.inputs[i];
    if (o && o.type !== 'int8' && o.type !== 'uint8') return `input ${i} is ${describe(o)}; the kernel takes int8/uint8`;
  }
  return undefined;
};

/** Inputs fit 32-bit integers. */
export const upTo32Bit = (...idx: number[]): Requirement => (v) => {
  for (const i of idx.length ? idx : v.inputs.map((_, k) => k)) {
    const o = v.inputs[i];
    if (o && !o.type) return `input ${i} is ${describe(o)}; the kernel takes integers of at most 32 bits`;
  }
  return undefined;
};

/** Output i fits 32 bits (the kernel accumulates in int32 without saturating). */
export const outputFits32: Requirement = (v) =>
  v.outputs[0] && !v.outputs[0].type ? `its result needs more than 32 bits (${describe(v.outputs[0])}); the kernel accumulates in int32` : undefined;

/** Constant inputs hold int32 values (requant multipliers and biases are int32 in the kernels). */
export const int32Params = (...idx: number[]): Requirement => (v) => {
  for (const i of idx) {
    const o = v.inputs[i];
    if (!o) continue;
    if (!o.constant) return `input ${i} ('${o.name}') must be a constant`;
    if (!(o.range[0] >= -(2 ** 31) && o.range[1] <= 2 ** 31 - 1)) return `input ${i} ('${o.name}') holds ${o.range[0]}..${o.range[1]}, beyond int32`;
  }
  return undefined;
};

/** Requant parameters are scalar or one per channel (the last axis in HWC, axis 1 in CHW). */
export const perChannel = (layout: 'HWC' | 'CHW', ...idx: number[]): Requirement => (v) => {
  const y = v.outputs[0].shape;
  const C = layout === 'HWC' ? y[y.length - 1] : y[1];
  for (const i of idx) {
    const o = v.inputs[i];
    if (!o) continue;
    const n = o.shape.reduce((a, b) => a * b, 1);
    if (n === 1) continue;
    const nonOne = o.shape.filter((d) => d !== 1);
    const okShape = layout === 'HWC' ? o.shape[o.shape.length - 1] === C : o.shape.length >= y.length - 1 && o.shape[o.shape.length - (y.length - 1)] === C;
    if (!(n === C && nonOne.length <= 1 && okShape)) return `input ${i} ('${o.name}') has shape [${o.shape.join(', ')}]; the kernel takes one value per channel (${C}) or a scalar`;
  }
  return undefined;
};

const cf = (v: NodeView) => (v.attrs.channels_first as number | undefined) ?? 1;

export const layout = (l: 'HWC' | 'CHW'): Requirement => (v) =>
  (l === 'HWC') === (cf(v) === 0) ? undefined : `its data is ${cf(v) === 0 ? 'channels-last (HWC)' : 'channels-first (CHW)'}; the kernel takes ${l}`;

export const rank = (i: number, ...ranks: number[]): Requirement => (v) =>
  ranks.includes(v.inputs[i]?.shape.length ?? -1) ? undefined : `input ${i} has rank ${v.inputs[i]?.shape.length}; the kernel takes rank ${ranks.join(' or ')}`;

export const constantInput = (i: number, what: string): Requirement => (v) =>
  v.inputs[i]?.constant ? undefined : `its ${what} (input ${i}) is not a constant`;

export const attrIs = (name: string, ok: (value: unknown) => boolean, want: string): Requirement => (v) =>
  ok(v.attrs[name]) ? undefined : `${name} = ${JSON.stringify(v.attrs[name] ?? null)}; the kernel needs ${want}`;

const all = (xs: unknown, p: (x: number) => boolean) => !xs || (xs as number[]).every(p);

/** Dilation 1 wherever the kernel is wider than 1 (a 1x1 kernel ignores dilation). */
export const noDilation: Requirement = (v) => {
  const d = v.attrs.dilations as number[] | undefined;
  const w = v.node.op === 'MaxPool' ? undefined : v.inputs[1]?.shape;
  const k = (v.attrs.kernel_shape as number[] | undefined) ?? (w ? (cf(v) === 0 ? w.slice(1, -1) : w.slice(2)) : undefined);
  if (!d || d.every((x, i) => x === 1 || k?.[i] === 1)) return undefined;
  return `dilations = ${JSON.stringify(d)}; the kernel needs dilation 1`;
};
export const stride1 = attrIs('strides', (d) => all(d, (x) => x === 1), 'stride 1');
export const noPadding = attrIs('pads', (d) => all(d, (x) => x === 0), 'no padding (extract it into a Pad node)');

/** Conv kind from group and channels: dense (group 1) or depthwise (group = C_in = C_out). */
export function convKind(v: NodeView): 'dense' | 'depthwise' | 'grouped' {
  const g = (v.attrs.group as number) ?? 1;
  if (g === 1) return 'dense';
  const x = v.inputs[0].shape, y = v.outputs[0].shape;
  const C = cf(v) === 0 ? x[x.length - 1] : x[1], M = cf(v) === 0 ? y[y.length - 1] : y[1];
  return g === C && g === M ? 'depthwise' : 'grouped';
}

export const convIs = (...kinds: ('dense' | 'depthwise')[]): Requirement => (v) => {
  const k = convKind(v);
  return (kinds as string[]).includes(k) ? undefined : `it is a ${k} convolution (group ${v.attrs.group as number}); the kernel takes ${kinds.join(' or ')}`;
};

/** Kernel size (spatial dims of the weights) equals one of `sizes`, e.g. [1,1] or [3,3]. */
export const kernelSize = (...sizes: number[][]): Requirement => (v) => {
  const w = v.inputs[1].shape;
  const k = cf(v) === 0 ? w.slice(1, -1) : w.slice(2);
  return sizes.some((s) => s.join() === k.join()) ? undefined : `its kernel is ${k.join('x')}; the kernel takes ${sizes.map((s) => s.join('x')).join(' or ')}`;
};

export const attrInt = (name: string, value: number): Requirement =>
  attrIs(name, (x) => ((x as number | undefined) ?? 0) === value, `${name} = ${value}`);

/** The output holds 8-bit values. */
export const eightBitOut: Requirement = (v) => {
  const o = v.outputs[0];
  return o && (o.type === 'int8' || o.type === 'uint8') ? undefined : `its output is ${o ? describe(o) : 'missing'}; the kernel writes int8/uint8`;
};

/** Padding of at most `p` on every side. */
export const padAtMost = (p: number): Requirement =>
  attrIs('pads', (d) => all(d, (x) => x <= p), p === 0 ? 'no padding' : `padding of at most ${p}`);

/**
 * Requant parameters the kernel indexes by broadcasting over its output (for a Gemm
 * [..., M, N]: a scalar, one value per column, per row, per batch entry or per element).
 */
export const broadcastParams = (...idx: number[]): Requirement => (v) => {
  const y = v.outputs[0].shape;
  for (const i of idx) {
    const o = v.inputs[i];
    if (!o) continue;
    const p = o.shape;
    const ok = p.length <= y.length && p.every((d, k) => d === 1 || d === y[y.length - p.length + k]);
    if (!ok) return `input ${i} ('${o.name}') has shape [${p.join(', ')}], which does not broadcast to the output [${y.join(', ')}]`;
  }
  return undefined;
};
