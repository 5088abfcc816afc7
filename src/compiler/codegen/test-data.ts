// What the harness checks against: the user's inputs.npz and outputs.npz when given; otherwise
// seeded random inputs over each input's type, with golden outputs from the reference
// interpreter (so a bare .onnx file still gets a self-checking program).
import { mulberry32 } from '../fuzz/prng';
import type { Graph } from '../ir/graph';
import { DTYPES } from '../ir/dtype';
import { interpret, type TensorValue } from '../interpret/interpret';
import type { LowerResult } from '../lower/types';
import { numel } from '../ops/core/tensor';
import type { CodegenResult } from './types';

export interface TestData {
  inputs: TensorValue[];
  golden: TensorValue[];
  testData: CodegenResult['testData'];
}

/**
 * `npzInputs` are inputs.npz bound to the parsed graph (by position); `npzGolden` the
 * outputs.npz arrays. Inputs of the final graph are picked by their parsed-graph position.
 */
export function testDataFor(parsed: Graph, lower: LowerResult, npzInputs?: readonly TensorValue[], npzGolden?: readonly TensorValue[],
  seed = 1): TestData {
  const final = lower.snapshots[lower.snapshots.length - 1].graph;
  const types = lower.inputTypes ?? [];
  if (npzInputs) {
    const inputs = final.inputs.map((v) => npzInputs[types.find((t) => t.name === v.name)?.index ?? -1]);
    const golden = npzGolden ? [...npzGolden] : interpret(parsed, npzInputs);
    return { inputs, golden, testData: { inputs: 'inputs.npz', golden: npzGolden ? 'outputs.npz' : 'reference interpreter' } };
  }
  const rng = mulberry32(seed);
  const inputs: TensorValue[] = final.inputs.map((v) => {
    const d = DTYPES[(types.find((t) => t.name === v.name)?.dtype ?? 'int8') as keyof typeof DTYPES];
    const lo = d.min ?? -128, hi = d.max ?? 127;
    const data = new Float64Array(numel(v.shape));
    for (let k = 0; k < data.length; k++) data[k] = lo + Math.floor(rng() * (hi - lo + 1));
    return { dtype: 'float64', shape: [...v.shape], data };
  });
  return { inputs, golden: interpret(final, inputs), testData: { inputs: 'random', golden: 'reference interpreter' } };
}
