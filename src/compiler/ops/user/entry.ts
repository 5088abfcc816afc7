// A user operator's spec checked and turned into an op registry entry: attribute parsing with
// the spec's ranges, the template's shape rule, the expression as reference semantics, and the
// template's tiling rule narrowed by the spec's constraints. Every problem names its field, and
// at run time the node.
import { fail } from '../../../common/errors';
import { emptyRecord, own, put } from '../../../common/own';
import type { TensorType } from '../../ir/graph';
import { DTYPES } from '../../ir/dtype';
import { INT_TYPES } from '../../passes/ranges';
import { elementwiseRule, lastAxisRule, lcm, type TileRule, type TileView } from '../../tiling/rules';
import { numeric } from '../core/dtypes';
import { broadcastIndex, broadcastShapes, numel, type IntTensor } from '../core/tensor';
import { defineOp, int, ints, reqInt, type AttrSpec, type OpEntry } from '../types';
import { checkNames, compileExpr, EvalError, ExprError, parseExpr, type Env, type NameKind } from './expr';
import { SHAPE_TEMPLATES, type UserOpSpec, type UserTensor } from './spec';

export interface SpecProblem {
  /** Path of the field: 'op', 'attrs.1.max', 'inputs.0.dtype', 'semantics', 'tiling.0.multiple'. */
  field: string;
  message: string;
}

/** Names the row templates provide to the semantics (aggregates of input 0 along its last axis). */
export const ROW_NAMES = ['n', 'rowsum', 'rowmax', 'rowmin'] as const;

const C_KEYWORDS = new Set(('auto break case char const continue default do double else enum extern float for goto if inline int long ' +
  'register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while size').split(' '));
const IDENT = /^[A-Za-z_]\w*$/;

/** How many inputs each template takes. */
export const TEMPLATE_INPUTS: Record<UserOpSpec['shape'], number> = { unary: 1, binary: 2, 'reduce-last': 1, 'row-last': 1 };

const isRow = (s: UserOpSpec) => s.shape === 'reduce-last' || s.shape === 'row-last';

/** The names the semantics may read, with their kinds. */
export function semanticNames(spec: UserOpSpec): Map<string, NameKind> {
  const m = new Map<string, NameKind>();
  if (spec.shape !== 'reduce-last') for (const t of spec.inputs) m.set(t.name, 'scalar');
  if (isRow(spec)) for (const n of ROW_NAMES) m.set(n, 'scalar');
  for (const a of spec.attrs) m.set(a.name, a.kind === 'ints' ? 'list' : 'scalar');
  return m;
}

