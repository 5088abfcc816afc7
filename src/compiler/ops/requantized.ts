// The fused ops Deeploy's Siracusa lowering creates: an op and the RequantShift after it in
// one node. Each is defined as exactly the composition it replaces (see the semantics doc),
// so the interpreter can check every lowering pass against the golden outputs.
//
// Shift s: attribute 'shift', else the optional 'shift' input, else log2 of attribute 'div'.
// Rounding: RequantizedConv / RequantizedGemm / RequantizedAdd carry 2^(s-1) inside their add
// (Deeploy folds it there when fusing); the activation and division forms add it themselves.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { inferConv, evalConv, convAttrs, convWork } from './conv';
import { numeric, promote } from './core/dtypes';
import { levelsRange, paramLayout, requantize, requantScalar, shiftOfDiv } from './core/requant';
import { broadcastIndex, broadcastShapes, numel, scalar, type IntTensor } from './core/tensor';
import { iGeluAttrs, igelu, iHardswishAttrs, ihardswish, mapExact } from './deeploy-activations';
import { integerDiv, integerDivAttrs } from './integer-div';
import { batchedMatmul, matmulPlan, matmulWork } from './matmul';
import { defineOp, DEEPLOY_DOMAINS, float, int, reqInt, type AttrSpecs, type AttrValues } from './types';
import { convRule, elementwiseRule, gemmRule } from '../tiling/rules';

const outAttrs = {
  shift: int(),
  div: int(),
  n_levels: reqInt({ aliases: ['n_levels_out'] }),
  signed: reqInt(),
};
type OutAttrs = AttrValues<typeof outAttrs>;

export function shiftOf(a: { shift?: number; div?: number }, shiftInput: IntTensor | undefined, where: string): number {
  if (a.shift !== undefined) return a.shift;
  if (shiftInput) {
    if (shiftInput.data.length !== 1) fail('shape-mismatch', 'the shift input must hold one value', where);
    return shiftInput.data[0];
  }
  if (a.div !== undefined) return shiftOfDiv(a.div, where);
  return fail('bad-graph', "needs the shift: attribute 'shift', a shift input, or attribute 'div'", where);
}

function checkShift(a: OutAttrs, hasShiftInput: boolean, where: string): void {
  if (a.shift === undefined && !hasShiftInput && a.div === undefined)
    fail('bad-graph', "needs the shift: attribute 'shift', a shift input, or attribute 'div'", where);
  if (a.div !== undefined) shiftOfDiv(a.div, where);
  if (a.shift !== undefined && (a.shift < 0 || a.shift > 62)) fail('bad-graph', `shift = ${a.shift} is out of range`, where);
  levelsRange(a.n_levels, !!a.signed, where);
}

/** mul/add must line up with the op's result (see paramLayout). */
function checkRequantParams(result: number[], params: (TensorType | undefined)[], where: string): void {
  for (const p of params) {
    if (!p) continue;
    numeric(p, 'a requant parameter', where);
    paramLayout(p.shape, result, 'a requant parameter', where);
  }
}

function withOut<S extends AttrSpecs>(s: S): S & typeof outAttrs {
  return { ...s, ...outAttrs };
}

// ---------------------------------------------------------------------------------------------

export const RequantizedConv = defineOp({
  ops: ['RequantizedConv'],
  tiling: convRule,
  domains: DEEPLOY_DOMAINS,
  summary: "Conv + RequantShift: y = clip((conv(x, W)*mul + add') >> s), add' = add + 2^(s-1)",
  inputs: [{ name: 'X' }, { name: 'W' }, { name: 'mul' }, { name: 'add' }, { name: 'shift', optional: true }],
  outputs: ['Y'],
  attrs: withOut(convAttrs),
  infer: ({ inputs, attrs, where }) => {
    const y = inferConv(inputs, attrs, where, null);
    checkRequantParams(y.shape, [inputs[2], inputs[3]], where);
    checkShift(attrs, !!inputs[4], where);
    return [y];
  },
  eval: ({ inputs: [x, w, mul, add, sh], attrs, where }) => {
    const acc = evalConv(x!, w!, undefined, attrs, where);
    const [lo, hi] = levelsRange(attrs.n_levels, !!attrs.signed, where);
    return [requantize(acc, { mul: mul!, add: add!, shift: shiftOf(attrs, sh, where), round: false, lo, hi }, where)];
  },
  work: convWork,
});

