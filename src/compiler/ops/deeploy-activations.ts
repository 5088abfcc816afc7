// Deeploy's integer activations: iGELU (I-BERT's second-order polynomial) and iHardswish.
import type { TensorType } from '../ir/graph';
import { checkExact, floorDiv } from './core/exact';
import { numeric } from './core/dtypes';
import type { IntTensor } from './core/tensor';
import { defineOp, DEEPLOY_DOMAINS, reqInt, type AttrValues } from './types';
import { elementwiseRule } from '../tiling/rules';

export const iGeluAttrs = { b: reqInt(), one: reqInt() };
export const iHardswishAttrs = { one_over_six: reqInt(), three: reqInt(), six: reqInt() };

/** L = sign(x)*(-(min(|x|, -b) + b)^2 + one); y = x*floor((one + L)/2). */
export function igelu(x: number, { b, one }: AttrValues<typeof iGeluAttrs>): number {
  const sign = x > 0 ? 1 : x < 0 ? -1 : 0;
  const q = Math.min(Math.abs(x), -b) + b;
  const L = sign * (one - q * q);
  return x * floorDiv(one + L, 2);
}

/** y = x * (clip(x + three, 0, six) * one_over_six). */
export function ihardswish(x: number, { one_over_six, three, six }: AttrValues<typeof iHardswishAttrs>): number {
  const t = x + three;
  return x * ((t < 0 ? 0 : t > six ? six : t) * one_over_six);
}

export function mapExact(x: IntTensor, f: (v: number) => number, where: string): IntTensor {
  const out = new Float64Array(x.data.length);
  for (let i = 0; i < out.length; i++) out[i] = checkExact(f(x.data[i]), where);
  return { shape: x.shape, data: out };
}

const same = ({ inputs, where }: { inputs: (TensorType | undefined)[]; where: string }): TensorType[] =>
  [numeric(inputs[0]!, 'the input', where)];

export const iGELU = defineOp({
  ops: ['iGELU'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'L = sign(x)*(-(min(|x|,-b) + b)^2 + one); y = x*floor((one + L)/2)',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: iGeluAttrs,
  infer: same,
  eval: ({ inputs: [x], attrs, where }) => [mapExact(x!, (v) => igelu(v, attrs), where)],
});

export const iHardswish = defineOp({
  ops: ['iHardswish'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = x * (clip(x + three, 0, six) * one_over_six)',
  inputs: [{ name: 'data_in' }],
  outputs: ['data_out'],
  attrs: iHardswishAttrs,
  infer: same,
  eval: ({ inputs: [x], attrs, where }) => [mapExact(x!, (v) => ihardswish(v, attrs), where)],
});
