import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

describe('MatMul', () => {
  it('2-D', () => {
    expect(evalData('MatMul', [inp([2, 2], [1, 2, 3, 4]), init([2, 2], [5, 6, 7, 8])])).toEqual([19, 22, 43, 50]);
  });
  it('batched with broadcasting of the batch dims', () => {
    const out = evalOp('MatMul', [inp([2, 1, 2], [1, 0, 0, 1]), init([2, 2], [5, 6, 7, 8])])[0];
    expect(out.shape).toEqual([2, 1, 2]);
    expect(Array.from(out.data)).toEqual([5, 6, 7, 8]);
    const out2 = evalOp('MatMul', [inp([1, 2], [1, 1]), inp([3, 2, 1], [1, 2, 3, 4, 5, 6])])[0];
    expect(out2.shape).toEqual([3, 1, 1]);
    expect(Array.from(out2.data)).toEqual([3, 7, 11]);
  });
  it('1-D operands are promoted and dropped', () => {
    const out = evalOp('MatMul', [inp([2], [1, 2]), init([2, 3], [1, 2, 3, 4, 5, 6])])[0];
    expect(out.shape).toEqual([3]);
    expect(Array.from(out.data)).toEqual([9, 12, 15]);
  });
  it('exact beyond 2^53 partial sums (BigInt path)', () => {
    expect(evalData('MatMul', [inp([1, 3], [2 ** 30, 2 ** 30, 1]), init([3, 1], [2 ** 30, -(2 ** 30), 5])])).toEqual([5]);
  });
  it('a result beyond 2^53 is a limit error, never rounded', () => {
    expect(errorOf(() => evalOp('MatMul', [inp([1, 2], [2 ** 30, 2 ** 30]), init([2, 1], [2 ** 30, 2 ** 30])])).code).toBe('limit');
  });
  it('rejects mismatched inner dimensions', () => {
    expect(errorOf(() => evalOp('MatMul', [inp([2, 3], [1, 2, 3, 4, 5, 6]), init([2, 2], [1, 2, 3, 4])])).code).toBe('shape-mismatch');
  });
});

describe('Gemm', () => {
  const a = inp([2, 2], [1, 2, 3, 4]);
  it('transB with a row bias', () => {
    // B = [[1,1],[0,1]], B^T = [[1,0],[1,1]] -> A B^T = [[3,2],[7,4]]; + C [10, 20]
    expect(evalData('Gemm', [a, init([2, 2], [1, 1, 0, 1]), init([2], [10, 20])], { transB: A.int(1) })).toEqual([13, 22, 17, 24]);
  });
  it('transA, alpha and beta (integers)', () => {
    // A^T = [[1,3],[2,4]], B = I -> A^T; 2*A^T + 3*1
    expect(evalData('Gemm', [a, init([2, 2], [1, 0, 0, 1]), init([], [1])], { transA: A.int(1), alpha: A.float(2), beta: A.float(3) }))
      .toEqual([5, 9, 7, 11]);
  });
  it('rejects non-integer alpha and non-2-D operands', () => {
    expect(errorOf(() => evalOp('Gemm', [a, init([2, 2], [1, 0, 0, 1])], { alpha: A.float(0.5) })).code).toBe('not-implemented');
    expect(errorOf(() => evalOp('Gemm', [inp([2], [1, 2]), init([2, 2], [1, 0, 0, 1])])).code).toBe('shape-mismatch');
  });
});
