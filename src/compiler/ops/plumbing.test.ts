import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, inp } from './testing';

describe('Identity / Constant / Shape', () => {
  it('identity', () => {
    expect(evalData('Identity', [inp([2], [4, -4])])).toEqual([4, -4]);
  });
  it('constant from a tensor and from value_ints', () => {
    const out = evalOp('Constant', [], { value: A.t([1, 2, 3, 4], [2, 2]) });
    expect(out[0].shape).toEqual([2, 2]);
    expect(Array.from(out[0].data)).toEqual([1, 2, 3, 4]);
    expect(evalData('Constant', [], { value_ints: A.ints([5, 6]) })).toEqual([5, 6]);
  });
  it('rejects a non-integer constant and a constant without value', () => {
    expect(errorOf(() => evalOp('Constant', [], { value: A.t([0.5]) })).code).toBe('dtype-mismatch');
    expect(errorOf(() => evalOp('Constant', [])).code).toBe('bad-graph');
  });
  it('shape, with start/end', () => {
    expect(evalData('Shape', [inp([2, 3, 4], new Array(24).fill(0))])).toEqual([2, 3, 4]);
    expect(evalData('Shape', [inp([2, 3, 4], new Array(24).fill(0))], { start: A.int(-2) })).toEqual([3, 4]);
  });
});
