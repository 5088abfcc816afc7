// Relu and Clip on integers.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { numeric } from './core/dtypes';
import type { IntTensor } from './core/tensor';
import { defineOp, float, ONNX_DOMAINS } from './types';
import { elementwiseRule } from '../tiling/rules';

function map(x: IntTensor, f: (v: number) => number): IntTensor {
  const out = new Float64Array(x.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(x.data[i]);
  return { shape: x.shape, data: out };
}

export const Relu = defineOp({
  ops: ['Relu'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'max(x, 0)',
  inputs: [{ name: 'X' }],
  outputs: ['Y'],
  attrs: {},
  infer: ({ inputs, where }): TensorType[] => [numeric(inputs[0]!, 'input', where)],
  eval: ({ inputs: [x] }) => [map(x!, (v) => (v > 0 ? v : 0))],
});

/** Clip bounds: integers, or infinite / beyond any int (FLT_MAX defaults). */
function bound(v: number | undefined, dflt: number, what: string, where: string): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) && Number.isFinite(v))
    fail('not-implemented', `Clip ${what} = ${v} is not an integer; the reference interpreter runs integer networks only`, where);
  return v;
}

export const Clip = defineOp({
  ops: ['Clip'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'clamp(x, min, max); bounds are attributes before opset 11 and optional inputs after',
  inputs: [{ name: 'input' }, { name: 'min', optional: true }, { name: 'max', optional: true }],
  outputs: ['output'],
  attrs: { min: float(), max: float() },
  infer: ({ inputs, where }): TensorType[] => {
    for (const i of [1, 2]) {
      const t = inputs[i];
      if (t && t.shape.reduce((a, b) => a * b, 1) !== 1)
        fail('shape-mismatch', `Clip ${i === 1 ? 'min' : 'max'} must be a scalar, got shape [${t.shape.join(', ')}]`, where);
    }
    return [numeric(inputs[0]!, 'input', where)];
  },
  eval: ({ inputs: [x, lo, hi], attrs, where }) => {
    const min = bound(lo ? lo.data[0] : attrs.min, -Infinity, 'min', where);
    const max = bound(hi ? hi.data[0] : attrs.max, Infinity, 'max', where);
    // ONNX: min(max(x, min), max), so max wins when min > max.
    return [map(x!, (v) => Math.min(Math.max(v, min), max))];
  },
});