export const RequantizedGemm = defineOp({
  ops: ['RequantizedGemm'],
  tiling: gemmRule,
  domains: DEEPLOY_DOMAINS,
  summary: "Gemm/MatMul + RequantShift: y = clip((A'·B'*mul + C') >> s), C' = round(bias*mul) + add + 2^(s-1); batched like MatMul",
  inputs: [{ name: 'A' }, { name: 'B' }, { name: 'C' }, { name: 'mul' }],
  outputs: ['Y'],
  attrs: withOut({ transA: int(0), transB: int(0), alpha: float(1), beta: float(1) }),
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    if (attrs.alpha !== 1 || attrs.beta !== 1)
      fail('not-implemented', `alpha = ${attrs.alpha}, beta = ${attrs.beta}; RequantizedGemm needs both to be 1`, where);
    const { shape } = matmulPlan(a.shape, b.shape, !!attrs.transA, !!attrs.transB, where);
    checkRequantParams(shape, [inputs[2], inputs[3]], where);
    checkShift(attrs, false, where);
    return [{ dtype: promote([a.dtype, b.dtype]), shape }];
  },
  eval: ({ inputs: [a, b, c, mul], attrs, where }) => {
    const acc = batchedMatmul(a!, b!, !!attrs.transA, !!attrs.transB, where);
    const [lo, hi] = levelsRange(attrs.n_levels, !!attrs.signed, where);
    return [requantize(acc, { mul: mul!, add: c!, shift: shiftOf(attrs, undefined, where), round: false, lo, hi }, where)];
  },
  work: matmulWork,
});

// ---------------------------------------------------------------------------------------------

/** One of RequantizedAdd's three requantizers, read from attributes prefixed rqs1_ / rqs2_ / rqsOut_. */
export interface Rq { mul: number; add: number; shift: number; lo: number; hi: number }

function rqAddPart(attrs: Record<string, number | undefined>, key: string, where: string): Rq {
  const get = (k: string) => attrs[`${key}_${k}`];
  const div = get('div');
  const shift = get('shift') ?? (div === undefined ? 0 : shiftOfDiv(div, where, `${key}_div`));
  const n = get('n_levels') ?? get('n_levels_out') ?? 256;
  const [lo, hi] = levelsRange(n, (get('signed') ?? 1) !== 0, where);
  return { mul: get('mul') ?? 1, add: get('add') ?? 0, shift, lo, hi };
}

const rqAddAttrs: AttrSpecs = {};
for (const k of ['rqs1', 'rqs2', 'rqsOut'])
  for (const f of ['mul', 'add', 'div', 'shift', 'n_levels', 'n_levels_out', 'signed']) rqAddAttrs[`${k}_${f}`] = int();

export function rqAddParts(attrs: Record<string, number | undefined>, where: string): Rq[] {
  return ['rqs1', 'rqs2', 'rqsOut'].map((k) => rqAddPart(attrs, k, where));
}

