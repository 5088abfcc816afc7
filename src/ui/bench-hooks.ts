// Bench-only hooks. `npm run bench` (bench/browser.ts) opens the built app with ?bench in the
// URL; main.tsx then loads this module (its own chunk, fetched only then) and it sets
// window.__dpgBench, through which a benchmark drives the app's own workers the way the panes
// do, with data it sends from Node. Nothing on screen changes and no app state is touched: the
// hooks have their own clients, so the app's caches and workers are left alone.
//
// To add one: a method on BenchHooks (bench-api.ts) and its line below; bench/browser.ts's
// timeHook times it in the page.
import { GraphClient } from '../worker/graph-client';
import type { BenchHooks } from './bench-api';
import { BENCH_GLOBAL } from './bench-api';

export function installBenchHooks(): void {
  const graph = new GraphClient();
  const hooks: BenchHooks = {
    async graphLayout(input) {
      const l = await graph.layout(input);
      return { ms: l.ms, width: l.width, height: l.height, nodes: l.centres.length / 2 };
    },
  };
  (window as unknown as Record<string, BenchHooks>)[BENCH_GLOBAL] = hooks;
}
