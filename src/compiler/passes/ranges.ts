// Integer value ranges: for every tensor of a typed graph, an interval that holds all of its
// values for any graph input within `inputs` (unknown inputs: unbounded). Requant outputs are
// bounded by their levels, data movement keeps ranges, arithmetic widens them.
//
// Passes use it to prove a rewrite exact (a requant that clips nothing can go); the kernel
// binding uses it to read tensors' integer types (int8, uint8, int32, ...).
import { own, put } from '../../common/own';
import type { Graph, Node } from '../ir/graph';
import { DTYPES } from '../ir/dtype';
import { initializerToInt } from '../ops/core/convert';
import { levelsRange } from '../ops/core/requant';
import { numel } from '../ops/core/tensor';
import { lookupOp } from '../ops';
import { readAttrs, whereNode } from '../ops/types';

export type Range = readonly [lo: number, hi: number];
export const UNBOUNDED: Range = [-Infinity, Infinity];

export function rangeOfValues(data: ArrayLike<number>): Range {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return data.length === 0 ? [0, 0] : [lo, hi];
}

const union = (rs: Range[]): Range => (rs.length === 0 ? [0, 0] : [Math.min(...rs.map((r) => r[0])), Math.max(...rs.map((r) => r[1]))]);
const mulR = (a: Range, b: Range): Range => {
  const p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]].map((v) => (Number.isNaN(v) ? 0 : v));
  return [Math.min(...p), Math.max(...p)];
};
const addR = (a: Range, b: Range): Range => [a[0] + b[0], a[1] + b[1]];
const scaleR = (a: Range, k: number): Range => [a[0] * k, a[1] * k];
const mag = (r: Range): number => Math.max(Math.abs(r[0]), Math.abs(r[1]));

/** Ranges of graph inputs from their declared dtype (FLOAT inputs are unbounded). */
function declaredInputRanges(g: Graph): Record<string, Range> {
  const out: Record<string, Range> = {};
  for (const v of g.inputs) {
    const d = DTYPES[v.dtype];
    put(out, v.name, d.integer && d.min !== undefined && d.max !== undefined ? [d.min, d.max] : UNBOUNDED);
  }
  return out;
}

/** Every tensor's range; `inputs` overrides the ranges of graph inputs. */
export function valueRanges(g: Graph, inputs: Record<string, Range> = {}): Map<string, Range> {
  const r = new Map<string, Range>();
  const declared = declaredInputRanges(g);
  for (const v of g.inputs) r.set(v.name, own(inputs, v.name) ?? own(declared, v.name)!);
  for (const [name, init] of Object.entries(g.initializers)) {
    if (r.has(name)) continue;
    try {
      r.set(name, rangeOfValues(initializerToInt(init).data));
    } catch {
      r.set(name, UNBOUNDED);
    }
  }
  const get = (t: string): Range => (t ? r.get(t) ?? UNBOUNDED : UNBOUNDED);
  for (const n of g.nodes) {
    let out: Range;
    try {
      out = nodeRange(n, get, g);
    } catch {
      out = UNBOUNDED;
    }
    for (const o of n.outputs) if (o) r.set(o, out);
  }
  return r;
}

function attrsOf(n: Node) {
  const e = lookupOp(n.domain, n.op);
  return e ? (readAttrs(n, e.attrs, whereNode(n)) as Record<string, unknown>) : {};
}

const levels = (a: Record<string, unknown>, signed?: boolean): Range =>
  levelsRange(a.n_levels as number, signed ?? !!a.signed, 'range');