export const RequantizedAdd = defineOp({
  ops: ['RequantizedAdd'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = RQout(RQ1(a) + RQ2(b)), each RQ(v) = clip((v*mul + add) >> shift) with scalar attributes rqs1_/rqs2_/rqsOut_* (add includes the rounding)',
  inputs: [{ name: 'A' }, { name: 'B' }],
  outputs: ['C'],
  attrs: rqAddAttrs,
  infer: ({ inputs, attrs, where }): TensorType[] => {
    rqAddParts(attrs as Record<string, number | undefined>, where);
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    return [{ dtype: promote([a.dtype, b.dtype]), shape: broadcastShapes([a.shape, b.shape], where) }];
  },
  eval: ({ inputs: [a, b], attrs, outputs, where }) => {
    const [r1, r2, ro] = rqAddParts(attrs as Record<string, number | undefined>, where);
    const shape = outputs[0].shape;
    const ia = broadcastIndex(a!.shape, shape), ib = broadcastIndex(b!.shape, shape);
    const out = new Float64Array(numel(shape));
    const rq = (v: number, r: Rq) => requantScalar(v, r.mul, r.add, r.shift, r.lo, r.hi, where);
    for (let i = 0; i < out.length; i++)
      out[i] = rq(rq(a!.data[ia[i]], r1) + rq(b!.data[ib[i]], r2), ro);
    return [{ shape, data: out }];
  },
});

// ---------------------------------------------------------------------------------------------

/** y = clip((v*mul + add + 2^(s-1)) >> s) over an op's result v. */
function requantAfter(v: IntTensor, mul: IntTensor, add: IntTensor, shift: number, a: OutAttrs, where: string): IntTensor {
  const [lo, hi] = levelsRange(a.n_levels, !!a.signed, where);
  return requantize(v, { mul, add, shift, round: true, lo, hi }, where);
}

export const RequantizediHardswish = defineOp({
  ops: ['RequantizediHardswish'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'iHardswish + RequantShift: y = clip((ihardswish(x)*mul + add + 2^(s-1)) >> s), mul/add/shift scalar attributes',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: withOut({ ...iHardswishAttrs, mul: reqInt(), add: reqInt() }),
  infer: ({ inputs, attrs, where }) => {
    checkShift(attrs, false, where);
    return [numeric(inputs[0]!, 'the input', where)];
  },
  eval: ({ inputs: [x], attrs, where }) =>
    [requantAfter(mapExact(x!, (v) => ihardswish(v, attrs), where), scalar(attrs.mul), scalar(attrs.add),
      shiftOf(attrs, undefined, where), attrs, where)],
});

export const RequantizediGELU = defineOp({
  ops: ['RequantizediGELU'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'iGELU + RequantShift: y = clip((igelu(x)*mul + add + 2^(s-1)) >> s)',
  inputs: [{ name: 'data_in' }, { name: 'mul' }, { name: 'add' }, { name: 'shift', optional: true }],
  outputs: ['data_out'],
  attrs: withOut(iGeluAttrs),
  infer: ({ inputs, attrs, where }) => {
    const x = numeric(inputs[0]!, 'the input', where);
    checkRequantParams(x.shape, [inputs[1], inputs[2]], where);
    checkShift(attrs, !!inputs[3], where);
    return [x];
  },
  eval: ({ inputs: [x, mul, add, sh], attrs, where }) =>
    [requantAfter(mapExact(x!, (v) => igelu(v, attrs), where), mul!, add!, shiftOf(attrs, sh, where), attrs, where)],
});

export const RQIntegerDiv = defineOp({
  ops: ['RQIntegerDiv'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'IntegerDiv + RequantShift: y = clip((intdiv(A, B)*mul + add + 2^(s-1)) >> s)',
  inputs: [{ name: 'A' }, { name: 'B' }, { name: 'mul' }, { name: 'add' }, { name: 'shift', optional: true }],
  outputs: ['C'],
  attrs: withOut(integerDivAttrs),
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    const shape = broadcastShapes([a.shape, b.shape], where);
    checkRequantParams(shape, [inputs[2], inputs[3]], where);
    checkShift(attrs, !!inputs[4], where);
    return [{ dtype: promote([a.dtype, b.dtype]), shape }];
  },
  eval: ({ inputs: [a, b, mul, add, sh], attrs, outputs, where }) =>
    [requantAfter(integerDiv(a!, b!, outputs[0].shape, attrs, where), mul!, add!, shiftOf(attrs, sh, where), attrs, where)],
});
