import { describe, expect, it } from 'vitest';
import type { Graph, Node } from '../ir/graph';
import { A, errorOf } from '../ops/testing';
import { analyze, inferTypes } from './infer';

const node = (name: string, op: string, inputs: string[], outputs: string[], attrs = {}): Node => ({ name, op, domain: '', inputs, outputs, attrs });

function g(nodes: Node[], extra: Partial<Graph> = {}): Graph {
  return {
    name: 't', nodes, opsets: [{ domain: '', version: 13 }], types: {},
    inputs: [{ name: 'x', dtype: 'float32', shape: [1, 4] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: [-1, -1] }],
    initializers: { w: { name: 'w', dtype: 'float32', shape: [4, 2], data: new Float32Array(8) } },
    ...extra,
  };
}

describe('shape inference', () => {
  it('types every tensor and fills graph outputs', () => {
    const out = inferTypes(g([node('mm', 'MatMul', ['x', 'w'], ['h']), node('r', 'Relu', ['h'], ['y'])]));
    expect(out.types.h).toEqual({ dtype: 'float32', shape: [1, 2] });
    expect(out.types.y).toEqual({ dtype: 'float32', shape: [1, 2] });
    expect(out.types.x).toEqual({ dtype: 'float32', shape: [1, 4] });
    expect(out.outputs[0]).toEqual({ name: 'y', dtype: 'float32', shape: [1, 2] });
  });
  it('sorts nodes that are out of order, keeping the file order otherwise', () => {
    const out = inferTypes(g([node('r', 'Relu', ['h'], ['y']), node('mm', 'MatMul', ['x', 'w'], ['h'])]));
    expect(out.nodes.map((n) => n.name)).toEqual(['mm', 'r']);
  });
  it('reports a cycle with the nodes on it', () => {
    const e = errorOf(() => inferTypes(g([node('a', 'Add', ['x', 'c'], ['b']), node('b2', 'Relu', ['b'], ['c']), node('r', 'Relu', ['c'], ['y'])])));
    expect(e.code).toBe('bad-graph');
    expect(e.message).toMatch(/cycle: "(a|b2)" -> "(a|b2)" -> "(a|b2)"/);
  });
  it('reports a tensor nobody defines (a missing initializer), naming node and tensor', () => {
    const e = errorOf(() => inferTypes(g([node('mm', 'MatMul', ['x', 'w2'], ['y'])])));
    expect(e.code).toBe('bad-graph');
    expect(e.message).toContain('node "mm" (MatMul)');
    expect(e.message).toContain("'w2'");
    expect(e.message).toContain('initializer');
  });
  it('reports dynamic input shapes', () => {
    const e = errorOf(() => inferTypes(g([node('r', 'Relu', ['x'], ['y'])], { inputs: [{ name: 'x', dtype: 'float32', shape: [-1, 4] }] })));
    expect(e.code).toBe('bad-graph');
    expect(e.message).toContain("graph input 'x'");
    expect(e.message).toContain('[?, 4]');
  });
  it('reports a tensor written twice and a graph output nobody writes', () => {
    expect(errorOf(() => inferTypes(g([node('a', 'Relu', ['x'], ['y']), node('b', 'Relu', ['x'], ['y'])]))).message).toContain('also writes');
    expect(errorOf(() => inferTypes(g([node('a', 'Relu', ['x'], ['z'])]))).message).toContain("graph output 'y' is not produced");
  });
  it('checks declared value_info and output shapes', () => {
    const e = errorOf(() => inferTypes(g([node('mm', 'MatMul', ['x', 'w'], ['h']), node('r', 'Relu', ['h'], ['y'])],
      { types: { h: { dtype: 'float32', shape: [1, 3] } } })));
    expect(e.code).toBe('shape-mismatch');
    expect(e.message).toContain("tensor 'h'");
    expect(e.message).toContain('[1, 3]');
    expect(errorOf(() => inferTypes(g([node('r', 'Relu', ['x'], ['y'])], { outputs: [{ name: 'y', dtype: 'float32', shape: [4, 1] }] }))).code)
      .toBe('shape-mismatch');
  });
  it('tolerates numeric dtype differences in declarations (FLOAT files holding integers)', () => {
    const out = inferTypes(g([node('r', 'Relu', ['x'], ['y'])], { outputs: [{ name: 'y', dtype: 'int32', shape: [1, 4] }] }));
    expect(out.types.y.shape).toEqual([1, 4]);
    expect(errorOf(() => inferTypes(g([node('r', 'Relu', ['x'], ['y'])], { outputs: [{ name: 'y', dtype: 'bool', shape: [1, 4] }] }))).code)
      .toBe('dtype-mismatch');
  });
  it('checks arity', () => {
    expect(errorOf(() => inferTypes(g([node('mm', 'MatMul', ['x'], ['y'])]))).message).toContain("input 1 ('B') is missing");
    expect(errorOf(() => inferTypes(g([node('r', 'Relu', ['x', 'w'], ['y'])]))).message).toContain('takes at most 1');
  });
  it('folds shape subgraphs so Reshape can read a computed shape', () => {
    const nodes = [
      node('s', 'Shape', ['x'], ['sh']),
      node('c', 'Constant', [], ['neg'], { value: A.t([-1], [1], 'int64') }),
      node('g', 'Gather', ['sh', 'zero'], ['n']),
      node('u', 'Unsqueeze', ['n', 'zero1'], ['n1']),
      node('cat', 'Concat', ['n1', 'neg'], ['target'], { axis: A.int(0) }),
      node('rs', 'Reshape', ['x', 'target'], ['y']),
    ];
    const initializers = {
      zero: { name: 'zero', dtype: 'int64' as const, shape: [], data: BigInt64Array.from([0n]) },
      zero1: { name: 'zero1', dtype: 'int64' as const, shape: [1], data: BigInt64Array.from([0n]) },
    };
    const a = analyze(g(nodes, { initializers }));
    expect(a.graph.types.y.shape).toEqual([1, 4]);
    expect(Array.from(a.constant('target')!.data)).toEqual([1, -1]);
  });
  it('is idempotent', () => {
    const once = inferTypes(g([node('mm', 'MatMul', ['x', 'w'], ['h']), node('r', 'Relu', ['h'], ['y'])]));
    expect(inferTypes(once)).toEqual(once);
  });
});

