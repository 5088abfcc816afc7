import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

describe('ReduceSum / ReduceMean / IntegerMean', () => {
  const x = inp([2, 3], [1, 2, 4, -1, -2, -4]);
  it('sums over an attribute axis, keepdims', () => {
    const out = evalOp('ReduceSum', [x], { axes: A.ints([1]) }, { opset: 11 })[0];
    expect(out.shape).toEqual([2, 1]);
    expect(Array.from(out.data)).toEqual([7, -7]);
  });
  it('sums over an axes input (opset 13) and over everything', () => {
    expect(evalData('ReduceSum', [x, init([1], [0], 'int64')], { keepdims: A.int(0) })).toEqual([0, 0, 0]);
    expect(evalData('ReduceSum', [x], { keepdims: A.int(0) })).toEqual([0]);
  });
  it('noop_with_empty_axes returns the input', () => {
    expect(evalData('ReduceSum', [x], { noop_with_empty_axes: A.int(1) })).toEqual([1, 2, 4, -1, -2, -4]);
  });
  it('ReduceMean rounds half up: 7/3 -> 2, -7/3 -> -2, 3/2 -> 2, -3/2 -> -1', () => {
    expect(evalData('ReduceMean', [x], { axes: A.ints([1]), keepdims: A.int(0) })).toEqual([2, -2]);
    expect(evalData('ReduceMean', [inp([2, 2], [1, 2, -1, -2])], { axes: A.ints([1]), keepdims: A.int(0) })).toEqual([2, -1]);
  });
  it('IntegerMean: floor(mean + 0.5)', () => {
    expect(evalData('IntegerMean', [inp([1, 4], [1, 2, 2, 2])], { axes: A.ints([1]), keepdims: A.int(0) })).toEqual([2]);
    expect(evalData('IntegerMean', [inp([1, 4], [-1, -2, -2, -2])], { axes: A.ints([1]), keepdims: A.int(0) })).toEqual([-2]);
  });
  it('rejects an out-of-range axis', () => {
    expect(errorOf(() => evalOp('ReduceSum', [x], { axes: A.ints([2]) })).code).toBe('bad-graph');
  });
});
