import { describe, expect, it } from 'vitest';
import { A, evalData, init, inp } from './testing';

describe('iGELU', () => {
  it('L = sign(x)*(-(min(|x|,-b)+b)^2 + one); y = x*floor((one + L)/2)', () => {
    // b = -4, one = 20: x=2 -> L=16, y=36; x=-2 -> L=-16, y=-4; x=10 -> L=20, y=200; x=-10 -> 0; x=-1 -> L=-11, y=-4
    expect(evalData('iGELU', [inp([6], [2, -2, 0, 10, -10, -1])], { b: A.int(-4), one: A.int(20) })).toEqual([36, -4, 0, 200, 0, -4]);
  });
});

describe('iHardswish', () => {
  it('y = x * (clip(x + three, 0, six) * one_over_six)', () => {
    expect(evalData('iHardswish', [inp([5], [-5, -1, 0, 1, 5])], { one_over_six: A.int(2), three: A.int(3), six: A.int(6) }))
      .toEqual([0, -4, 0, 8, 60]);
  });
});

describe('IntegerDiv / TrueIntegerDiv', () => {
  it('IntegerDiv: floor(A*Delta*eta / (B*eta + eps) + 1/2)', () => {
    expect(evalData('IntegerDiv', [inp([3], [7, -7, 5]), init([3], [2, 2, 2])], { Delta: A.int(1), eta: A.int(1), eps: A.int(0) })).toEqual([4, -3, 3]);
    // den = 2*2 + 1 = 5; nom = A*6: 42/5 = 8.4 -> 8; -8.4 -> -8; 30/5 = 6
    expect(evalData('IntegerDiv', [inp([3], [7, -7, 5]), init([], [2])], { Delta: A.int(3), eta: A.int(2), eps: A.int(1) })).toEqual([8, -8, 6]);
  });
  it('IntegerDiv is exact past 2^53 (BigInt path)', () => {
    // nom = (2^31-1) * 2^40 needs 71 bits; den = 2^31 - 1 -> exactly 2^40
    expect(evalData('IntegerDiv', [inp([1], [2147483647]), inp([1], [2147483647])], { Delta: A.int(2 ** 40), eta: A.int(1), eps: A.int(0) }))
      .toEqual([2 ** 40]);
  });
  it('TrueIntegerDiv: x * floor(Delta*eta / (y*eta + eps)) (8191 in microLlama)', () => {
    expect(evalData('TrueIntegerDiv', [inp([2], [1, -2])], { Delta: A.int(16384), eta: A.int(200000), eps: A.int(1), y: A.int(2) }))
      .toEqual([8191, -16382]);
  });
});
