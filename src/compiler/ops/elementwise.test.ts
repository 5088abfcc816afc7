import { describe, expect, it } from 'vitest';
import { errorOf, evalData, evalOp, init, inp } from './testing';

describe('Add / Sub / Mul / Div', () => {
  it('adds with numpy broadcasting', () => {
    expect(evalData('Add', [inp([2, 3], [1, 2, 3, 4, 5, 6]), init([3], [10, 20, 30])])).toEqual([11, 22, 33, 14, 25, 36]);
    expect(evalData('Add', [inp([2, 1], [1, 2]), inp([1, 3], [10, 20, 30])])).toEqual([11, 21, 31, 12, 22, 32]);
  });
  it('does not saturate int8 sums (int32 accumulation)', () => {
    expect(evalData('Add', [inp([2], [127, -128]), inp([2], [127, -128])])).toEqual([254, -256]);
  });
  it('subtracts and multiplies', () => {
    expect(evalData('Sub', [inp([3], [5, 0, -5]), init([], [2])])).toEqual([3, -2, -7]);
    expect(evalData('Mul', [inp([3], [5, 0, -5]), inp([3], [-3, 7, -2])])).toEqual([-15, 0, 10]);
  });
  it('keeps products exact up to 2^53 and refuses to round beyond', () => {
    const big = 2 ** 26 + 1;
    expect(evalData('Mul', [inp([1], [big]), inp([1], [big])])).toEqual([4503599761588225]); // 2^52 + 2^27 + 1
    expect(errorOf(() => evalOp('Mul', [inp([1], [2 ** 30]), inp([1], [2 ** 30])])).code).toBe('limit');
  });
  it('divides integer tensors truncating toward zero', () => {
    expect(evalData('Div', [inp([4], [7, -7, 7, -7], 'int32'), inp([4], [2, 2, -2, -2], 'int32')])).toEqual([3, -3, -3, 3]);
  });
  it('divides float-declared integers only when exact', () => {
    expect(evalData('Div', [inp([2], [9, -9]), init([], [3])])).toEqual([3, -3]);
    expect(errorOf(() => evalOp('Div', [inp([1], [7]), init([], [2])])).code).toBe('not-implemented');
    expect(errorOf(() => evalOp('Div', [inp([1], [7], 'int32'), inp([1], [0], 'int32')])).code).toBe('bad-inputs');
  });
  it('rejects shapes that do not broadcast', () => {
    const e = errorOf(() => evalOp('Add', [inp([2, 3], [1, 2, 3, 4, 5, 6]), inp([2], [1, 2])]));
    expect(e.code).toBe('shape-mismatch');
    expect(e.message).toContain('node "Add_0" (Add)');
  });
});
