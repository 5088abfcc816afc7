import { describe, expect, it } from 'vitest';
import { clamp, floorDiv, isqrt, log2Exact, shiftRight, toExact, truncDiv } from './exact';
import { broadcastIndex, broadcastShapes, transposeData, tensor } from './tensor';

describe('exact integer helpers', () => {
  it('floorDiv and truncDiv round the right way for every sign', () => {
    expect([floorDiv(7, 2), floorDiv(-7, 2), floorDiv(7, -2), floorDiv(-7, -2), floorDiv(-6, 2)]).toEqual([3, -4, -4, 3, -3]);
    expect([truncDiv(7, 2), truncDiv(-7, 2), truncDiv(7, -2), truncDiv(-7, -2), truncDiv(-1, 3)]).toEqual([3, -3, -3, 3, 0]);
    expect(Object.is(truncDiv(-1, 3), 0)).toBe(true); // never -0
  });
  it('floorDiv stays exact next to 2^53, where a/b rounds', () => {
    const a = 2 ** 53 - 1, b = 2 ** 53 - 2; // a/b is 1.000...1 in doubles; floor is 1
    expect(floorDiv(a, b)).toBe(1);
    expect(floorDiv(-a, b)).toBe(-2);
    expect(floorDiv(2 ** 52 + 1, 2 ** 52)).toBe(1);
  });
  it('shiftRight floors (arithmetic shift)', () => {
    expect([shiftRight(5, 1), shiftRight(-5, 1), shiftRight(-1, 10), shiftRight(2 ** 52, 52)]).toEqual([2, -3, -1, 1]);
  });
  it('isqrt is the largest r with r^2 <= n', () => {
    expect([isqrt(0), isqrt(1), isqrt(3), isqrt(4), isqrt(15), isqrt(16), isqrt(2 ** 52 - 1)]).toEqual([0, 1, 1, 2, 3, 4, 2 ** 26 - 1]);
  });
  it('toExact refuses values past 2^53', () => {
    expect(toExact(2n ** 53n - 1n, 'x')).toBe(2 ** 53 - 1);
    expect(() => toExact(2n ** 53n, 'x')).toThrow(/exceeds 2\^53/);
  });
  it('small helpers', () => {
    expect([clamp(-200, -128, 127), clamp(5, -128, 127), log2Exact(1024), log2Exact(1000), log2Exact(0.5)]).toEqual([-128, 5, 10, undefined, undefined]);
  });
});

describe('tensor index helpers', () => {
  it('broadcastShapes follows numpy', () => {
    expect(broadcastShapes([[2, 1, 3], [4, 1], []], 'w')).toEqual([2, 4, 3]);
    expect(() => broadcastShapes([[2], [3]], 'w')).toThrow(/do not broadcast/);
  });
  it('broadcastIndex maps output elements to input elements', () => {
    expect(Array.from(broadcastIndex([2, 1], [2, 3]))).toEqual([0, 0, 0, 1, 1, 1]);
    expect(Array.from(broadcastIndex([3], [2, 3]))).toEqual([0, 1, 2, 0, 1, 2]);
  });
  it('transposeData permutes axes', () => {
    const t = transposeData(tensor([2, 3], [0, 1, 2, 3, 4, 5]), [1, 0]);
    expect(t.shape).toEqual([3, 2]);
    expect(Array.from(t.data)).toEqual([0, 3, 1, 4, 2, 5]);
  });
});
