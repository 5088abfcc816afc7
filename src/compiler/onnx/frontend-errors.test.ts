// Bad input past the reader: models that parse but cannot be typed or run (unsupported ops,
// dtype and shape mismatches) and inputs.npz files that do not fit the graph. Each must end
// in a PlaygroundError with a code and a message naming the node, tensor or file.
import { describe, expect, test } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import type { ErrorCode } from '../../common/errors';
import { findTestDirs, loadTestCase } from '../../testing/corpus';
import type { Graph, Initializer, Node } from '../ir/graph';
import { interpret } from '../interpret/interpret';
import { bindNpzInputs } from '../interpret/npz-io';
import type { NpyArray } from '../npz';
import { readNpz } from '../npz';
import { inferTypes } from '../shapes/infer';
import { readOnnx } from './read';
import { writeOnnx } from './write';

const ROOT = new URL('../../../../shared/deeploy-tests/', import.meta.url);
const sharedCase = (rel: string) => loadTestCase(findTestDirs(ROOT).find((d) => d.endsWith(rel))!, ROOT);

function expectError(fn: () => unknown, code: ErrorCode, ...mentions: (string | RegExp)[]): PlaygroundError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a PlaygroundError').toBeInstanceOf(PlaygroundError);
  const pe = err as PlaygroundError;
  expect(pe.data.code, pe.message).toBe(code);
  for (const m of mentions) expect(pe.message).toMatch(m);
  return pe;
}

/** x, y (int8 [1,4]) -> one node -> z; written with writeOnnx and read back, as a user's file would be. */
function model(node: Partial<Node>, over: Partial<Graph> = {}): Graph {
  const g: Graph = {
    name: 'g',
    nodes: [{ name: 'n0', op: 'Add', domain: '', inputs: ['x', 'y'], outputs: ['z'], attrs: {}, ...node }],
    inputs: [{ name: 'x', dtype: 'int8', shape: [1, 4] }, { name: 'y', dtype: 'int8', shape: [1, 4] }],
    outputs: [{ name: 'z', dtype: 'int8', shape: [1, 4] }],
    initializers: {},
    types: {},
    opsets: [{ domain: '', version: 13 }],
    ...over,
  };
  return readOnnx(writeOnnx(g), 'model.onnx');
}
const init = (name: string, dtype: Initializer['dtype'], shape: number[], data: Initializer['data']): Initializer => ({ name, dtype, shape, data });

describe('models that parse but cannot be typed', () => {
  test('an unsupported op names the node and the op', () => {
    const g = model({ name: 'lstm_1', op: 'LSTM' });
    expectError(() => inferTypes(g), 'unsupported-op', 'node "lstm_1" (LSTM)', /LSTM/);
    const custom = model({ name: 'q', op: 'FancyQuant', domain: 'com.example' }, { opsets: [{ domain: '', version: 13 }, { domain: 'com.example', version: 1 }] });
    expectError(() => inferTypes(custom), 'unsupported-op', 'node "q" (FancyQuant)', /com\.example/);
  });

  test('a known op in a foreign domain, and a near-miss op name, get a hint', () => {
    const e = expectError(() => inferTypes(model({ op: 'Add', domain: 'com.example' })), 'unsupported-op', 'node "n0" (Add)');
    expect(e.data.hint).toMatch(/domain/);
    expect(expectError(() => inferTypes(model({ op: 'add' })), 'unsupported-op', 'node "n0" (add)').data.hint).toMatch(/Add/);
  });

  test('dtype mismatches name the node or tensor', () => {
    // Arithmetic on booleans.
    expectError(() => inferTypes(model({}, { inputs: [{ name: 'x', dtype: 'bool', shape: [1, 4] }, { name: 'y', dtype: 'int8', shape: [1, 4] }] })),
      'dtype-mismatch', 'node "n0" (Add)', /bool/);
    // A shape given as floats.
    const reshape = model({ op: 'Reshape', inputs: ['x', 'shape'] }, {
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, 4] }],
      initializers: { shape: init('shape', 'float32', [2], new Float32Array([4, 1])) },
      outputs: [{ name: 'z', dtype: 'int8', shape: [4, 1] }],
    });
    expectError(() => inferTypes(reshape), 'dtype-mismatch', 'node "n0" (Reshape)', /float32/);
    // A declared type that contradicts the computed one.
    const declared = model({}, { outputs: [{ name: 'z', dtype: 'bool', shape: [1, 4] }] });
    expectError(() => inferTypes(declared), 'dtype-mismatch', "'z'", /bool/);
  });

  test('shapes that do not broadcast, and a declared shape that does not match', () => {
    expectError(() => inferTypes(model({}, { inputs: [{ name: 'x', dtype: 'int8', shape: [1, 4] }, { name: 'y', dtype: 'int8', shape: [1, 3] }] })),
      'shape-mismatch', 'node "n0" (Add)', /\[1, 4\].*\[1, 3\]|1x4.*1x3/);
    expectError(() => inferTypes(model({}, { outputs: [{ name: 'z', dtype: 'int8', shape: [1, 5] }] })), 'shape-mismatch', "'z'");
  });

  test('wrong arity and missing attributes name the node', () => {
    expectError(() => inferTypes(model({ inputs: ['x'] })), 'bad-graph', 'node "n0" (Add)');
    expectError(() => inferTypes(model({ inputs: ['x', 'y', 'x'] })), 'bad-graph', 'node "n0" (Add)', /3 inputs/);
  });
});

