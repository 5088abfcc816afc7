import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

const iota = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from);

describe('Conv', () => {
  it('1-D with padding, stride and bias', () => {
    // x = [1 2 3 4], w = [1 0 -1], pads 1/1, stride 2: windows [0 1 2] [2 3 4] -> -2, -2; + bias 10
    expect(evalData('Conv', [inp([1, 1, 4], [1, 2, 3, 4]), init([1, 1, 3], [1, 0, -1]), init([1], [10])],
      { pads: A.ints([1, 1]), strides: A.ints([2]) })).toEqual([8, 8]);
  });
  it('2-D dense, two output channels', () => {
    // x 3x3 = 1..9, w0 = ones(2x2), w1 = [[1,0],[0,-1]]
    const out = evalOp('Conv', [inp([1, 1, 3, 3], iota(9, 1)), init([2, 1, 2, 2], [1, 1, 1, 1, 1, 0, 0, -1])])[0];
    expect(out.shape).toEqual([1, 2, 2, 2]);
    expect(Array.from(out.data)).toEqual([12, 16, 24, 28, -4, -4, -4, -4]);
  });
  it('depthwise (group = channels) with dilation', () => {
    // channel 0: x = 0..4, w = [1, 1] dilated by 2 -> x[i] + x[i+2]; channel 1: w = [0, -1]
    expect(evalData('Conv', [inp([1, 2, 5], [0, 1, 2, 3, 4, 10, 20, 30, 40, 50]), init([2, 1, 2], [1, 1, 0, -1])],
      { group: A.int(2), dilations: A.ints([2]) })).toEqual([2, 4, 6, -30, -40, -50]);
  });
  it('grouped conv mixes only within groups', () => {
    // 4 in channels, 2 groups, 1x1 kernels: out0 = in0 + in1, out1 = in2 - in3
    expect(evalData('Conv', [inp([1, 4, 1, 1], [1, 2, 3, 4]), init([2, 2, 1, 1], [1, 1, 1, -1])], { group: A.int(2) })).toEqual([3, -1]);
  });
  it('auto_pad SAME_UPPER keeps the size', () => {
    expect(evalOp('Conv', [inp([1, 1, 4], [1, 2, 3, 4]), init([1, 1, 2], [1, 1])], { auto_pad: A.str('SAME_UPPER') })[0].data)
      .toEqual(new Float64Array([3, 5, 7, 4]));
  });
  it('channels-last layout (Deeploy NHWC): x[N,H,W,C], W[M,kh,kw,C]', () => {
    // Same as the 2-D dense case with one input channel: layouts only move the channel axis.
    const out = evalOp('Conv', [inp([1, 3, 3, 1], iota(9, 1)), init([2, 2, 2, 1], [1, 1, 1, 1, 1, 0, 0, -1])], { channels_first: A.int(0) })[0];
    expect(out.shape).toEqual([1, 2, 2, 2]);
    expect(Array.from(out.data)).toEqual([12, -4, 16, -4, 24, -4, 28, -4]);
  });
  it('accumulates exactly beyond 2^53 partial sums via BigInt', () => {
    // 2^30 * 2^30 + 2^30 * -2^30 = 0; each product is 2^60.
    expect(evalData('Conv', [inp([1, 2, 1], [2 ** 30, 2 ** 30]), init([1, 2, 1], [2 ** 30, -(2 ** 30)])])).toEqual([0]);
  });
  it('errors name the node: channel mismatch, bad group, bias shape', () => {
    const e = errorOf(() => evalOp('Conv', [inp([1, 3, 4], iota(12)), init([1, 2, 1], [1, 1])]));
    expect(e.code).toBe('shape-mismatch');
    expect(e.message).toContain('node "Conv_0" (Conv)');
    expect(errorOf(() => evalOp('Conv', [inp([1, 3, 4], iota(12)), init([2, 1, 1], [1, 1])], { group: A.int(2) })).code).toBe('shape-mismatch');
    expect(errorOf(() => evalOp('Conv', [inp([1, 1, 4], iota(4)), init([1, 1, 1], [1]), init([2], [1, 1])])).code).toBe('shape-mismatch');
  });
});

describe('MaxPool', () => {
  it('2-D with stride', () => {
    expect(evalData('MaxPool', [inp([1, 1, 4, 4], iota(16))], { kernel_shape: A.ints([2, 2]), strides: A.ints([2, 2]) })).toEqual([5, 7, 13, 15]);
  });
  it('padding never wins, even for negative inputs', () => {
    expect(evalData('MaxPool', [inp([1, 1, 3], [-5, -6, -7])], { kernel_shape: A.ints([2]), pads: A.ints([1, 1]) })).toEqual([-5, -5, -6, -7]);
  });
  it('ceil_mode adds the partial last window', () => {
    expect(evalData('MaxPool', [inp([1, 1, 5], [1, 5, 2, 4, 3])], { kernel_shape: A.ints([2]), strides: A.ints([2]), ceil_mode: A.int(1) })).toEqual([5, 4, 3]);
  });
  it('needs kernel_shape', () => {
    expect(errorOf(() => evalOp('MaxPool', [inp([1, 1, 2], [1, 2])])).code).toBe('bad-graph');
  });
});
