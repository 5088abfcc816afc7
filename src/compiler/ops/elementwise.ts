// Add, Sub, Mul, Div: numpy-broadcasting binary arithmetic on exact integers.
// A sum or a single product of exact doubles is either exact or lands at >= 2^53, so these
// ops need no BigInt path: a bound check (or a per-element check when the bound fails) suffices.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { checkExact, fits, truncDiv } from './core/exact';
import { isIntegerDType, numeric, promote } from './core/dtypes';
import { broadcastIndex, broadcastShapes, maxAbs, numel, sameShape, type IntTensor } from './core/tensor';
import { defineOp, ONNX_DOMAINS, type InferArgs } from './types';
import { elementwiseRule } from '../tiling/rules';

function inferBinary({ inputs, where }: InferArgs<unknown>): TensorType[] {
  const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
  return [{ dtype: promote([a.dtype, b.dtype]), shape: broadcastShapes([a.shape, b.shape], where) }];
}

/** Applies f elementwise with broadcasting; `checked` re-checks every result against 2^53. */
function zip(a: IntTensor, b: IntTensor, shape: number[], f: (x: number, y: number) => number,
  checked: boolean, where: string): IntTensor {
  const n = numel(shape);
  const out = new Float64Array(n);
  const A = a.data, B = b.data;
  if (sameShape(a.shape, shape) && sameShape(b.shape, shape)) {
    for (let i = 0; i < n; i++) out[i] = f(A[i], B[i]);
  } else if (sameShape(a.shape, shape) && B.length === 1) {
    const y = B[0];
    for (let i = 0; i < n; i++) out[i] = f(A[i], y);
  } else if (sameShape(b.shape, shape) && A.length === 1) {
    const x = A[0];
    for (let i = 0; i < n; i++) out[i] = f(x, B[i]);
  } else {
    const ia = broadcastIndex(a.shape, shape), ib = broadcastIndex(b.shape, shape);
    for (let i = 0; i < n; i++) out[i] = f(A[ia[i]], B[ib[i]]);
  }
  if (checked) for (let i = 0; i < n; i++) checkExact(out[i], where);
  return { shape, data: out };
}

const binaryInputs = [{ name: 'A' }, { name: 'B' }] as const;

export const Add = defineOp({
  ops: ['Add'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'A + B with numpy broadcasting (int32 accumulation in Deeploy, never saturating)',
  inputs: binaryInputs,
  outputs: ['C'],
  attrs: {},
  infer: inferBinary,
  eval: ({ inputs: [a, b], outputs, where }) =>
    [zip(a!, b!, outputs[0].shape, (x, y) => x + y, !fits(maxAbs(a!) + maxAbs(b!)), where)],
});

export const Sub = defineOp({
  ops: ['Sub'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'A - B with numpy broadcasting',
  inputs: binaryInputs,
  outputs: ['C'],
  attrs: {},
  infer: inferBinary,
  eval: ({ inputs: [a, b], outputs, where }) =>
    [zip(a!, b!, outputs[0].shape, (x, y) => x - y, !fits(maxAbs(a!) + maxAbs(b!)), where)],
});

export const Mul = defineOp({
  ops: ['Mul'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'A * B with numpy broadcasting',
  inputs: binaryInputs,
  outputs: ['C'],
  attrs: {},
  infer: inferBinary,
  eval: ({ inputs: [a, b], outputs, where }) =>
    [zip(a!, b!, outputs[0].shape, (x, y) => x * y, !fits(maxAbs(a!) * maxAbs(b!)), where)],
});

export const Div = defineOp({
  ops: ['Div'],
  tiling: elementwiseRule,
  domains: ONNX_DOMAINS,
  summary: 'A / B: truncating integer division for integer dtypes; for float dtypes the quotient must be an integer',
  inputs: binaryInputs,
  outputs: ['C'],
  attrs: {},
  infer: inferBinary,
  eval: ({ inputs: [a, b], outputs, where }) => {
    const integer = isIntegerDType(outputs[0].dtype);
    return [zip(a!, b!, outputs[0].shape, (x, y) => {
      if (y === 0) fail('bad-inputs', `division by zero (${x} / 0)`, where);
      if (integer) return truncDiv(x, y);
      const q = x / y;
      if (!Number.isInteger(q) || x % y !== 0)
        fail('not-implemented', `${x} / ${y} is not an integer; the reference interpreter runs integer networks only`, where,
          'declare the tensors with an integer dtype to get truncating integer division');
      return q;
    }, false, where)];
  },
});
