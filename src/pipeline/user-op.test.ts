// A user operator inside a bigger model: the student's kernel linked with the library's, tiled
// with the others, bit-exact against the reference interpreter (random seeded inputs).
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import { installUserOps } from '../compiler/ops';
import type { Graph } from '../compiler/ir/graph';
import type { UserOp } from '../compiler/ops/user/spec';
import { writeOnnx } from '../compiler/onnx/write';
import { runBuiltinNode } from '../sim/run/builtin-node';
import { nodeMilp } from './node/milp';
import { record, type Results } from './results';
import { runPipeline } from './run';
import type { PlaygroundErrorData } from '../common/errors';

const lab = (f: string) => readFileSync(new URL(`lab/${f}`, import.meta.url), 'utf8');
const op: UserOp = { spec: JSON.parse(lab('ileakyrelu.json')), kernel: lab('simd.c') };

afterEach(() => installUserOps([]));

/** x -> iLeakyReLU -> Transpose -> Relu -> iLeakyReLU (shift 1) -> y, int8 all along. */
function model(): Uint8Array {
  const g: Graph = {
    name: 'mixed', opsets: [{ domain: '', version: 17 }], initializers: {}, types: {},
    inputs: [{ name: 'x', dtype: 'int8', shape: [1, 8, 24, 40] }],
    outputs: [{ name: 'y', dtype: 'int8', shape: [1, 24, 40, 8] }],
    nodes: [
      { name: 'leaky_a', op: 'iLeakyReLU', domain: '', inputs: ['x'], outputs: ['a'], attrs: { shift: { kind: 'int', value: 3 } } },
      { name: 'perm', op: 'Transpose', domain: '', inputs: ['a'], outputs: ['b'], attrs: { perm: { kind: 'ints', value: [0, 2, 3, 1] } } },
      { name: 'relu', op: 'Relu', domain: '', inputs: ['b'], outputs: ['c'], attrs: {} },
      { name: 'leaky_b', op: 'iLeakyReLU', domain: '', inputs: ['c'], outputs: ['y'], attrs: { shift: { kind: 'int', value: 1 }, mul: { kind: 'int', value: 1 } } },
    ],
  };
  return writeOnnx(g);
}

for (const config of [{ cores: 8, tiled: false }, { cores: 8, tiled: true, l1: 4096 }, { cores: 3, tiled: true, l1: 2048, doubleBuffer: true }] as Partial<Config>[]) {
  it(`runs bit-exact with built-in layers around it (${JSON.stringify(config)})`, async () => {
    const results: Results = {};
    let error: PlaygroundErrorData | undefined;
    await runPipeline({ model: model(), modelName: 'mixed.onnx', ops: [op] }, { ...DEFAULT_CONFIG, ...config }, (e) => {
      if (e.type === 'stage') record(results, e);
      if (e.type === 'error') error = e.error;
    }, { milp: nodeMilp, runner: runBuiltinNode });
    expect(error).toBeUndefined();
    expect(results.codegen!.layers.map((l) => l.kernel)).toEqual(['iLeakyReLU_s8_s8', 'Transpose_s8', 'Relu_s8', 'iLeakyReLU_s8_s8']);
    expect(results.codegen!.testData).toEqual({ inputs: 'random', golden: 'reference interpreter' });
    expect(results.run!.errors).toBe(0);
    expect(results.run!.total).toBe(8 * 24 * 40);
  }, 60_000);
}
