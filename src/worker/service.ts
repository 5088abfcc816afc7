// What the pipeline worker does for the UI: run the pipeline and stream its events.
// pipeline.worker.ts exposes it with comlink; tests call it over a plain MessageChannel.
import type { PipelineEvent } from '../pipeline/events';
import { checkNpzFiles } from '../pipeline/npz-check';
import { elementTypes } from './element-types';
import type { PipelineInput } from '../pipeline/run';
import { runPipeline } from '../pipeline/run';
import { toErrorData } from '../common/errors';
import type { Graph } from '../compiler/ir/graph';
import type { PipelineWorkerApi } from './api';
import type { MilpSolver } from '../compiler/tiling/milp';

/** The load check: the npz files against the parsed graph; a mismatch is the parse stage's error. */
function checkFiles(graph: Graph, input: PipelineInput, sink: (e: PipelineEvent) => void): boolean {
  try {
    checkNpzFiles(graph, input);
    return true;
  } catch (err) {
    sink({ type: 'error', stage: 'parse', error: toErrorData(err, 'parse') });
    return false;
  }
}

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
    let graph: Graph | undefined;
    const ok = await runPipeline(input, config, (e) => {
      if (e.type === 'stage' && e.stage === 'parse') graph = e.result.graph;
      // The graph pane shows the element types the values really have.
      if (e.type === 'stage' && e.stage === 'lower') sink({ ...e, result: { ...e.result, elementTypes: elementTypes(e.result) } });
      else sink(e);
    }, { until: opts.until, milp });
    const checked = ok && opts.checkNpz && graph ? checkFiles(graph, input, sink) : ok;
    await Promise.all(delivered);
    return checked;
  },
});
