import { describe, expect, it } from 'vitest';
import type { Graph, Node } from '../ir/graph';
import { errorOf } from '../ops/testing';
import { tensor } from '../ops/core/tensor';
import { interpret, run } from './interpret';

const node = (name: string, op: string, inputs: string[], outputs: string[]): Node => ({ name, op, domain: '', inputs, outputs, attrs: {} });

const graph: Graph = {
  name: 't', opsets: [{ domain: '', version: 13 }], types: {},
  inputs: [{ name: 'a', dtype: 'float32', shape: [2] }, { name: 'b', dtype: 'int8', shape: [2] }],
  outputs: [{ name: 'y', dtype: 'float32', shape: [2] }, { name: 'a', dtype: 'float32', shape: [2] }],
  initializers: { k: { name: 'k', dtype: 'int64', shape: [], data: BigInt64Array.from([3n]) } },
  nodes: [node('add', 'Add', ['a', 'b'], ['s']), node('mul', 'Mul', ['s', 'k'], ['y'])],
};

describe('interpret', () => {
  it('runs a graph on typed arrays of any integer-holding dtype', () => {
    const out = interpret(graph, [
      { dtype: 'float32', shape: [2], data: Float32Array.from([1, -2]) },
      { dtype: 'int8', shape: [2], data: Int8Array.from([10, 20]) },
    ]);
    expect(out.map((o) => Array.from(o.data as Float64Array))).toEqual([[33, 54], [1, -2]]);
    expect(out[0].dtype).toBe('float64');
  });
  it('accepts int64 (BigInt64Array) inputs', () => {
    const out = interpret(graph, [
      { dtype: 'int64', shape: [2], data: BigInt64Array.from([1n, 2n]) },
      { dtype: 'int64', shape: [2], data: BigInt64Array.from([0n, -2n]) },
    ]);
    expect(Array.from(out[0].data as Float64Array)).toEqual([3, 0]);
  });
  it("'bad-inputs' for a wrong count, a wrong shape and non-integers, naming the source and tensor", () => {
    let e = errorOf(() => interpret(graph, [tensor([2], [1, 2])], { inputsName: 'inputs.npz' }));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain('inputs.npz');
    e = errorOf(() => interpret(graph, [tensor([2], [1, 2]), tensor([3], [1, 2, 3])], { inputsName: 'inputs.npz' }));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain("graph input 'b'");
    e = errorOf(() => interpret(graph, [{ dtype: 'float32', shape: [2], data: Float32Array.from([0.5, 1]) }, tensor([2], [1, 2])]));
    expect(e.code).toBe('bad-inputs');
    expect(e.message).toContain('0.5');
  });
  it('frees intermediates by default and keeps them with keepAll; reports every node', () => {
    const seen: string[] = [];
    const lean = run(graph, [tensor([2], [1, 2]), tensor([2], [3, 4])], { onNode: (n) => seen.push(n.name) });
    expect(seen).toEqual(['add', 'mul']);
    expect(lean.values.has('s')).toBe(false);
    const all = run(graph, [tensor([2], [1, 2]), tensor([2], [3, 4])], { keepAll: true });
    expect(Array.from(all.values.get('s')!.data)).toEqual([4, 6]);
  });
  it('can be cancelled between nodes', () => {
    expect(errorOf(() => run(graph, [tensor([2], [1, 2]), tensor([2], [3, 4])], { cancelled: () => true })).code).toBe('cancelled');
  });
  it('rejects a float initializer holding a fraction', () => {
    const g: Graph = { ...graph, initializers: { k: { name: 'k', dtype: 'float32', shape: [], data: Float32Array.from([0.25]) } } };
    const e = errorOf(() => run(g, [tensor([2], [1, 2]), tensor([2], [3, 4])]));
    expect(e.code).toBe('dtype-mismatch');
    expect(e.message).toContain("initializer 'k'");
  });
});
