// The contract of the bench-only hooks (bench-hooks.ts) with `npm run bench` (bench/browser.ts).
// Only types and a name live here, so the Node side can import it without the app.
import type { LayoutInput } from '../worker/graph-api';
import type { Config } from '../compiler/config';

/** Where the hooks are: window.__dpgBench, set only when the app is opened with ?bench. */
export const BENCH_GLOBAL = '__dpgBench';

/** A hook's figures: flat numbers only, so they cross the page boundary cheaply. */
export type BenchFigures = Record<string, number>;

/**
 * Each hook does one unit of work the way the app does it and returns a few figures; `ms`, if
 * present, is the time measured inside the worker.
 */
export interface BenchHooks {
  /** Lays a graph out in a graph worker (the same GraphClient and worker the graph pane uses). */
  graphLayout(input: LayoutInput): Promise<{ ms: number; width: number; height: number; nodes: number }>;
  /**
   * Runs the pipeline in a pipeline worker up to the tile stage (the model as base64) and
   * reports the tile stage's own time (`ms`) and the plan's size.
   */
  tilePlan(input: { modelBase64: string; config: Config }): Promise<{ ms: number; steps: number; milps: number; reused: number; checkOk: number }>;
  /** Runs a Siracusa ELF (base64) on the simulator's wasm core as the app builds it; `ms` is the run alone. */
  simRun(input: { elfBase64: string }): Promise<{ ms: number; instructions: number; cycles: number; exitCode: number }>;
}
