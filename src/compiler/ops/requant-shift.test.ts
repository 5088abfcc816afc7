import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

const rq = (div: number, n = 256, signed = 1) => ({ div: A.t([div], []), n_levels_out: A.t([n]), signed: A.t([signed]) });

describe('RequantShift', () => {
  it('rounds half up: (x*mul + add + 2^(s-1)) >> s', () => {
    // x/2 rounded half up: -1.5 -> -1, -1 -> -1, -0.5 -> 0, 0.5 -> 1, 1 -> 1, 1.5 -> 2
    expect(evalData('RequantShift', [inp([8], [-3, -2, -1, 0, 1, 2, 3, 100]), init([], [1]), init([], [0])], rq(2)))
      .toEqual([-1, -1, 0, 0, 1, 1, 2, 50]);
  });
  it('clips to n_levels, signed or unsigned', () => {
    expect(evalData('RequantShift', [inp([3], [-1000, 5, 1000]), init([], [1]), init([], [0])], rq(1))).toEqual([-128, 5, 127]);
    expect(evalData('RequantShift', [inp([3], [-1000, 5, 1000]), init([], [1]), init([], [0])], rq(1, 16, 0))).toEqual([0, 5, 15]);
  });
  it('applies mul/add per channel: [C,1,1] after a 2-D conv (numpy broadcasting)', () => {
    expect(evalData('RequantShift', [inp([1, 2, 1, 2], [1, 2, 3, 4]), init([2, 1, 1], [10, 100]), init([2, 1, 1], [0, 5])], rq(4)))
      .toEqual([3, 5, 76, 101]);
  });
  it('applies [C,1,1] per channel after a 1-D conv too, where numpy would broadcast to a bigger tensor', () => {
    const out = evalOp('RequantShift', [inp([1, 2, 2], [1, 2, 3, 4]), init([2, 1, 1], [10, 100]), init([2, 1, 1], [0, 5])], rq(4))[0];
    expect(out.shape).toEqual([1, 2, 2]);
    expect(Array.from(out.data)).toEqual([3, 5, 76, 101]);
  });
  it('per column [N] and per row [M,1] of a Gemm result', () => {
    expect(evalData('RequantShift', [inp([2, 2], [4, 4, 4, 4]), init([2], [1, 2]), init([], [0])], rq(2))).toEqual([2, 4, 2, 4]);
    expect(evalData('RequantShift', [inp([2, 2], [4, 4, 4, 4]), init([2, 1], [1, 2]), init([], [0])], rq(2))).toEqual([2, 2, 4, 4]);
  });
  it('is exact when x*mul exceeds 2^53 (BigInt path)', () => {
    // (2^31-1)(2^31+1) = 2^62 - 1; with add = -2^52 and s = 53 the exact result is 511.
    // Doubles would round 2^62 - 1 up to 2^62 and give 512.
    expect(evalData('RequantShift', [inp([1], [2147483647]), init([1], [2147483649], 'int64'), init([1], [-(2 ** 52)], 'int64')],
      { div: A.int(2 ** 53), n_levels: A.int(2048), signed: A.int(1) })).toEqual([511]);
  });
  it('accepts plain int attributes and the n_levels alias', () => {
    expect(evalData('RequantShift', [inp([1], [7]), init([], [1]), init([], [0])], { div: A.int(4), n_levels: A.int(256), signed: A.int(1) })).toEqual([2]);
  });
  it('rejects a div that is not a power of two, and parameters that fit nothing', () => {
    expect(errorOf(() => evalOp('RequantShift', [inp([1], [7]), init([], [1]), init([], [0])], rq(3))).code).toBe('bad-graph');
    const e = errorOf(() => evalOp('RequantShift', [inp([1, 2, 2], [1, 2, 3, 4]), init([3], [1, 2, 3]), init([], [0])], rq(2)));
    expect(e.code).toBe('shape-mismatch');
    expect(e.message).toContain('RequantShift');
  });
  it('accepts the custom domains', () => {
    for (const domain of ['PACTOps', 'ai.onnx.contrib'])
      expect(evalData('RequantShift', [inp([1], [7]), init([], [1]), init([], [0])], rq(4), { domain })).toEqual([2]);
  });
});
