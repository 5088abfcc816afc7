import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

describe('Relu / Clip', () => {
  it('relu', () => {
    expect(evalData('Relu', [inp([4], [-3, 0, 2, -1])])).toEqual([0, 0, 2, 0]);
  });
  it('clips with attributes (opset < 11)', () => {
    expect(evalData('Clip', [inp([4], [-9, -1, 3, 9])], { min: A.float(-2), max: A.float(4) }, { opset: 6 })).toEqual([-2, -1, 3, 4]);
  });
  it('clips with inputs (opset >= 11), either bound optional', () => {
    expect(evalData('Clip', [inp([4], [-9, -1, 3, 9]), init([], [0]), null])).toEqual([0, 0, 3, 9]);
    expect(evalData('Clip', [inp([4], [-9, -1, 3, 9]), null, init([], [1])])).toEqual([-9, -1, 1, 1]);
  });
  it('lets max win when min > max, as ONNX does', () => {
    expect(evalData('Clip', [inp([2], [-5, 5]), init([], [3]), init([], [1])])).toEqual([1, 1]);
  });
  it('rejects non-integer bounds and non-scalar bound inputs', () => {
    expect(errorOf(() => evalOp('Clip', [inp([1], [1])], { min: A.float(0.5) })).code).toBe('not-implemented');
    expect(errorOf(() => evalOp('Clip', [inp([1], [1]), init([2], [0, 1])])).code).toBe('shape-mismatch');
  });
});