function nodeRange(n: Node, get: (t: string) => Range, g: Graph): Range {
  const a = attrsOf(n);
  const x = get(n.inputs[0] ?? '');
  const shape = (t: string) => own(g.types, t)?.shape ?? own(g.initializers, t)?.shape ?? [];
  switch (n.op) {
    case 'RequantShift': case 'RequantizedConv': case 'RequantizedGemm': case 'RequantizediHardswish':
    case 'RequantizediGELU': case 'RQIntegerDiv':
      return levels(a);
    case 'RequantizedAdd':
      return levelsRange((a.rqsOut_n_levels ?? a.rqsOut_n_levels_out ?? 256) as number, ((a.rqsOut_signed ?? 1) as number) !== 0, 'range');
    case 'iRMSNorm': case 'iLayerNorm': case 'iNoNorm':
      return levels(a, true);
    case 'iSoftmax': case 'ITAMax':
      return [0, (a.n_levels as number) - 1];
    case 'ITAPartialMax':
      return [0, Math.floor((a.n_levels as number) / 2) - 1];
    case 'Identity': case 'Transpose': case 'Reshape': case 'Flatten': case 'Squeeze': case 'Unsqueeze':
    case 'Slice': case 'Gather': case 'MaxPool':
      return x;
    case 'Concat':
      return union(n.inputs.filter((i) => i && numel(shape(i)) > 0).map(get));
    case 'Pad': {
      const v = n.inputs[2] ? get(n.inputs[2]) : ([a.value as number, a.value as number] as Range);
      return union([x, v]);
    }
    case 'Relu':
      return [Math.max(0, x[0]), Math.max(0, x[1])];
    case 'Add': return addR(x, get(n.inputs[1]));
    case 'Sub': { const b = get(n.inputs[1]); return [x[0] - b[1], x[1] - b[0]]; }
    case 'Mul': return mulR(x, get(n.inputs[1]));
    case 'MatMul': case 'Gemm': {
      const sa = shape(n.inputs[0]);
      const K = n.op === 'Gemm' && a.transA ? sa[sa.length - 2] : sa[sa.length - 1];
      let acc = scaleR(mulR(x, get(n.inputs[1])), K ?? 1);
      if (n.op === 'Gemm') {
        acc = scaleR(acc, Math.abs(a.alpha as number));
        if (n.inputs[2]) acc = addR(acc, scaleR(get(n.inputs[2]), Math.abs(a.beta as number)));
      }
      return [-mag(acc), mag(acc)];
    }
    case 'Conv': {
      const w = shape(n.inputs[1]);
      const K = numel(w.slice(1));
      let acc = scaleR(mulR(x, get(n.inputs[1])), K);
      if (n.inputs[2]) acc = addR(acc, get(n.inputs[2]));
      return [-mag(acc), mag(acc)];
    }
    case 'ReduceSum': {
      const xs = shape(n.inputs[0]), ys = shape(n.outputs[0]);
      const k = numel(xs) / Math.max(1, numel(ys));
      return scaleR(x, k);
    }
    case 'ReduceMean': case 'IntegerMean':
      return x;
    case 'TrueIntegerDiv': {
      const c = Math.floor(((a.Delta as number) * (a.eta as number)) / ((a.y as number) * (a.eta as number) + (a.eps as number)));
      return mulR(x, [c, c]);
    }
    case 'iHardswish': {
      const six = a.six as number, k = a.one_over_six as number;
      return mulR(x, [0, six * k]);
    }
    case 'Clip': {
      const lo = n.inputs[1] ? get(n.inputs[1])[0] : -Infinity, hi = n.inputs[2] ? get(n.inputs[2])[1] : Infinity;
      return [Math.max(x[0], lo), Math.min(x[1], hi)];
    }
    default:
      return lookupOp(n.domain, n.op)?.outputRange?.() ?? UNBOUNDED;
  }
}

export const INT_TYPES = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'] as const;
export type IntType = (typeof INT_TYPES)[number];

/** Short names used in kernel names: s8, u8, s16, u16, s32, u32. */
export const SHORT: Record<IntType, string> = { int8: 's8', uint8: 'u8', int16: 's16', uint16: 'u16', int32: 's32', uint32: 'u32' };

/** The narrowest integer type holding a range (signed first for activations); undefined when none does. */
export function intTypeOf(r: Range, unsignedFirst = false): IntType | undefined {
  const order: IntType[] = unsignedFirst ? ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32']
    : ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'];
  return order.find((t) => r[0] >= DTYPES[t].min! && r[1] <= DTYPES[t].max!);
}
