// Bench-only hooks. `npm run bench` (bench/browser.ts) opens the built app with ?bench in the
// URL; main.tsx then loads this module (its own chunk, fetched only then) and it sets
// window.__dpgBench, through which a benchmark drives the app's own workers the way the panes
// do, with data it sends from Node. Nothing on screen changes and no app state is touched: the
// hooks have their own clients, so the app's caches and workers are left alone.
//
// To add one: a method on BenchHooks (bench-api.ts) and its line below; bench/browser.ts's
// timeHook times it in the page.
import { GraphClient } from '../worker/graph-client';
import { PipelineClient } from '../worker/client';
import type { TilePlan } from '../compiler/tiling/types';
import { createMachine, runSiracusa, type Machine } from '../sim';
import simWasmUrl from '../sim/build/sim.wasm?url';
import type { BenchHooks } from './bench-api';
import { BENCH_GLOBAL } from './bench-api';

export function installBenchHooks(): void {
  const graph = new GraphClient();
  const pipeline = new PipelineClient();
  let machine: Promise<Machine> | undefined;
  const hooks: BenchHooks = {
    async simRun({ elfBase64 }) {
      const elf = Uint8Array.from(atob(elfBase64), (c) => c.charCodeAt(0));
      const m = await (machine ??= createMachine(simWasmUrl));
      const t0 = performance.now();
      const r = runSiracusa(m, elf, { maxCycles: 1e11 });
      const ms = performance.now() - t0;
      return { ms, instructions: r.cores.reduce((s, c) => s + c.instructions, 0), cycles: r.cycles, exitCode: r.exitCode ?? -1 };
    },
    async tilePlan({ modelBase64, config }) {
      const model = Uint8Array.from(atob(modelBase64), (c) => c.charCodeAt(0));
      let plan: TilePlan | undefined;
      let error = '';
      await pipeline.compile({ model, modelName: 'network.onnx' }, config, (e) => {
        if (e.type === 'stage' && e.stage === 'tile') plan = e.result;
        if (e.type === 'error') error = e.error.what;
      }, { until: 'tile' });
      if (!plan) throw new Error(`no memory plan: ${error || 'the tile stage did not run'}`);
      return { ms: plan.ms, steps: plan.steps, milps: plan.solver.milps, reused: plan.solver.reused, checkOk: plan.check.ok ? 1 : 0 };
    },
    async graphLayout(input) {
      const l = await graph.layout(input);
      return { ms: l.ms, width: l.width, height: l.height, nodes: l.centres.length / 2 };
    },
  };
  (window as unknown as Record<string, BenchHooks>)[BENCH_GLOBAL] = hooks;
}
