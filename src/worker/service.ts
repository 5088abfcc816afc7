// What the worker does for the UI: run the pipeline and stream its events, one run at a time.
// The run stage builds the generated C with the playground's toolchain and runs it on the
// simulator; the compiled objects stay cached in this worker across runs, so an edit recompiles
// only the files it touched. pipeline.worker.ts exposes it with comlink; tests call it over a
// plain MessageChannel.
import type { PipelineEvent } from '../pipeline/events';
import { checkNpzFiles } from '../pipeline/npz-check';
import { elementTypes } from './element-types';
import type { PipelineInput, RunOptions } from '../pipeline/run';
import { rerunProgram, runPipeline } from '../pipeline/run';
import { toErrorData } from '../common/errors';
import type { Config } from '../compiler/config';
import type { Graph } from '../compiler/ir/graph';
import { platformFor } from '../compiler/platforms';
import { PLATFORMS } from '../compiler/platforms/names';
import type { PipelineWorkerApi } from './api';
import type { MilpSolver } from '../compiler/tiling/milp';
import type { Machine } from '../sim/machine';
import { builtinRunner, prebuildSiracusa, type ObjectCache } from '../sim/run/builtin';

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

/** Collects the events of one call so it can wait for their delivery before it returns. */
function collector(onEvent: (e: PipelineEvent) => void | Promise<void>) {
  // Each onEvent call is a message on the callback's own port; await them all before
  // returning so the UI has every event before it sees the result.
  const delivered: Promise<void>[] = [];
  const sink = (e: PipelineEvent) => {
    delivered.push(Promise.resolve(onEvent(e)).catch(() => undefined));
  };
  return { sink, flushed: () => Promise.all(delivered) };
}

export interface ServiceOptions {
  /**
   * While idle (at start and after each call), compile the units every program shares (crt0,
   * HAL, libc, kernel library) into the worker's object cache, so the first run compiles only
   * its generated files with the compiler already warm in the JIT. Any call stops it between
   * units.
   */
  prebuildWhenIdle?: boolean;
  /** How long the worker must have been idle before it starts prebuilding (default 2000 ms). */
  idleMs?: number;
  /** Where compiled objects are kept (default: this thread's cache). */
  cache?: ObjectCache;
}

/** The runtimes the platforms' programs link (each prebuilt once). */
const RUNTIMES = [...new Set(PLATFORMS.map((p) => platformFor(p).runtime).filter((r): r is string => !!r))];

/**
 * The service, given how to load GLPK (the worker: glpk.js's browser build; tests in Node: its
 * Node build) and the simulator (without one the run stage is skipped).
 */
export function pipelineService(milp: () => Promise<MilpSolver>, machine?: () => Promise<Machine>, opts: ServiceOptions = {}): PipelineWorkerApi {
  const runner = machine ? builtinRunner({ machine, cache: opts.cache }) : undefined;
  /** How the run stage runs on this configuration. */
  const runOpts = (config: Config): Pick<RunOptions, 'runner' | 'noRunner'> => {
    const p = platformFor(config.platform);
    if (!runner) return { noRunner: 'no simulator was loaded in this worker' };
    if (!p.runtime) return { noRunner: `${p.title} code has no Siracusa runtime to run on the simulator (the CLI runs it natively: dpg run -p ${config.platform} --cc host)` };
    return { runner };
  };
  // One run at a time: a new call aborts the ones before it and waits until they stopped.
  const live = new Set<AbortController>();
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const ctl = new AbortController();
    live.add(ctl);
    const result = queue.then(() => fn(ctl.signal)).finally(() => live.delete(ctl));
    queue = result.catch(() => undefined);
    return result;
  };
  // The idle prebuild is queued like a call, and the next call aborts it like one.
  let prebuilt: Promise<number> | undefined;
  const prebuild = (): Promise<number> => {
    if (prebuilt) return prebuilt;
    const p = enqueue(async (signal) => {
      let n = 0;
      for (const r of RUNTIMES) if (!signal.aborted) n += await prebuildSiracusa(r, { signal, cache: opts.cache });
      return n;
    }).finally(() => { prebuilt = undefined; });
    prebuilt = p;
    return p;
  };
  // Idle: no call for idleMs (the app's first calls, a model check and a compile, come at once).
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const whenIdle = () => {
    if (!opts.prebuildWhenIdle || !runner) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => { if (!live.size) void prebuild(); }, opts.idleMs ?? 2000);
  };
  const exclusive = <T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    clearTimeout(idleTimer);
    for (const c of live) c.abort();
    const result = enqueue(fn);
    void result.finally(() => { if (!live.size) whenIdle(); }).catch(() => undefined);
    return result;
  };
  whenIdle();

  return {
    compile(input, config, onEvent, opts = {}) {
      return exclusive(async (signal) => {
        const { sink, flushed } = collector(onEvent);
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
        }, { until: opts.until, milp, signal, edits: opts.edits, maxCycles: opts.maxCycles, profile: opts.profile ?? true, ...runOpts(config) });
        const checked = ok && opts.checkNpz && graph ? checkFiles(graph, input, sink) : ok;
        await flushed();
        return checked;
      });
    },

    run(code, config, onEvent, opts = {}) {
      return exclusive(async (signal) => {
        const { sink, flushed } = collector(onEvent);
        const ok = await rerunProgram(code, config, sink, { signal, edits: opts.edits, maxCycles: opts.maxCycles, profile: opts.profile ?? true, ...runOpts(config) });
        await flushed();
        return ok;
      });
    },

    cancel() {
      for (const c of live) c.abort();
    },

    prebuild() {
      return runner ? prebuild() : Promise.resolve(0);
    },
  };
}
