// npm run calibrate:tiler : refits the tiler's cost model to the simulator and writes
// src/compiler/platforms/siracusa-costs.json. Compiles and runs (profiled, --cc builtin) every
// Deeploy test network and kernel test in ../shared/deeploy-tests at several L1 budgets on 8
// cores, pairs each tiled layer's cost terms with its measured cycles (src/pipeline/cost-fit.ts),
// fits the cycles per DMA command, then per kernel family (or kernel path) its cycles per layer,
// tile, unit of work, output and row on a core, and for its first layer (KernelCost). The fit
// changes the tiles the tiler picks, so run it until it prints no change.
// Rerun after changing a kernel, the runtime or the simulator's timing. --quick: L1 8000 and
// 64000 only; --samples FILE: also write every layer's terms and cycles there (JSON).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type Config } from '../src/compiler/config';
import { fittedCycles } from '../src/compiler/tiling/layer';
import { fitCommandCycles, fitKernel, sampleLayers, worstLayer, type LayerSample } from '../src/pipeline/cost-fit';
import { nodeMachine } from '../src/sim/node';
import type { CostData } from '../src/compiler/platforms/siracusa-costs';

const COSTS_FILE = new URL('../src/compiler/platforms/siracusa-costs.json', import.meta.url).pathname;

const SHARED = new URL('../../shared/deeploy-tests/', import.meta.url).pathname;
const NETWORKS = [
  'Models/microLlama/INT8/microLlama64_parallel', 'Models/microLlama/INT8/microLlama1', 'Models/miniMobileNetv2',
  'Models/CNN_Linear1', 'Models/MLPerf/KeywordSpotting',
  'Kernels/Integer/GEMM/Regular_RQPerRow', 'Kernels/Integer/MatMul/Regular_RQ', 'Kernels/Integer/Attention',
  'Kernels/Integer/Conv/Regular_2D_RQ', 'Kernels/Integer/Conv/DW_2D_RQ', 'Kernels/Integer/Conv/PW_2D_RQ/Regular_RQ',
  'Kernels/Integer/Softmax/Regular', 'Kernels/Integer/RMSNorm', 'Kernels/Integer/Add/Large', 'Kernels/Integer/MaxPool/Regular_2D',
];
const L1_BUDGETS = [8000, 16000, 32000, 64000];

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const machine = await nodeMachine();
  const samples: LayerSample[] = [];
  for (const net of NETWORKS) {
    const dir = join(SHARED, net);
    const f = (n: string) => new Uint8Array(readFileSync(join(dir, n)));
    for (const l1 of quick ? [8000, 64000] : L1_BUDGETS) {
      const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', cores: 8, tiled: true, l1 };
      try {
        const s = await sampleLayers({ model: f('network.onnx'), modelName: `${net}/network.onnx`, inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config, async () => machine);
        samples.push(...s.map((x) => ({ ...x, model: net, l1 })));
        const w = worstLayer(s);
        process.stderr.write(`${net} L1 ${l1}: ${s.length} layers${w ? `, worst ${w.sample.node} (${w.sample.kernel}) measured/estimate ${w.ratio.toFixed(2)}` : ''}\n`);
      } catch (e) {
        process.stderr.write(`${net} L1 ${l1}: skipped (${(e as Error).message})\n`);
      }
    }
  }
  const dump = process.argv.indexOf('--samples');
  if (dump > 0) writeFileSync(process.argv[dump + 1], JSON.stringify(samples, null, 1));
  const commandCycles = Math.round(fitCommandCycles(samples));
  const kernels: CostData['kernels'] = {};
  for (const k of [...new Set(samples.map((s) => s.kernel))].sort()) {
    const mine = samples.filter((s) => s.kernel === k && s.engine === 'cluster');
    if (mine.length) kernels[k] = fitKernel(mine, commandCycles);
  }
  const old = JSON.parse(readFileSync(COSTS_FILE, 'utf8')) as CostData;
  const data: CostData = {
    about: 'The tiler\'s cost model for the Siracusa cluster (src/compiler/tiling/layer.ts costOf), fitted to the simulator by scripts/calibrate-tiler.ts: per DMA command, and per kernel family (or kernel path) cycles per layer, tile, unit of work, output and row on one core, and for its first layer.',
    layers: samples.length, commandCycles, kernels,
  };
  writeFileSync(COSTS_FILE, `${JSON.stringify(data, null, 2)}\n`);
  // A family changed when a term moved by more than 2 % of the family's typical layer (or it is new).
  const moved = Object.entries(kernels).filter(([k, v]) => {
    const o = old.kernels[k];
    if (!o) return true;
    const mine = samples.filter((s) => s.kernel === k);
    const cost = (c: typeof v, s: LayerSample) => fittedCycles(c, s) + (s.firstUse ? c.perFirstUse : 0);
    return mine.some((s) => Math.abs(cost(v, s) - cost(o, s)) > 0.02 * s.measured);
  });
  process.stderr.write(`wrote ${COSTS_FILE}: ${samples.length} layers, ${Object.keys(kernels).length} kernel families, ${commandCycles} cycles per DMA command; ` +
    `${moved.length ? `changed: ${moved.map(([k]) => k).join(', ')} (run again)` : 'no change'}\n`);
}

main().catch((e) => { console.error(e); process.exit(1); });
