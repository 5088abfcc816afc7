import { describe, expect, it } from 'vitest';
import { errorOf } from '../ops/testing';
import { checkOutputs, formatCheck } from './compare';

describe('checkOutputs', () => {
  it("counts differing elements like Deeploy's 'Errors: E out of T'", () => {
    const got = [{ shape: [2, 2], data: Float64Array.from([1, 2, 3, 4]) }, { shape: [1], data: Float64Array.from([7]) }];
    const golden = [
      { name: 'output_0', shape: [2, 2], data: BigInt64Array.from([1n, 2n, 0n, 4n]) },
      { name: 'output_1', shape: [1], data: Float32Array.from([7]) },
    ];
    const c = checkOutputs(got, golden);
    expect(c.errors).toBe(1);
    expect(c.total).toBe(5);
    expect(c.firstMismatches).toEqual([{ output: 0, name: 'output_0', index: 2, coords: [1, 0], got: 3, expected: 0 }]);
    expect(c.perOutput).toEqual([{ name: 'output_0', errors: 1, total: 4 }, { name: 'output_1', errors: 0, total: 1 }]);
    expect(formatCheck(c)).toBe('Errors: 1 out of 5');
  });
  it('accepts a flattened golden array with the same element count', () => {
    expect(checkOutputs([{ shape: [2, 2], data: Float64Array.from([1, 2, 3, 4]) }], [{ shape: [4], data: Int32Array.from([1, 2, 3, 4]) }]).errors).toBe(0);
  });
  it("'bad-inputs' naming the file for a wrong count of arrays or elements", () => {
    let e = errorOf(() => checkOutputs([{ shape: [1], data: Float64Array.from([1]) }], [], 'outputs.npz'));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain('outputs.npz');
    e = errorOf(() => checkOutputs([{ shape: [1], data: Float64Array.from([1]) }], [{ name: 'o', shape: [2], data: Float64Array.from([1, 2]) }]));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain("'o'");
  });
});