/** Every problem of a spec, by field; empty when it is usable. */
export function checkUserOp(spec: UserOpSpec): SpecProblem[] {
  const out: SpecProblem[] = [];
  const bad = (field: string, message: string) => out.push({ field, message });
  if (!IDENT.test(spec.op ?? '')) bad('op', `the op type '${spec.op ?? ''}' must be an identifier (letters, digits, _; not starting with a digit)`);
  if (typeof spec.domain !== 'string') bad('domain', 'the domain must be a string (\'\' for the default domain)');
  if (!SHAPE_TEMPLATES.includes(spec.shape)) bad('shape', `the shape rule '${spec.shape}' is not one of ${SHAPE_TEMPLATES.join(', ')}`);
  const seen = new Map<string, string>();
  const name = (field: string, n: string, what: string) => {
    if (!IDENT.test(n ?? '')) return bad(field, `${what} name '${n ?? ''}' must be an identifier`);
    if (C_KEYWORDS.has(n)) return bad(field, `${what} name '${n}' is a C keyword`);
    if (isRow(spec) && (ROW_NAMES as readonly string[]).includes(n)) return bad(field, `${what} name '${n}' is taken by the row aggregates (${ROW_NAMES.join(', ')})`);
    if (seen.has(n)) return bad(field, `${what} name '${n}' is already used by ${seen.get(n)}`);
    seen.set(n, `${what} '${n}'`);
  };
  const dtype = (field: string, t: UserTensor) => {
    if (!(INT_TYPES as readonly string[]).includes(t.dtype)) bad(field, `dtype '${t.dtype}' is not one of ${INT_TYPES.join(', ')}`);
  };
  const want = TEMPLATE_INPUTS[spec.shape];
  if (want !== undefined && spec.inputs.length !== want)
    bad('inputs', `the ${spec.shape} shape rule takes ${want} input${want > 1 ? 's' : ''}, the spec lists ${spec.inputs.length}`);
  spec.inputs.forEach((t, i) => { name(`inputs.${i}.name`, t.name, 'input'); dtype(`inputs.${i}.dtype`, t); });
  name('output.name', spec.output.name, 'output');
  dtype('output.dtype', spec.output);
  spec.attrs.forEach((a, i) => {
    const f = `attrs.${i}`;
    name(`${f}.name`, a.name, 'attribute');
    if (a.kind !== 'int' && a.kind !== 'ints') bad(`${f}.kind`, `kind '${a.kind}' is not 'int' or 'ints'`);
    for (const k of ['min', 'max'] as const)
      if (a[k] !== undefined && !Number.isSafeInteger(a[k])) bad(`${f}.${k}`, `${k} ${a[k]} is not an integer`);
    if (a.min !== undefined && a.max !== undefined && a.min > a.max) bad(`${f}.max`, `max ${a.max} is below min ${a.min}`);
    if (a.default !== undefined) {
      const vals = Array.isArray(a.default) ? a.default : [a.default];
      if (a.kind === 'int' && Array.isArray(a.default)) bad(`${f}.default`, 'the default of an int attribute is one integer');
      const off = vals.find((v) => !Number.isSafeInteger(v) || (a.min !== undefined && v < a.min) || (a.max !== undefined && v > a.max));
      if (off !== undefined) bad(`${f}.default`, `the default ${off} is ${Number.isSafeInteger(off) ? `outside [${a.min ?? '-inf'}, ${a.max ?? 'inf'}]` : 'not an integer'}`);
    }
  });
  try {
    const e = parseExpr(spec.semantics ?? '');
    checkNames(e, semanticNames(spec));
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    bad('semantics', e.message);
  }
  spec.tiling.forEach((r, i) => {
    const f = `tiling.${i}`;
    if (!Number.isInteger(r.axis)) bad(`${f}.axis`, `axis ${r.axis} is not an integer`);
    else if (isRow(spec) && (r.axis === -1)) bad(`${f}.axis`, `the ${spec.shape} rule never cuts the last axis, so a constraint on it has no effect`);
    if (r.multiple !== undefined && !(Number.isInteger(r.multiple) && r.multiple >= 1)) bad(`${f}.multiple`, `multiple ${r.multiple} must be an integer >= 1`);
    if (r.min !== undefined && !(Number.isInteger(r.min) && r.min >= 1)) bad(`${f}.min`, `min ${r.min} must be an integer >= 1`);
    if (r.multiple === undefined && r.min === undefined) bad(`${f}`, 'the rule sets neither a multiple nor a minimum');
  });
  return out;
}

/** The attribute specs readAttrs parses a node's attributes with. */
function attrSpecs(spec: UserOpSpec): Record<string, AttrSpec> {
  const out: Record<string, AttrSpec> = {};
  for (const a of spec.attrs) {
    const doc = a.min !== undefined || a.max !== undefined ? `allowed range [${a.min ?? '-inf'}, ${a.max ?? 'inf'}]` : undefined;
    if (a.kind === 'ints') put(out, a.name, a.default === undefined ? { kind: 'ints', required: true, doc } : ints(a.default as number[], { doc }));
    else put(out, a.name, a.default === undefined ? reqInt({ doc }) : int(a.default as number, { doc }));
  }
  return out;
}

