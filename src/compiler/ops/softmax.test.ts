import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, inp } from './testing';

describe('iSoftmax', () => {
  const attrs = { coeffA: A.t([1]), coeffB: A.t([4]), coeffC: A.t([0]), log2: A.t([5]), n_levels: A.t([256]) };
  it('polynomial exp with shifts; unsigned output 0..n-1', () => {
    // x = [0, -10]: z = [0, 2], p = [0, 0], e = [16, 16 >> 2 = 4], sum 20 -> [204, 51]
    expect(evalData('iSoftmax', [inp([1, 2], [0, -10])], attrs)).toEqual([204, 51]);
    // x = [0, -7]: z = 1, p = -2, e = (2^2) >> 1 = 2; sum 18 -> [226, 28]
    expect(evalData('iSoftmax', [inp([1, 2], [0, -7])], attrs)).toEqual([226, 28]);
  });
  it('is shift invariant per row', () => {
    expect(evalData('iSoftmax', [inp([2, 2], [50, 40, -70, -77])], attrs)).toEqual([204, 51, 226, 28]);
  });
  it('rejects log2 <= 0', () => {
    expect(errorOf(() => evalOp('iSoftmax', [inp([1, 2], [0, 1])], { ...attrs, log2: A.t([0]) })).code).toBe('bad-graph');
  });
});

describe('ITAMax', () => {
  it('shift_j = floor((max - x_j)/32 + 1/2); y_j = floor(255*256 / sum(256 >> shift)) >> shift_j', () => {
    // diffs [0, 16, 48, 200] -> shifts [0, 1, 2, 6]; S = 256+128+64+4 = 452; inv = floor(65280/452) = 144
    expect(evalData('ITAMax', [inp([1, 4], [100, 84, 52, -100])], { n_levels: A.t([256]) })).toEqual([144, 72, 36, 2]);
  });
});

describe('ITAPartialMax', () => {
  const attrs = { group_width: A.int(2), n_levels: A.t([256]) };
  it('accumulates group by group and scales to n/2 - 1', () => {
    // S = 452 as for ITAMax, but inv = floor(127*256/452) = 71
    expect(evalData('ITAPartialMax', [inp([1, 4], [100, 84, 52, -100])], attrs)).toEqual([71, 35, 17, 1]);
  });
  it('shifts the running sum when a later group has a larger maximum', () => {
    // group 0: S = 512; group 1 max 64: S = (512 >> 2) + 512 = 640; inv = floor(32512/640) = 50
    expect(evalData('ITAPartialMax', [inp([1, 4], [0, 0, 64, 64])], attrs)).toEqual([12, 12, 50, 50]);
  });
  it('needs group_width to divide the row', () => {
    expect(errorOf(() => evalOp('ITAPartialMax', [inp([1, 3], [0, 0, 0])], attrs)).code).toBe('shape-mismatch');
  });
});