describe('size limits (found by the fuzzer)', () => {
  it('refuses a graph input with an absurd element count', () => {
    const e = errorOf(() => inferTypes(g([node('r', 'Relu', ['x'], ['y'])], { inputs: [{ name: 'x', dtype: 'float32', shape: [2 ** 31, 2, 64, 32] }] })));
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/^graph input 'x': has 8796093022208 elements/);
  });
  it('refuses an intermediate tensor that would not fit in memory, naming it', () => {
    const pads = { name: 'pads', dtype: 'int64' as const, shape: [4], data: new BigInt64Array([0n, 0n, 0n, 100_000n]) };
    const e = errorOf(() => inferTypes(g([node('pad', 'Pad', ['x', 'pads'], ['y'])], {
      inputs: [{ name: 'x', dtype: 'float32', shape: [1000, 4] }], initializers: { pads },
    })));
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/^node "pad" \(Pad\): tensor 'y' \[1000, 100004\] has 100004000 elements/);
  });
  it('refuses tensors that each fit but together exceed the network budget, naming the node where it tips over', () => {
    // 2^23 elements each: the input and three Relu outputs make exactly 2^25; the fourth output tips over.
    const nodes = ['a', 'b', 'c', 'd'].map((o, i) => node(`r${i}`, 'Relu', [i ? ['a', 'b', 'c'][i - 1] : 'x'], [o]));
    const e = errorOf(() => inferTypes(g(nodes, { inputs: [{ name: 'x', dtype: 'float32', shape: [4096, 2048] }], initializers: {},
      outputs: [{ name: 'd', dtype: 'float32', shape: [] }] })));
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/^node "r3" \(Relu\): the network's tensors hold more than 33554432 elements in all \(reached with 'd' \[4096, 2048\]\)/);
  });
  it('refuses inputs and initializers over the network budget before any node', () => {
    const inputs = [0, 1, 2].map((i) => ({ name: `x${i}`, dtype: 'float32' as const, shape: [1 << 24] }));
    const e = errorOf(() => inferTypes(g([node('r', 'Relu', ['x0'], ['y'])], { inputs })));
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/^graph: the graph inputs and initializers hold 50331656 elements, more than the limit of 33554432/);
  });
  it('refuses a network with too much arithmetic, naming the node where it tips over', () => {
    const w = { name: 'w', dtype: 'float32' as const, shape: [4096, 2048], data: new Float32Array(4096 * 2048) };
    const e = errorOf(() => inferTypes(g([node('mm', 'MatMul', ['x', 'w'], ['y'])], {
      inputs: [{ name: 'x', dtype: 'float32', shape: [64, 4096] }], initializers: { w },
    })));
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/^node "mm" \(MatMul\): the network needs more than 5e\+8 multiply-accumulates/);
  });
  it('handles tensors named like Object.prototype members', () => {
    const out = inferTypes(g([node('r', 'Relu', ['x'], ['constructor']), node('s', 'Relu', ['constructor'], ['toString'])], {
      outputs: [{ name: 'toString', dtype: 'float32', shape: [1, 4] }],
    }));
    expect(out.types.constructor).toEqual({ dtype: 'float32', shape: [1, 4] });
  });
});