/** Refuses attribute values outside the spec's ranges: the lab's parser check (mul != 1, shift outside [0, 8)). */
function checkAttrRanges(spec: UserOpSpec, attrs: Record<string, unknown>, where: string): void {
  for (const a of spec.attrs) {
    const v = own(attrs, a.name);
    const vals = Array.isArray(v) ? (v as number[]) : [v as number];
    for (const x of vals) {
      if ((a.min !== undefined && x < a.min) || (a.max !== undefined && x > a.max))
        fail('bad-graph', `attribute '${a.name}' = ${Array.isArray(v) ? `[${vals.join(', ')}] holds ${x}, which is` : `${x} is`} outside the allowed range [${a.min ?? '-inf'}, ${a.max ?? 'inf'}] of ${spec.op}`,
          where, 'the op spec says which values its kernel can honour; change the node or the spec');
    }
  }
}

/** The output shape for the template, or a shape-mismatch error naming the node. */
function outputShape(spec: UserOpSpec, shapes: (readonly number[])[], where: string): number[] {
  switch (spec.shape) {
    case 'unary': case 'row-last':
      if (isRow(spec) && shapes[0].length === 0) fail('shape-mismatch', `the ${spec.shape} shape rule needs an input of rank >= 1; '${spec.inputs[0].name}' is a scalar`, where);
      return [...shapes[0]];
    case 'binary':
      return broadcastShapes(shapes, where);
    case 'reduce-last':
      if (shapes[0].length === 0) fail('shape-mismatch', `the reduce-last shape rule needs an input of rank >= 1; '${spec.inputs[0].name}' is a scalar`, where);
      return [...shapes[0].slice(0, -1), 1];
  }
}

const rangeOf = (t: UserTensor): [number, number] => [DTYPES[t.dtype].min!, DTYPES[t.dtype].max!];

/** Checks values against a declared dtype, naming the first that does not fit. */
function checkFits(t: UserTensor, data: Float64Array, what: string, where: string): void {
  const [lo, hi] = rangeOf(t);
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (!(v >= lo && v <= hi))
      fail('dtype-mismatch', `${what} '${t.name}' holds ${v} at flat index ${i}, outside ${t.dtype} [${lo}, ${hi}]`, where,
        what === 'output' ? 'the semantics give a value the output dtype cannot hold: widen the output dtype or clip in the expression' : undefined);
  }
}

/** The reference semantics: the expression evaluated for every output element. */
function evaluate(spec: UserOpSpec, fn: (env: Env) => number, inputs: IntTensor[], attrs: Record<string, unknown>, outShape: number[], where: string): IntTensor {
  // Without a prototype: an attribute or input named '__proto__' is an ordinary name.
  const env: Env = emptyRecord();
  for (const a of spec.attrs) env[a.name] = own(attrs, a.name) as number | number[];
  const out = new Float64Array(numel(outShape));
  const run = (i: number) => {
    try {
      out[i] = fn(env);
    } catch (e) {
      if (e instanceof EvalError) fail('bad-graph', `the semantics of ${spec.op} fail at output element ${i}: ${e.message}`, where);
      throw e;
    }
  };
  if (spec.shape === 'unary' || spec.shape === 'binary') {
    const idx = inputs.map((t) => broadcastIndex(t.shape, outShape));
    for (let i = 0; i < out.length; i++) {
      spec.inputs.forEach((t, k) => { env[t.name] = inputs[k].data[idx[k][i]]; });
      run(i);
    }
  } else {
    const x = inputs[0], n = x.shape[x.shape.length - 1], rows = n === 0 ? 0 : x.data.length / n;
    env.n = n;
    for (let r = 0; r < rows; r++) {
      let sum = 0, mx = -Infinity, mn = Infinity;
      for (let j = 0; j < n; j++) { const v = x.data[r * n + j]; sum += v; if (v > mx) mx = v; if (v < mn) mn = v; }
      env.rowsum = sum; env.rowmax = mx; env.rowmin = mn;
      if (spec.shape === 'reduce-last') run(r);
      else for (let j = 0; j < n; j++) { env[spec.inputs[0].name] = x.data[r * n + j]; run(r * n + j); }
    }
  }
  checkFits(spec.output, out, 'output', where);
  return { shape: outShape, data: out };
}

