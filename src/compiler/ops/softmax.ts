// Deeploy's integer softmaxes, row by row over the last axis: iSoftmax (I-BERT style
// polynomial exp) and ITAMax (the ITA accelerator's shift-based exp). Both output UNSIGNED
// levels 0..n_levels-1.
import type { TensorType } from '../ir/graph';
import { fail } from '../../common/errors';
import { checkExact, floorDiv, shiftRight } from './core/exact';
import { numeric } from './core/dtypes';
import { rowLength } from './core/rows';
import { defineOp, DEEPLOY_DOMAINS, int, reqInt, type InferArgs } from './types';
import { lastAxisRule, wholeRule } from '../tiling/rules';

function inferRowwise({ inputs, where }: InferArgs<unknown>): TensorType[] {
  const x = numeric(inputs[0]!, 'the input', where);
  rowLength(x.shape, where);
  return [{ dtype: x.dtype, shape: x.shape }];
}

function rowMax(X: Float64Array, r: number, L: number): number {
  let m = -Infinity;
  for (let j = 0; j < L; j++) if (X[r + j] > m) m = X[r + j];
  return m;
}

export const iSoftmax = defineOp({
  ops: ['iSoftmax'],
  tiling: lastAxisRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'xt = x - max; z = floor(-xt/log2); p = xt + z*log2; e = (A*(p+B)^2 + C) >> z; y = clip(floor(e*(n-1)/sum(e)), 0, n-1)',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: { coeffA: reqInt(), coeffB: reqInt(), coeffC: reqInt(), log2: reqInt(), n_levels: int(256) },
  infer: (a) => {
    if (a.attrs.log2 < 1) fail('bad-graph', `log2 = ${a.attrs.log2} must be positive`, a.where);
    return inferRowwise(a);
  },
  eval: ({ inputs: [x], attrs, where }) => {
    const { coeffA: A, coeffB: B, coeffC: C, log2, n_levels: n } = attrs;
    const L = rowLength(x!.shape, where), X = x!.data;
    const out = new Float64Array(X.length), e = new Float64Array(L);
    for (let r = 0; r < X.length; r += L) {
      const max = rowMax(X, r, L);
      let sum = 0;
      for (let j = 0; j < L; j++) {
        const xt = X[r + j] - max;
        const z = floorDiv(-xt, log2);
        const p = xt + z * log2;
        e[j] = shiftRight(checkExact(A * (p + B) * (p + B) + C, where), z);
        sum += e[j];
      }
      checkExact(sum, where);
      if (sum <= 0) fail('bad-graph', 'the exponentials of a row sum to zero; check coeffA/B/C', where);
      for (let j = 0; j < L; j++) {
        const y = floorDiv(checkExact(e[j] * (n - 1), where), sum);
        out[r + j] = y < 0 ? 0 : y > n - 1 ? n - 1 : y;
      }
    }
    return [{ shape: x!.shape, data: out }];
  },
});

/** The ITA exponential works on B = 8 fractional bits: exp(-d) ~ 2^B >> round(d / 32). */
const ITA_ONE = 256;

export const ITAMax = defineOp({
  ops: ['ITAMax'],
  tiling: lastAxisRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'shift_j = floor((max - x_j)/32 + 1/2); S = sum(256 >> shift_j); y_j = floor(n*(n-1)/S) >> shift_j (n = 256)',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: { n_levels: int(256) },
  infer: inferRowwise,
  eval: ({ inputs: [x], attrs, where }) => {
    const n = attrs.n_levels;
    const L = rowLength(x!.shape, where), X = x!.data;
    const out = new Float64Array(X.length), shift = new Float64Array(L);
    for (let r = 0; r < X.length; r += L) {
      const max = rowMax(X, r, L);
      let S = 0;
      for (let j = 0; j < L; j++) {
        shift[j] = floorDiv(max - X[r + j] + 16, 32);
        S += shiftRight(ITA_ONE, shift[j]);
      }
      const inv = floorDiv((n - 1) * ITA_ONE, S);
      for (let j = 0; j < L; j++) out[r + j] = shiftRight(inv, shift[j]);
    }
    return [{ shape: x!.shape, data: out }];
  },
});

export const ITAPartialMax = defineOp({
  ops: ['ITAPartialMax'],
  tiling: wholeRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'ITAMax over groups of group_width columns, shifting the running sum right when the maximum grows; output 0..n/2-1',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: { group_width: reqInt(), n_levels: int(256) },
  infer: (a) => {
    const [t] = inferRowwise(a);
    const L = t.shape.at(-1)!;
    if (a.attrs.group_width < 1 || L % a.attrs.group_width !== 0)
      fail('shape-mismatch', `group_width = ${a.attrs.group_width} does not divide the row length ${L}`, a.where);
    return [t];
  },
  eval: ({ inputs: [x], attrs, where }) => {
    const n = attrs.n_levels, G = attrs.group_width;
    const L = rowLength(x!.shape, where), X = x!.data;
    const out = new Float64Array(X.length);
    // Scaled to n/2 - 1 (127): ITA's sum-dot units take signed operands only (matches the golden outputs).
    const scale = Math.floor(n / 2) - 1;
    for (let r = 0; r < X.length; r += L) {
      let max = -Infinity, S = 0;
      for (let g = 0; g < L; g += G) {
        let gmax = -Infinity;
        for (let j = g; j < g + G; j++) if (X[r + j] > gmax) gmax = X[r + j];
        if (gmax > max) {
          if (max !== -Infinity) S = shiftRight(S, floorDiv(gmax - max + 16, 32));
          max = gmax;
        }
        for (let j = g; j < g + G; j++) S += shiftRight(ITA_ONE, floorDiv(max - X[r + j] + 16, 32));
      }
      const inv = floorDiv(scale * ITA_ONE, S);
      for (let j = 0; j < L; j++) out[r + j] = shiftRight(inv, floorDiv(max - X[r + j] + 16, 32));
    }
    return [{ shape: x!.shape, data: out }];
  },
});
