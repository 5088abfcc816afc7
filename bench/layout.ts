// Graph layout (issue #4: "layout time of the largest graph in Chromium"). The graph pane's
// layout of the biggest graphs we have, in the app's graph worker in headless Chromium
// (bench/browser.ts), beside the very same layout code (src/worker/layout.ts) run in Node in
// this process: the ratio is what running in the browser's worker costs or saves. Both figures
// are the time layoutGraph measures around itself (best of 3 after a warm-up); the page's round
// trip, which adds copying the graph to the worker and the layout back, is in the note.
import { readFileSync } from 'node:fs';
import type { Graph } from '../src/compiler/ir/graph';
import { readOnnx } from '../src/compiler/onnx/read';
import { runPasses } from '../src/compiler/passes/manager';
import { platformFor } from '../src/compiler/platforms';
import { inferTypes } from '../src/compiler/shapes/infer';
import { DEFAULT_CONFIG } from '../src/compiler/config';
import { graphView, layoutInput } from '../src/ui/panes/graph/model';
import type { LayoutInput } from '../src/worker/graph-api';
import { layoutGraph } from '../src/worker/layout';
import { blockNetwork } from '../e2e/networks';
import { inChromium, timeHook } from './browser';
import type { Bench, BenchRow } from './harness';
import { sharedTest } from './paths';

const LLAMA = 'Models/microLlama/INT8/microLlama64_parallel';
const REPS = 3;

interface Subject {
  name: string;
  /** What the graph pane sends the worker for this graph. */
  input: LayoutInput;
}

function subject(name: string, g: Graph): Subject {
  return { name, input: layoutInput(graphView(g)) };
}

function subjects(): Subject[] {
  const parsed = inferTypes(readOnnx(readFileSync(sharedTest(`${LLAMA}/network.onnx`)), 'network.onnx'));
  const platform = DEFAULT_CONFIG.platform;
  const lowered = runPasses(parsed, platformFor(platform).passes).at(-1)!.graph;
  return [
    subject('microLlama64_parallel, input graph', parsed),
    subject(`microLlama64_parallel, lowered (${platform})`, lowered),
    // The generated network e2e/graph-large.e2e.ts opens in the app.
    subject('generated 1200-node network', blockNetwork(1200)),
  ];
}

/** Best layoutGraph time in Node after a warm-up, and the layout's size to compare with the worker's. */
function inNode(input: LayoutInput): { ms: number; width: number; height: number } {
  let l = layoutGraph(input);
  let ms = Infinity;
  for (let i = 0; i < REPS; i++) {
    l = layoutGraph(input);
    ms = Math.min(ms, l.ms);
  }
  return { ms, width: l.width, height: l.height };
}

export const layoutBench: Bench = {
  name: 'layout',
  run: async () => {
    const graphs = subjects();
    const node = graphs.map((s) => inNode(s.input));
    const chromium = await inChromium(async (page) => {
      const out = [];
      for (const s of graphs) out.push(await timeHook(page, 'graphLayout', s.input, REPS));
      return out;
    });
    return graphs.map((s, i): BenchRow => {
      const size = `${s.input.nodes.length} boxes, ${s.input.edges.length} edges`;
      const base = { name: 'same code in Node', value: node[i]!.ms };
      const name = `graph layout, ${s.name} (Chromium graph worker)`;
      if ('skipped' in chromium) return { name, value: NaN, unit: 'ms', baseline: base, note: `${size}; ${chromium.skipped}` };
      const c = chromium.result[i]!;
      const same = c.figures.width === node[i]!.width && c.figures.height === node[i]!.height;
      return {
        name, value: c.ms ?? NaN, unit: 'ms', baseline: base,
        note: `${size}; round trip from the page ${c.wallMs.toFixed(0)} ms; ${same ? 'same layout as Node' : 'LAYOUT DIFFERS from Node'}`,
      };
    });
  },
};
