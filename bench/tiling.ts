// Tiling and static memory allocation of microLlama64_parallel (issue #5: "full tiling +
// allocation at L1 64000 and 8000 in Node and in the browser worker; aim for under three
// seconds"). Node: the tile stage alone (planMemory) on the lowered graph, best of 3, beside the
// lowering passes of the same network in the same run. Chromium: the app's pipeline worker up
// to the tile stage; the figure is the tile stage's own time, beside the Node figure.
import { readFileSync } from 'node:fs';
import { lowerGraph } from '../src/compiler/lower/lower';
import { readOnnx } from '../src/compiler/onnx/read';
import { inferTypes } from '../src/compiler/shapes/infer';
import { nodeMilp } from '../src/pipeline/node/milp';
import { planMemory } from '../src/compiler/tiling/plan';
import type { TilePlan } from '../src/compiler/tiling/types';
import { DEFAULT_CONFIG, type Config } from '../src/compiler/config';
import { inChromium, timeHook } from './browser';
import type { Bench, BenchRow } from './harness';
import { timeBest } from './harness';
import { sharedTest } from './paths';

const LLAMA = 'Models/microLlama/INT8/microLlama64_parallel';
const L1S = [64000, 8000];

export const tilingBench: Bench = {
  name: 'tiling',
  run: async () => {
    const bytes = readFileSync(sharedTest(`${LLAMA}/network.onnx`));
    const parsed = inferTypes(readOnnx(bytes, 'network.onnx'));
    const solver = await nodeMilp();
    const rows: BenchRow[] = [];
    const node: number[] = [];
    for (const l1 of L1S) {
      const config: Config = { ...DEFAULT_CONFIG, l1 };
      let lower = lowerGraph(parsed, config, { check: 'none' });
      const lowerMs = await timeBest(() => { lower = lowerGraph(parsed, config, { check: 'none' }); });
      let plan: TilePlan | undefined;
      const ms = await timeBest(async () => { plan = await planMemory(lower, config, { solver }); });
      node.push(ms);
      rows.push({
        name: `tiling + allocation, microLlama64_parallel, L1 ${l1} (Node)`, value: ms, unit: 'ms',
        baseline: { name: 'lowering passes, same network', value: lowerMs },
        note: `${plan!.steps} steps, ${plan!.solver.milps} MILPs + ${plan!.solver.reused} reused, ${plan!.levels.map((l) => `${l.name} ${l.buffers.length} buffers`).join(', ')}; checker ${plan!.check.ok ? 'ok' : 'FAILED'}; target < 3000 ms`,
      });
    }
    const chromium = await inChromium(async (page) => {
      const out = [];
      for (const l1 of L1S)
        out.push(await timeHook(page, 'tilePlan', { modelBase64: bytes.toString('base64'), config: { ...DEFAULT_CONFIG, l1 } }, 2));
      return out;
    });
    L1S.forEach((l1, i) => {
      const name = `tiling + allocation, microLlama64_parallel, L1 ${l1} (Chromium pipeline worker)`;
      const baseline = { name: 'same in Node', value: node[i]! };
      if ('skipped' in chromium) { rows.push({ name, value: NaN, unit: 'ms', baseline, note: chromium.skipped }); return; }
      const c = chromium.result[i]!;
      rows.push({ name, value: c.ms ?? NaN, unit: 'ms', baseline, note: `${c.figures.steps} steps, ${c.figures.milps} MILPs + ${c.figures.reused} reused; checker ${c.figures.checkOk ? 'ok' : 'FAILED'}` });
    });
    return rows;
  },
};
