// MatMul (numpy semantics: batched, broadcast, 1-D operands) and Gemm.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { checkExact, fits, toExact } from './core/exact';
import { numeric, promote } from './core/dtypes';
import { accumulationFits, matmulInto, view } from './core/linear';
import { broadcastIndex, broadcastShapes, broadcastTo, maxAbs, numel, shapeStr, type IntTensor } from './core/tensor';
import { defineOp, float, int, ONNX_DOMAINS } from './types';
import { gemmRule } from '../tiling/rules';

interface MatmulPlan {
  M: number;
  K: number;
  N: number;
  aBatch: number[];
  bBatch: number[];
  batch: number[];
  /** Output shape with numpy's 1-D promotions undone. */
  shape: number[];
}

/**
 * numpy matmul shapes; transA/transB swap the last two axes first (Gemm-style flags, used by
 * RequantizedGemm). A 1-D A is [1, K], a 1-D B is [K, 1], and those axes are dropped again.
 */
export function matmulPlan(a: number[], b: number[], transA: boolean, transB: boolean, where: string): MatmulPlan {
  if (a.length === 0 || b.length === 0) fail('shape-mismatch', 'MatMul operands must have rank >= 1', where);
  const a2 = a.length === 1 ? [1, a[0]] : a, b2 = b.length === 1 ? [b[0], 1] : b;
  const [am, ak] = transA ? [a2.at(-1)!, a2.at(-2)!] : [a2.at(-2)!, a2.at(-1)!];
  const [bk, bn] = transB ? [b2.at(-1)!, b2.at(-2)!] : [b2.at(-2)!, b2.at(-1)!];
  if (ak !== bk) fail('shape-mismatch', `cannot multiply ${shapeStr(a)} by ${shapeStr(b)}: inner dimensions ${ak} and ${bk} differ`, where);
  const aBatch = a2.slice(0, -2), bBatch = b2.slice(0, -2);
  const batch = broadcastShapes([aBatch, bBatch], where);
  const shape = [...batch, ...(a.length === 1 ? [] : [am]), ...(b.length === 1 ? [] : [bn])];
  return { M: am, K: ak, N: bn, aBatch, bBatch, batch, shape };
}

/** The exact product for a plan (BigInt accumulation when the bound does not prove exactness). */
export function batchedMatmul(a: IntTensor, b: IntTensor, transA: boolean, transB: boolean, where: string): IntTensor {
  const p = matmulPlan(a.shape, b.shape, transA, transB, where);
  const { M, K, N } = p;
  const nb = numel(p.batch);
  const out = new Float64Array(nb * M * N);
  const ia = broadcastIndex(p.aBatch, p.batch), ib = broadcastIndex(p.bBatch, p.batch);
  const exact = accumulationFits(K, maxAbs(a), maxAbs(b));
  for (let t = 0; t < nb; t++) {
    const A = transA ? view(a.data, ia[t] * M * K, 1, M) : view(a.data, ia[t] * M * K, K, 1);
    const B = transB ? view(b.data, ib[t] * K * N, 1, K) : view(b.data, ib[t] * K * N, N, 1);
    matmulInto(view(out, t * M * N, N, 1), A, B, M, K, N, exact, where);
  }
  return { shape: p.shape, data: out };
}

export const MatMul = defineOp({
  ops: ['MatMul'],
  tiling: gemmRule,
  domains: ONNX_DOMAINS,
  summary: 'numpy matmul: batched and broadcast; exact accumulation (int32 in Deeploy kernels)',
  inputs: [{ name: 'A' }, { name: 'B' }],
  outputs: ['Y'],
  attrs: {},
  infer: ({ inputs, where }) => {
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    return [{ dtype: promote([a.dtype, b.dtype]), shape: matmulPlan(a.shape, b.shape, false, false, where).shape }];
  },
  eval: ({ inputs: [a, b], where }) => [batchedMatmul(a!, b!, false, false, where)],
  work: matmulWork,
});

/** Every output element takes K MACs, K being A's reduction dimension. */
export function matmulWork({ inputs, outputs, attrs }: { inputs: (TensorType | undefined)[]; outputs: TensorType[]; attrs: { transA?: number } }): number {
  const a = inputs[0]!.shape;
  const k = a.length === 1 ? a[0] : attrs.transA ? a[a.length - 2] : a[a.length - 1];
  return numel(outputs[0].shape) * k;
}

// ---------------------------------------------------------------------------------------------

function integerCoeff(v: number, what: string, where: string): number {
  if (!Number.isInteger(v))
    fail('not-implemented', `Gemm ${what} = ${v} is not an integer; the reference interpreter runs integer networks only`, where);
  return v;
}

export const Gemm = defineOp({
  ops: ['Gemm'],
  tiling: gemmRule,
  domains: ONNX_DOMAINS,
  summary: "Y = alpha * A' B' + beta * C (A' = A^T if transA, B' = B^T if transB); alpha and beta must be integers",
  inputs: [{ name: 'A' }, { name: 'B' }, { name: 'C', optional: true }],
  outputs: ['Y'],
  attrs: { alpha: float(1), beta: float(1), transA: int(0), transB: int(0) },
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const a = numeric(inputs[0]!, 'input A', where), b = numeric(inputs[1]!, 'input B', where);
    if (a.shape.length !== 2 || b.shape.length !== 2)
      fail('shape-mismatch', `Gemm needs 2-D A and B, got ${shapeStr(a.shape)} and ${shapeStr(b.shape)}`, where);
    const { shape } = matmulPlan(a.shape, b.shape, !!attrs.transA, !!attrs.transB, where);
    const c = inputs[2];
    if (c && shapeStr(broadcastShapes([c.shape, shape], where)) !== shapeStr(shape))
      fail('shape-mismatch', `C ${shapeStr(c.shape)} does not broadcast to the output ${shapeStr(shape)}`, where);
    return [{ dtype: promote([a.dtype, b.dtype, ...(c ? [numeric(c, 'input C', where).dtype] : [])]), shape }];
  },
  eval: ({ inputs: [a, b, c], attrs, where }) => {
    const alpha = integerCoeff(attrs.alpha, 'alpha', where), beta = integerCoeff(attrs.beta, 'beta', where);
    const ab = batchedMatmul(a!, b!, !!attrs.transA, !!attrs.transB, where);
    if (alpha === 1 && (!c || beta === 0)) return [ab];
    const n = ab.data.length;
    const out = new Float64Array(n);
    const cs = c ? broadcastTo(c, ab.shape) : new Float64Array(n);
    if (fits(Math.abs(alpha) * maxAbs(ab) + Math.abs(beta) * (c ? maxAbs(c) : 0))) {
      for (let i = 0; i < n; i++) out[i] = alpha * ab.data[i] + beta * cs[i];
    } else {
      for (let i = 0; i < n; i++)
        out[i] = toExact(BigInt(alpha) * BigInt(ab.data[i]) + BigInt(beta) * BigInt(cs[i]), where);
    }
    for (let i = 0; i < n; i++) checkExact(out[i], where);
    return [{ shape: ab.shape, data: out }];
  },
  work: matmulWork,
});
