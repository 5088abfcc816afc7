// Bench-only hooks. `npm run bench` (bench/browser.ts) opens the built app with the bench test
// hook set (window.__dpgTestHooks = { bench: true }, test-hooks.ts; an address's ?bench is
// ignored); main.tsx then loads this module (its own chunk, fetched only then) and it sets
// window.__dpgBench, through which a benchmark drives the app's own workers the way the panes
// do, with data it sends from Node. No app state is touched: the hooks have their own clients,
// so the app's caches and workers are left alone (the profile hooks mount their own copy of the
// Run pane's profile view over the page while they measure, and remove it).
//
// To add one: a method on BenchHooks (bench-api.ts) and its line below; bench/browser.ts's
// timeHook times it in the page.
import { GraphClient } from '../worker/graph-client';
import { PipelineClient } from '../worker/client';
import type { TilePlan } from '../compiler/tiling/types';
import { createMachine, runSiracusa, type Machine } from '../sim';
import simWasmUrl from '../sim/build/sim.wasm?url';
import type { BenchHooks, ProfileWire } from './bench-api';
import { BENCH_GLOBAL } from './bench-api';
import type { RunProfile } from '../sim/profile/types';
import { mountProfile, nextFrame } from './panes/run/bench-mount';
import { profileFromWire } from './panes/run/wire';

/** Wire profiles decoded once per argument object (timeHook sends its argument once, calls many times). */
const decoded = new WeakMap<ProfileWire, RunProfile>();
function decode(w: ProfileWire): RunProfile {
  let p = decoded.get(w);
  if (!p) decoded.set(w, (p = profileFromWire(w)));
  return p;
}

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
    async profileDraw({ profile, width = 1280, height = 720 }) {
      const p = decode(profile);
      const m = mountProfile(p, width, height);
      try {
        const { ms, drawnMs, stats } = await m.firstPaint;
        return { ms, drawnMs, drawMs: stats.ms, spans: stats.spans, rects: stats.rects, layers: p.layers.length };
      } finally {
        m.unmount();
      }
    },
    async timelineZoom({ profile, steps = 30, width = 1280, height = 720 }) {
      const m = mountProfile(decode(profile), width, height);
      try {
        await m.firstPaint;
        const api = m.api();
        // Each animation frame zooms and draws, as the wheel does: the interval between frames
        // is the frame time (drawing, then the browser's paint); drawMs the drawing alone.
        const frames: number[] = [];
        let drawMs = 0, spansMax = 0;
        let last = await nextFrame();
        for (let i = 0; i < 2 * steps; i++) {
          api.zoom(i < steps ? 0.8 : 1.25, 0.5);
          const s = api.drawNow();
          drawMs += s.ms;
          spansMax = Math.max(spansMax, s.spans);
          const now = await nextFrame();
          frames.push(now - last);
          last = now;
        }
        const sorted = [...frames].sort((a, b) => a - b);
        return {
          ms: frames.reduce((a, b) => a + b, 0) / frames.length, drawMs: drawMs / frames.length, maxMs: sorted.at(-1)!,
          p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!, frames: frames.length, spansMax,
        };
      } finally {
        m.unmount();
      }
    },
    async graphLayout(input) {
      const l = await graph.layout(input);
      return { ms: l.ms, width: l.width, height: l.height, nodes: l.centres.length / 2 };
    },
  };
  (window as unknown as Record<string, BenchHooks>)[BENCH_GLOBAL] = hooks;
}
