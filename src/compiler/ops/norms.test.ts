import { describe, expect, it } from 'vitest';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

describe('iRMSNorm', () => {
  const attrs = { D: A.int(2), n_levels: A.int(256) };
  it('std = isqrt(trunc(sum(x^2)/L) + 1); y = trunc(x*w/std) >> log2(D)', () => {
    // sum = 25, s = 12, std = isqrt(13) = 3: 6/3 = 2 >> 1 = 1; 8/3 -> 2 >> 1 = 1
    expect(evalData('iRMSNorm', [inp([1, 2], [3, 4]), init([2], [2, 2])], attrs)).toEqual([1, 1]);
  });
  it("'/' truncates, '>>' floors: -8/3 -> -2 -> -1 (floor division would give -2)", () => {
    expect(evalData('iRMSNorm', [inp([1, 2], [-4, 3]), init([2], [2, 2])], attrs)).toEqual([-1, 1]);
  });
  it('works row by row and clips to int8', () => {
    expect(evalData('iRMSNorm', [inp([2, 2], [3, 4, -3, -4]), init([2], [1000, 1000])], attrs)).toEqual([127, 127, -128, -128]);
  });
  it('rejects a weight of the wrong length', () => {
    expect(errorOf(() => evalOp('iRMSNorm', [inp([1, 2], [3, 4]), init([3], [1, 1, 1])], attrs)).code).toBe('shape-mismatch');
  });
});

describe('iLayerNorm', () => {
  it('nom = x - trunc(mean); den = isqrt(floor(mean(nom^2)) + 1); y = floor((trunc(nom*w/den) + b) / D)', () => {
    // mean 3, nom [-2,-1,0,3], mean(nom^2) = 14/4 -> 3, den 2; nom*w/den = [-4,-2,0,6]; + b = [-4,-1,2,9]; /2 floored
    expect(evalData('iLayerNorm', [inp([1, 4], [1, 2, 3, 6]), init([4], [4, 4, 4, 4]), init([4], [0, 1, 2, 3])], { D: A.int(2), n_levels: A.int(256) }))
      .toEqual([-2, -1, 1, 4]);
  });
  it('truncates the mean toward zero: mean(-1,-2,0,0) = -0.75 -> 0', () => {
    expect(evalData('iLayerNorm', [inp([1, 4], [-1, -2, 0, 0]), init([4], [1, 1, 1, 1]), init([4], [0, 0, 0, 0])], { D: A.int(1), n_levels: A.int(256) }))
      .toEqual([-1, -2, 0, 0]);
  });
});

describe('iNoNorm', () => {
  it('y = clip(((x*w + b) * mul) >> log2(D))', () => {
    // (3+1)*5 = 20 >> 2 = 5; (-3+1)*5 = -10 >> 2 = -3 (floor)
    expect(evalData('iNoNorm', [inp([1, 2], [1, -1]), init([2], [3, 3]), init([2], [1, 1])], { D: A.int(4), mul: A.int(5), n_levels: A.int(256) }))
      .toEqual([5, -3]);
    expect(evalData('iNoNorm', [inp([1, 1], [100]), init([1], [100]), init([1], [0])], { D: A.int(1), mul: A.int(1), n_levels: A.int(256) }))
      .toEqual([127]);
  });
});
