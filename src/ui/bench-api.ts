// The contract of the bench-only hooks (bench-hooks.ts) with `npm run bench` (bench/browser.ts).
// Only types and a name live here, so the Node side can import it without the app.
import type { LayoutInput } from '../worker/graph-api';
import type { Config } from '../compiler/config';
import type { ProfileWire } from './panes/run/wire';

export type { ProfileWire };

/** Where the hooks are: window.__dpgBench, set only when the harness set window.__dpgTestHooks = { bench: true } before the page loaded (test-hooks.ts). */
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
  /**
   * Mounts the Run pane's profile view (timeline, bars, table) for a profile (its wire form,
   * src/ui/panes/run/wire.ts) in a box of width x height CSS pixels (default 1280 x 720) over the
   * page, and reports `ms` from handing it the profile to its first frame painted (the timeline
   * drawn, the next animation frame reached); then removes it. The app's own panes and state are
   * left alone. `drawnMs`: to the end of React's commit with the timeline's first frame drawn
   * (before the browser paints); `drawMs`: that frame's drawing alone; `spans`/`rects`: spans in
   * the first view and rectangles drawn for them.
   */
  profileDraw(input: { profile: ProfileWire; width?: number; height?: number }):
    Promise<{ ms: number; drawnMs: number; drawMs: number; spans: number; rects: number; layers: number }>;
  /**
   * Mounts the profile view as profileDraw does, then zooms the timeline in `steps` wheel-sized
   * steps about its middle (x0.8 each) and back out, one step and one frame drawn per animation
   * frame: `ms` is the mean frame time (animation frame to animation frame: the drawing and the
   * browser's paint), maxMs and p95Ms the slowest, drawMs the mean drawing alone; spansMax the
   * most spans one frame held.
   */
  timelineZoom(input: { profile: ProfileWire; steps?: number; width?: number; height?: number }): Promise<{ ms: number; drawMs: number; maxMs: number; p95Ms: number; frames: number; spansMax: number }>;
}