describe('inputs.npz that does not fit the graph', () => {
  const add = sharedCase('Add/Regular');
  const graph = readOnnx(add.onnx, 'network.onnx');
  const arrays = readNpz(add.inputs!, 'inputs.npz');

  test('the shared inputs fit and run', () => {
    const { inputs, unused } = bindNpzInputs(graph, arrays, 'inputs.npz');
    expect(unused).toEqual([]);
    expect(interpret(graph, inputs)).toHaveLength(1);
  });

  test('too few arrays', () => {
    expectError(() => bindNpzInputs(graph, arrays.slice(0, 1), 'inputs.npz'), 'bad-inputs', 'inputs.npz', /1 array/, /2 inputs/);
    expectError(() => interpret(graph, arrays.slice(0, 1), { inputsName: 'inputs.npz' }), 'bad-inputs', 'inputs.npz', /1 input array/);
  });

  test('extra trailing arrays are reported as unused (Deeploy appends weights), not bound', () => {
    const extra: NpyArray = { name: 'arr_9', dtype: 'int8', shape: [2], data: new Int8Array(2) };
    expect(bindNpzInputs(graph, [...arrays, extra], 'inputs.npz').unused).toEqual(['arr_9']);
    expectError(() => interpret(graph, [...arrays, extra], { inputsName: 'inputs.npz' }), 'bad-inputs', 'inputs.npz', /3 input arrays/);
  });

  test('an array of the wrong shape names the array and the graph input', () => {
    const wrong = [arrays[0], { ...arrays[1], shape: [1, 5, 25], data: arrays[1].data }];
    expectError(() => bindNpzInputs(graph, wrong, 'inputs.npz'), 'bad-inputs', 'inputs.npz', `'${arrays[1].name}'`, `'${graph.inputs[1].name}'`);
    expectError(() => interpret(graph, wrong, { inputsName: 'inputs.npz' }), 'bad-inputs', 'inputs.npz', `'${graph.inputs[1].name}'`);
  });

  test('non-integer values in an integer network', () => {
    const frac = [arrays[0], { ...arrays[1], dtype: 'float32' as const, data: new Float32Array(arrays[1].data.length).fill(0.5) }];
    expectError(() => interpret(graph, frac, { inputsName: 'inputs.npz' }), 'bad-inputs', 'inputs.npz', /0\.5/);
  });

  test("another test's inputs.npz", () => {
    const conv = readNpz(sharedCase('Conv/Regular_2D').inputs!, 'inputs.npz');
    expectError(() => bindNpzInputs(graph, conv, 'inputs.npz'), 'bad-inputs', 'inputs.npz');
  });
});
