// Lowering figures: the pass pipeline of each platform on microLlama64_parallel, beside the
// reference interpreter running the same graph once (the baseline); then the whole lower stage
// with its semantic check of every changed snapshot, beside one interpreter run per check.
import { readFileSync } from 'node:fs';
import { interpret } from '../src/compiler/interpret/interpret';
import { bindNpzInputs } from '../src/compiler/interpret/npz-io';
import { lowerGraph } from '../src/compiler/lower/lower';
import { readNpz } from '../src/compiler/npz';
import { readOnnx } from '../src/compiler/onnx/read';
import { runPasses } from '../src/compiler/passes/manager';
import { platformFor } from '../src/compiler/platforms';
import { inferTypes } from '../src/compiler/shapes/infer';
import { DEFAULT_CONFIG, PLATFORMS } from '../src/compiler/config';
import type { Bench, BenchRow } from './harness';
import { timeBest } from './harness';
import { sharedTest } from './paths';

export const lowerBench: Bench = {
  name: 'lower',
  run: async () => {
    const dir = 'Models/microLlama/INT8/microLlama64_parallel';
    const graph = inferTypes(readOnnx(readFileSync(sharedTest(`${dir}/network.onnx`)), 'network.onnx'));
    const { inputs } = bindNpzInputs(graph, readNpz(readFileSync(sharedTest(`${dir}/inputs.npz`)), 'inputs.npz'), 'inputs.npz');
    const reference = await timeBest(() => interpret(graph, inputs), 3);
    const rows: BenchRow[] = [];
    for (const platform of PLATFORMS) {
      const passes = platformFor(platform).passes;
      let nodes = 0;
      const ms = await timeBest(() => { nodes = runPasses(graph, passes, undefined, { inputs }).at(-1)!.graph.nodes.length; }, 3);
      rows.push({
        name: `passes microLlama64_parallel (${platform})`, value: ms, unit: 'ms',
        baseline: { name: 'reference interpreter, one run', value: reference },
        note: `${passes.length} passes, 505 -> ${nodes} nodes`,
      });
    }
    for (const platform of PLATFORMS) {
      let checks = 0;
      const ms = await timeBest(() => {
        checks = lowerGraph(graph, { ...DEFAULT_CONFIG, platform }, { inputs }).checks.length;
      }, 1);
      rows.push({
        name: `lower stage incl. checks (${platform})`, value: ms, unit: 'ms',
        baseline: { name: 'one interpreter run per check', value: reference * checks },
        note: `${checks} changed snapshots checked incrementally`,
      });
    }
    return rows;
  },
};