/** The template's tiling rule with the spec's constraints (multiples, minimum sizes) on top. */
function tilingRule(spec: UserOpSpec): TileRule {
  const base: TileRule = spec.shape === 'reduce-last' ? reduceLastRule : spec.shape === 'row-last' ? lastAxisRule : elementwiseRule;
  if (spec.tiling.length === 0) return base;
  const per = (v: TileView, key: 'multiple' | 'min') => {
    const r = v.output.length, out = v.output.map(() => 1);
    for (const c of spec.tiling) {
      const axis = c.axis < 0 ? c.axis + r : c.axis;
      if (axis < 0 || axis >= r) fail('bad-config', `tiling rule on axis ${c.axis} of ${spec.op}, whose output has rank ${r}`, v.where);
      const k = c[key];
      if (k !== undefined) out[axis] = key === 'multiple' ? lcm(out[axis], k) : Math.max(out[axis], k);
    }
    return out;
  };
  const describe = spec.tiling.map((c) => [c.multiple ? `axis ${c.axis} a multiple of ${c.multiple}` : '', c.min ? `axis ${c.axis} at least ${c.min}` : '']
    .filter(Boolean).join(', ')).join('; ');
  return { ...base, name: `${base.name}; ${describe}`, multiples: (v) => per(v, 'multiple'), minSizes: (v) => per(v, 'min') };
}

/** Reductions along the last axis (output [..., 1]): rows may be cut, the reduced axis is read whole. */
export const reduceLastRule: TileRule = {
  name: 'rows (reduced last axis whole)',
  kind: 'reduce',
  splittable: (v) => v.output.map((_, i) => i < v.output.length - 1),
  inputRegion: (v, i, out) => {
    const shape = v.inputs[i]!;
    return { start: [...out.start.slice(0, -1), 0], size: [...out.size.slice(0, -1), shape[shape.length - 1]] };
  },
  parallel: (v) => v.output.map((_, i) => i).slice(0, -1),
};

/** The registry entry of a spec that checkUserOp found no problem in. */
export function userEntry(spec: UserOpSpec): OpEntry {
  const attrs = attrSpecs(spec);
  const semantics = compileExpr(parseExpr(spec.semantics));
  return defineOp({
    ops: [spec.op],
    domains: [spec.domain],
    summary: `user-defined (${spec.shape}): ${spec.semantics}`,
    inputs: spec.inputs.map((t) => ({ name: t.name })),
    outputs: [spec.output.name],
    attrs,
    infer: ({ node, inputs, attrs: a, where }): TensorType[] => {
      if (node.inputs.length !== spec.inputs.length || inputs.some((t) => !t))
        fail('shape-mismatch', `${spec.op} takes ${spec.inputs.length} input${spec.inputs.length > 1 ? 's' : ''} (${spec.inputs.map((t) => t.name).join(', ')}) by its ${spec.shape} shape rule; the node has ${node.inputs.filter(Boolean).length}`, where);
      if (node.outputs.length !== 1) fail('shape-mismatch', `${spec.op} has one output; the node has ${node.outputs.length}`, where);
      checkAttrRanges(spec, a as Record<string, unknown>, where);
      inputs.forEach((t, i) => numeric(t!, `input '${spec.inputs[i].name}'`, where));
      return [{ dtype: spec.output.dtype, shape: outputShape(spec, inputs.map((t) => t!.shape), where) }];
    },
    eval: ({ inputs, attrs: a, outputs, where }) => {
      checkAttrRanges(spec, a as Record<string, unknown>, where);
      inputs.forEach((t, i) => checkFits(spec.inputs[i], t!.data, 'input', where));
      return [evaluate(spec, semantics, inputs as IntTensor[], a as Record<string, unknown>, outputs[0].shape, where)];
    },
    outputRange: () => rangeOf(spec.output),
    tiling: tilingRule(spec),
  });
}

/** A spec's problems as one error (for specs given to the pipeline or the CLI), or nothing. */
export function failOnProblems(spec: UserOpSpec, where: string): void {
  const p = checkUserOp(spec);
  if (p.length) fail('bad-config', `the op spec of ${spec.op || '(unnamed)'} has ${p.length} problem${p.length > 1 ? 's' : ''}: ${p.map((x) => `${x.field}: ${x.message}`).join('; ')}`, where);
}

