import { describe, expect, it } from 'vitest';
import type { Graph } from '../ir/graph';
import { errorOf } from '../ops/testing';
import { bindNpzInputs } from './npz-io';

const graph = {
  inputs: [{ name: 'x', dtype: 'float32', shape: [1, 2] }, { name: 'kv', dtype: 'float32', shape: [1, 0, 4] }],
} as unknown as Graph;

const arr = (name: string, shape: number[]) => ({ name, dtype: 'int64' as const, shape, data: new BigInt64Array(shape.reduce((a, b) => a * b, 1)) });

describe('bindNpzInputs', () => {
  it('maps arrays by position, empty KV caches included, and reports unused trailing arrays', () => {
    const b = bindNpzInputs(graph, [arr('arr_0', [1, 2]), arr('arr_1', [1, 0, 4]), arr('arr_2', [3])], 'inputs.npz');
    expect(b.inputs.map((i) => i.shape)).toEqual([[1, 2], [1, 0, 4]]);
    expect(b.unused).toEqual(['arr_2']);
  });
  it("'bad-inputs' naming the file and the tensor on too few arrays or a wrong shape", () => {
    let e = errorOf(() => bindNpzInputs(graph, [arr('arr_0', [1, 2])], 'inputs.npz'));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain('inputs.npz');
    e = errorOf(() => bindNpzInputs(graph, [arr('arr_0', [2, 1]), arr('arr_1', [1, 0, 4])], 'inputs.npz'));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain("'arr_0'");
    expect(e.message).toContain("'x'");
  });
});
