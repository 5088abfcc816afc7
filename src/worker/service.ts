// What the pipeline worker does for the UI: run the pipeline and stream its events.
// pipeline.worker.ts exposes it with comlink; tests call it over a plain MessageChannel.
import type { PipelineEvent } from '../pipeline/events';
import { runPipeline } from '../pipeline/run';
import type { PipelineWorkerApi } from './api';
import type { MilpSolver } from '../compiler/tiling/milp';

function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) { /* deliberately blocks the thread: a hung stage */ }
}

/** The service, given how to load GLPK (the worker: glpk.js's browser build; tests in Node: its Node build). */
export const pipelineService = (milp: () => Promise<MilpSolver>): PipelineWorkerApi => ({
  async compile(input, config, onEvent, opts = {}) {
    // Each onEvent call is a message on the callback's own port; await them all before
    // returning so the UI has every event before it sees the result.
    const delivered: Promise<void>[] = [];
    const sink = (e: PipelineEvent) => {
      delivered.push(Promise.resolve(onEvent(e)).catch(() => undefined));
    };
    if (opts.stallMs) {
      sink({ type: 'progress', stage: 'parse', fraction: 0, message: `stalling for ${opts.stallMs} ms (test hook)` });
      stall(opts.stallMs);
    }
    const ok = await runPipeline(input, config, sink, { until: opts.until, milp });
    await Promise.all(delivered);
    return ok;
  },
});
