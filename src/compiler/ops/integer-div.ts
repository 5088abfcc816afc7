// Deeploy's integer divisions: IntegerDiv (tensor by tensor, rounded) and TrueIntegerDiv
// (by a constant y, folded into a multiplication).
import type { TensorType } from '../ir/graph';
import { fail } from '../../common/errors';
import { checkExact, fits, floorDiv, floorDivBig, toExact } from './core/exact';
import { numeric, promote } from './core/dtypes';
import { broadcastShapes, broadcastTo, maxAbs, type IntTensor } from './core/tensor';
import { mapExact } from './deeploy-activations';
import { defineOp, DEEPLOY_DOMAINS, reqInt, type AttrValues } from './types';
import { elementwiseRule } from '../tiling/rules';

export const integerDivAttrs = { Delta: reqInt(), eps: reqInt(), eta: reqInt() };

/** floor(a*Delta*eta / (b*eta + eps) + 1/2), elementwise with broadcasting. */
export function integerDiv(a: IntTensor, b: IntTensor, shape: number[], p: AttrValues<typeof integerDivAttrs>,
  where: string): IntTensor {
  const A = broadcastTo(a, shape), B = broadcastTo(b, shape);
  const out = new Float64Array(A.length);
  const k = p.Delta * p.eta;
  // floor(nom/den + 1/2) = floor((2*nom + den) / (2*den)).
  const small = fits(2 * Math.abs(k) * maxAbs(a) + 2 * (Math.abs(p.eta) * maxAbs(b) + Math.abs(p.eps)));
  for (let i = 0; i < A.length; i++) {
    const den = B[i] * p.eta + p.eps;
    if (den === 0) fail('bad-inputs', `IntegerDiv divides by zero (y*eta + eps = 0 for y = ${B[i]})`, where);
    out[i] = small ? floorDiv(2 * A[i] * k + den, 2 * den)
      : toExact(floorDivBig(2n * BigInt(A[i]) * BigInt(k) + BigInt(den), 2n * BigInt(den)), where);
  }
  return { shape, data: out };
}

export const IntegerDiv = defineOp({
  ops: ['IntegerDiv'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = floor(A*Delta*eta / (B*eta + eps) + 1/2), broadcasting A and B',
  inputs: [{ name: 'A' }, { name: 'B' }],
  outputs: ['C'],
  attrs: integerDivAttrs,
  infer: ({ inputs, where }): TensorType[] => {
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    return [{ dtype: promote([a.dtype, b.dtype]), shape: broadcastShapes([a.shape, b.shape], where) }];
  },
  eval: ({ inputs: [a, b], attrs, outputs, where }) => [integerDiv(a!, b!, outputs[0].shape, attrs, where)],
});

/** coeff = floor(Delta*eta / (y*eta + eps)): TrueIntegerDiv's constant multiplier. */
export function trueDivCoeff(p: { Delta: number; eps: number; eta: number; y: number }, where: string): number {
  const den = p.y * p.eta + p.eps;
  if (den === 0) fail('bad-graph', 'TrueIntegerDiv divides by zero (y*eta + eps = 0)', where);
  return floorDiv(checkExact(p.Delta * p.eta, where), checkExact(den, where));
}

export const TrueIntegerDiv = defineOp({
  ops: ['TrueIntegerDiv'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = x * floor(Delta*eta / (y*eta + eps)) (y is an attribute); always followed by a RequantShift',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: { ...integerDivAttrs, y: reqInt() },
  infer: ({ inputs, attrs, where }): TensorType[] => {
    trueDivCoeff(attrs, where);
    return [numeric(inputs[0]!, 'the input', where)];
  },
  eval: ({ inputs: [x], attrs, where }) => {
    const c = trueDivCoeff(attrs, where);
    return [mapExact(x!, (v) => v * c, where)];
  },
});
