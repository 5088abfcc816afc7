// Deeploy's integer normalisations, row by row over the last axis: iRMSNorm, iLayerNorm,
// iNoNorm. Formulas: shared/reference/deeploy-semantics.md ('/' truncates, '>>' floors).
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { checkExact, clamp, floorDiv, isqrt, shiftRight, truncDiv } from './core/exact';
import { numeric } from './core/dtypes';
import { levelsRange, shiftOfDiv } from './core/requant';
import { col, rowLength, rowParam } from './core/rows';
import { broadcastShapes, broadcastTo, maxAbs, shapeStr, type IntTensor } from './core/tensor';
import { defineOp, DEEPLOY_DOMAINS, int, reqInt } from './types';
import { elementwiseRule, lastAxisRule } from '../tiling/rules';

export const iRMSNorm = defineOp({
  ops: ['iRMSNorm'],
  tiling: lastAxisRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'per row of length L: std = isqrt(trunc(sum(x^2)/L) + 1); y = clip(trunc(x*w/std) >> log2(D))',
  inputs: [{ name: 'data_in' }, { name: 'weight' }],
  outputs: ['data_out'],
  attrs: { D: reqInt(), n_levels: int(256) },
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const x = numeric(inputs[0]!, 'the input', where);
    rowParam(inputs[1], rowLength(x.shape, where), 'weight', where);
    shiftOfDiv(attrs.D, where, 'D');
    levelsRange(attrs.n_levels, true, where);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  eval: ({ inputs: [x, w], attrs, where }) => {
    const L = rowLength(x!.shape, where), s = shiftOfDiv(attrs.D, where, 'D');
    const [lo, hi] = levelsRange(attrs.n_levels, true, where);
    const X = x!.data, W = w!.data, out = new Float64Array(X.length);
    for (let r = 0; r < X.length; r += L) {
      let sq = 0;
      for (let j = 0; j < L; j++) sq += X[r + j] * X[r + j];
      checkExact(sq, where); // non-negative terms: the final sum bounds every partial sum
      const std = isqrt(floorDiv(sq, L) + 1);
      for (let j = 0; j < L; j++)
        out[r + j] = clamp(shiftRight(truncDiv(checkExact(X[r + j] * col(W, j), where), std), s), lo, hi);
    }
    return [{ shape: x!.shape, data: out }];
  },
});

export const iLayerNorm = defineOp({
  ops: ['iLayerNorm'],
  tiling: lastAxisRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'per row: nom = x - trunc(mean); den = isqrt(floor(mean(nom^2)) + 1); y = clip(floor((trunc(nom*w/den) + b) / D))',
  inputs: [{ name: 'data_in' }, { name: 'weight' }, { name: 'bias' }],
  outputs: ['data_out'],
  attrs: { D: reqInt(), n_levels: int(256) },
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const x = numeric(inputs[0]!, 'the input', where);
    const L = rowLength(x.shape, where);
    rowParam(inputs[1], L, 'weight', where);
    rowParam(inputs[2], L, 'bias', where);
    if (attrs.D < 1) fail('bad-graph', `D = ${attrs.D} must be positive`, where);
    levelsRange(attrs.n_levels, true, where);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  eval: ({ inputs: [x, w, b], attrs, where }) => {
    const L = rowLength(x!.shape, where);
    const [lo, hi] = levelsRange(attrs.n_levels, true, where);
    const X = x!.data, W = w!.data, B = b!.data, out = new Float64Array(X.length);
    const nom = new Float64Array(L);
    checkExact(L * maxAbs(x!), where); // bounds every partial row sum
    for (let r = 0; r < X.length; r += L) {
      let sum = 0;
      for (let j = 0; j < L; j++) sum += X[r + j];
      const mean = truncDiv(checkExact(sum, where), L);
      let sq = 0;
      for (let j = 0; j < L; j++) {
        nom[j] = X[r + j] - mean;
        sq += nom[j] * nom[j];
      }
      const den = isqrt(floorDiv(checkExact(sq, where), L) + 1);
      for (let j = 0; j < L; j++) {
        const v = truncDiv(checkExact(nom[j] * col(W, j), where), den) + col(B, j);
        out[r + j] = clamp(floorDiv(v, attrs.D), lo, hi);
      }
    }
    return [{ shape: x!.shape, data: out }];
  },
});

export const iNoNorm = defineOp({
  ops: ['iNoNorm'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = clip(floor((x*w + b) * mul / D)): an elementwise affine map (w, b broadcast to x)',
  inputs: [{ name: 'data_in' }, { name: 'weights' }, { name: 'bias' }],
  outputs: ['data_out'],
  attrs: { D: reqInt(), mul: reqInt(), n_levels: int(256) },
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const [x, w, b] = inputs.map((t, i) => numeric(t!, ['the input', 'weights', 'bias'][i], where));
    const shape = broadcastShapes([x.shape, w.shape, b.shape], where);
    if (shapeStr(shape) !== shapeStr(x.shape))
      fail('shape-mismatch', `weights ${shapeStr(w.shape)} / bias ${shapeStr(b.shape)} broadcast the input ${shapeStr(x.shape)} to ${shapeStr(shape)}`, where);
    shiftOfDiv(attrs.D, where, 'D');
    levelsRange(attrs.n_levels, true, where);
    return [{ dtype: x.dtype, shape }];
  },
  eval: ({ inputs: [x, w, b], attrs, where }) => [noNorm(x!, w!, b!, attrs, where)],
});

function noNorm(x: IntTensor, w: IntTensor, b: IntTensor, a: { D: number; mul: number; n_levels: number }, where: string): IntTensor {
  const s = shiftOfDiv(a.D, where, 'D');
  const [lo, hi] = levelsRange(a.n_levels, true, where);
  const W = broadcastTo(w, x.shape), B = broadcastTo(b, x.shape), X = x.data;
  const out = new Float64Array(X.length);
  for (let i = 0; i < X.length; i++) {
    const v = checkExact(checkExact(X[i] * W[i], where) + B[i], where);
    out[i] = clamp(shiftRight(checkExact(v * a.mul, where), s), lo, hi);
  }
  return { shape: x.shape, data: out };
}
