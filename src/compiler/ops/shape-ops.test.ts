import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

const iota = (n: number) => Array.from({ length: n }, (_, i) => i);
const shapeOf = (...a: Parameters<typeof evalOp>) => evalOp(...a)[0].shape;

describe('Reshape / Flatten / Squeeze / Unsqueeze', () => {
  it('reshape copies 0 dims and infers -1', () => {
    expect(shapeOf('Reshape', [inp([2, 3, 4], iota(24)), init([3], [0, -1, 2], 'int64')])).toEqual([2, 6, 2]);
    expect(evalData('Reshape', [inp([2, 3], iota(6)), init([2], [3, 2], 'int64')])).toEqual(iota(6));
  });
  it('reshape with allowzero keeps a literal 0', () => {
    expect(shapeOf('Reshape', [inp([0, 3], []), init([2], [3, 0], 'int64')], { allowzero: A.int(1) })).toEqual([3, 0]);
  });
  it('reshape errors: wrong element count, float shape, non-constant shape', () => {
    expect(errorOf(() => evalOp('Reshape', [inp([2, 3], iota(6)), init([1], [4], 'int64')])).code).toBe('shape-mismatch');
    expect(errorOf(() => evalOp('Reshape', [inp([2, 3], iota(6)), init([1], [6])])).code).toBe('dtype-mismatch');
    const e = errorOf(() => evalOp('Reshape', [inp([2, 3], iota(6)), inp([1], [6], 'int64')]));
    expect(e.code).toBe('bad-graph');
    expect(e.message).toContain('must be a constant');
  });
  it('flatten', () => {
    expect(shapeOf('Flatten', [inp([2, 3, 4], iota(24))], { axis: A.int(2) })).toEqual([6, 4]);
    expect(shapeOf('Flatten', [inp([2, 3, 4], iota(24))], { axis: A.int(0) })).toEqual([1, 24]);
    expect(shapeOf('Flatten', [inp([2, 3, 4], iota(24))], { axis: A.int(-1) })).toEqual([6, 4]);
  });
  it('squeeze by attribute, by input, and all ones', () => {
    expect(shapeOf('Squeeze', [inp([1, 3, 1], iota(3))], { axes: A.ints([0]) }, { opset: 11 })).toEqual([3, 1]);
    expect(shapeOf('Squeeze', [inp([1, 3, 1], iota(3)), init([1], [-1], 'int64')])).toEqual([1, 3]);
    expect(shapeOf('Squeeze', [inp([1, 3, 1], iota(3))])).toEqual([3]);
    expect(errorOf(() => evalOp('Squeeze', [inp([1, 3], iota(3))], { axes: A.ints([1]) })).code).toBe('shape-mismatch');
  });
  it('unsqueeze by attribute and by input', () => {
    expect(shapeOf('Unsqueeze', [inp([3], iota(3))], { axes: A.ints([0, 2]) }, { opset: 11 })).toEqual([1, 3, 1]);
    expect(shapeOf('Unsqueeze', [inp([3], iota(3)), init([1], [-1], 'int64')])).toEqual([3, 1]);
  });
});

describe('Transpose', () => {
  it('permutes axes', () => {
    // [[0,1,2],[3,4,5]]^T
    expect(evalData('Transpose', [inp([2, 3], iota(6))])).toEqual([0, 3, 1, 4, 2, 5]);
    const t = evalOp('Transpose', [inp([2, 3, 4], iota(24))], { perm: A.ints([1, 2, 0]) })[0];
    expect(t.shape).toEqual([3, 4, 2]);
    expect(t.data[1]).toBe(12); // out[0][0][1] = in[1][0][0]
    expect(t.data[2 * 4 * 2 + 3 * 2 + 1]).toBe(23); // out[2][3][1] = in[1][2][3]
  });
  it('rejects a non-permutation', () => {
    expect(errorOf(() => evalOp('Transpose', [inp([2, 3], iota(6))], { perm: A.ints([0, 0]) })).code).toBe('bad-graph');
  });
});

describe('Concat', () => {
  it('joins along a negative axis', () => {
    expect(evalData('Concat', [inp([2, 1], [1, 2]), inp([2, 2], [3, 4, 5, 6])], { axis: A.int(-1) })).toEqual([1, 3, 4, 2, 5, 6]);
  });
  it('skips an empty (prefill KV-cache) input', () => {
    const out = evalOp('Concat', [inp([1, 2, 0, 2], []), inp([1, 2, 1, 2], [1, 2, 3, 4])], { axis: A.int(-2) })[0];
    expect(out.shape).toEqual([1, 2, 1, 2]);
    expect(Array.from(out.data)).toEqual([1, 2, 3, 4]);
  });
  it('rejects mismatched shapes and a missing axis', () => {
    expect(errorOf(() => evalOp('Concat', [inp([2, 1], [1, 2]), inp([3, 1], [3, 4, 5])], { axis: A.int(1) })).code).toBe('shape-mismatch');
    expect(errorOf(() => evalOp('Concat', [inp([2, 1], [1, 2])])).message).toContain("required attribute 'axis'");
  });
});

describe('Slice', () => {
  const x = inp([3, 4], iota(12));
  it('slices with inputs (opset >= 10): axes, steps, clamping, negatives', () => {
    expect(evalData('Slice', [x, init([1], [1], 'int64'), init([1], [1000], 'int64'), init([1], [1], 'int64')])).toEqual([1, 2, 3, 5, 6, 7, 9, 10, 11]);
    expect(evalData('Slice', [x, init([2], [0, -1], 'int64'), init([2], [3, -1000], 'int64'), init([2], [0, 1], 'int64'), init([2], [2, -2], 'int64')]))
      .toEqual([3, 1, 11, 9]);
  });
  it('slices with attributes (opset < 10)', () => {
    expect(evalData('Slice', [x], { starts: A.ints([1]), ends: A.ints([2]), axes: A.ints([0]) }, { opset: 9 })).toEqual([4, 5, 6, 7]);
  });
  it('gives an empty result for an empty range and rejects step 0', () => {
    expect(shapeOf('Slice', [x, init([1], [3], 'int64'), init([1], [1], 'int64'), init([1], [1], 'int64')])).toEqual([3, 0]);
    expect(errorOf(() => evalOp('Slice', [x, init([1], [0], 'int64'), init([1], [1], 'int64'), init([1], [0], 'int64'), init([1], [0], 'int64')])).code).toBe('bad-graph');
  });
});

describe('Pad', () => {
  it('pads with the attribute form (opset < 11) and a value', () => {
    expect(evalData('Pad', [inp([1, 2], [1, 2])], { pads: A.ints([0, 1, 0, 2]), value: A.float(-1) }, { opset: 2 })).toEqual([-1, 1, 2, -1, -1]);
  });
  it('pads with the input form (opset >= 11) and crops with negative pads', () => {
    expect(evalData('Pad', [inp([2, 2], [1, 2, 3, 4]), init([4], [1, 0, 0, 0], 'int64')])).toEqual([0, 0, 1, 2, 3, 4]);
    expect(evalData('Pad', [inp([2, 2], [1, 2, 3, 4]), init([4], [0, -1, 0, 0], 'int64'), init([], [7])])).toEqual([2, 4]);
  });
  it('reads NCHW-ordered pads on channels-last data (channels_first = 0, as Deeploy lowers Pad)', () => {
    // data [N=1, W=2, C=1], pads in [N, C, W] order: one column before W
    expect(evalOp('Pad', [inp([1, 2, 1], [5, 6])], { pads: A.ints([0, 0, 1, 0, 0, 0]), channels_first: A.int(0) }, { opset: 2 })[0].shape)
      .toEqual([1, 3, 1]);
  });
  it('rejects other modes and wrong pad counts', () => {
    expect(errorOf(() => evalOp('Pad', [inp([2], [1, 2]), init([2], [1, 1], 'int64')], { mode: A.str('reflect') })).code).toBe('not-implemented');
    expect(errorOf(() => evalOp('Pad', [inp([2], [1, 2]), init([1], [1], 'int64')])).code).toBe('bad-graph');
  });
});

describe('Gather', () => {
  it('takes slices at (negative) indices', () => {
    expect(evalData('Gather', [inp([3, 2], iota(6)), init([2], [2, -3], 'int64')])).toEqual([4, 5, 0, 1]);
    const g = evalOp('Gather', [inp([2, 3], iota(6)), init([], [1], 'int64')], { axis: A.int(1) })[0];
    expect(g.shape).toEqual([2]);
    expect(Array.from(g.data)).toEqual([1, 4]);
  });
  it('rejects out-of-range indices', () => {
    expect(errorOf(() => evalOp('Gather', [inp([3], [1, 2, 3]), init([1], [3], 'int64')])).code).toBe('bad-graph');
  });
});
