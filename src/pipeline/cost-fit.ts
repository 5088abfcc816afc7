// The tiler's cost model held against the simulator. Per tiled layer of a run: the terms the
// model weighs (tiles, work per core, bytes and DMA commands) beside the cycles the simulator
// measured for the layer, and, from many such layers, the least-squares fit of each kernel
// family's cycles per tile and per unit of work on a core. scripts/calibrate-tiler.ts writes the
// fit to src/compiler/platforms/siracusa-costs.json (the tiler's data); cost-fit.test.ts checks
// the estimates of the networks the issue names.
import type { CodegenResult } from '../compiler/codegen/types';
import type { Config } from '../compiler/config';
import type { TilePlan } from '../compiler/tiling/types';
import { DMA_BYTES_PER_CYCLE } from '../compiler/tiling/layer';
import type { KernelCost } from '../compiler/platforms/types';
import type { Machine } from '../sim/machine';
import { MemoryObjectCache, runBuiltin } from '../sim/run/builtin';
import { nodeMilp } from './node/milp';
import { runPipeline } from './run';
import type { PipelineInput } from './run';

export interface LayerSample {
  node: string;
  op: string;
  kernel: string;
  engine: string;
  tiles: number;
  /** Work units (MACs, elements) of the layer over the cores a tile keeps busy. */
  coreWork: number;
  bytesMoved: number;
  transfers: number;
  /** Controller cycles the simulator measured for the layer, and its DMA phases among them. */
  measured: number;
  dma: number;
  /** The tiler's estimate for it. */
  estimate: number;
}

/** Compiles `input` with `config`, runs it profiled on the simulator, and pairs every tiled layer's cost terms with its cycles. */
export async function sampleLayers(input: PipelineInput, config: Config, machine: () => Promise<Machine>): Promise<LayerSample[]> {
  let plan: TilePlan | undefined, code: CodegenResult | undefined, error: string | undefined;
  await runPipeline(input, config, (e) => {
    if (e.type === 'stage' && e.stage === 'tile') plan = e.result;
    if (e.type === 'stage' && e.stage === 'codegen') code = e.result;
    if (e.type === 'error') error = e.error.what;
  }, { milp: nodeMilp, until: 'codegen' });
  if (!plan || !code) throw new Error(`compile failed: ${error ?? 'no code'}`);
  const run = await runBuiltin(code, config, { machine, cache: new MemoryObjectCache(), profile: true });
  if (run.errors !== 0) throw new Error(`the run does not match the golden outputs (${run.errors ?? 'no'} errors)`);
  const measured = new Map(run.profile!.layers.map((l) => [l.node, l]));
  const samples: LayerSample[] = [];
  for (const t of plan.tilings) {
    const m = measured.get(t.node);
    if (!m || m.cycles === 0) continue;
    samples.push({
      node: t.node, op: t.op, kernel: t.kernel, engine: t.engine, tiles: t.tiles, coreWork: t.coreWork,
      bytesMoved: t.bytesMoved, transfers: t.tensors.reduce((s, x) => s + x.transfers, 0),
      measured: m.cycles, dma: m.phases['dma-in'] + m.phases['dma-wait'] + m.phases['dma-out'], estimate: t.estCycles,
    });
  }
  return samples;
}

/**
 * Cycles per DMA command beyond the bytes' own time, fitted over every layer's DMA phases
 * (dma = bytes / DMA_BYTES_PER_CYCLE + c x commands, least squares, at least 0).
 */
export function fitCommandCycles(samples: readonly LayerSample[]): number {
  let num = 0, den = 0;
  for (const s of samples) {
    if (s.transfers === 0) continue;
    num += (s.dma - s.bytesMoved / DMA_BYTES_PER_CYCLE) * s.transfers;
    den += s.transfers * s.transfers;
  }
  return den > 0 ? Math.max(0, num / den) : 0;
}

/**
 * One kernel family's fit: measured - dma = perTile x tiles + perWork x coreWork, in least
 * squares of the relative error (a small layer counts as much as a large one), both terms at
 * least 0.
 */
export function fitKernel(samples: readonly LayerSample[], commandCycles: number): KernelCost {
  const rows = samples.map((s) => {
    const y = s.measured - s.bytesMoved / DMA_BYTES_PER_CYCLE - s.transfers * commandCycles;
    const w = 1 / (s.measured * s.measured);
    return { t: s.tiles, u: s.coreWork, y, w };
  });
  const solve1 = (f: (r: (typeof rows)[number]) => number) => {
    let num = 0, den = 0;
    for (const r of rows) { num += r.w * f(r) * r.y; den += r.w * f(r) * f(r); }
    return den > 0 ? Math.max(0, num / den) : 0;
  };
  let stt = 0, suu = 0, stu = 0, sty = 0, suy = 0;
  for (const r of rows) { stt += r.w * r.t * r.t; suu += r.w * r.u * r.u; stu += r.w * r.t * r.u; sty += r.w * r.t * r.y; suy += r.w * r.u * r.y; }
  const det = stt * suu - stu * stu;
  let perTile = det !== 0 ? (sty * suu - suy * stu) / det : NaN;
  let perWork = det !== 0 ? (suy * stt - sty * stu) / det : NaN;
  if (!(perTile >= 0) || !(perWork >= 0)) {
    // The unconstrained optimum has a negative term: the better of the two one-term fits.
    const a = solve1((r) => r.t), b = solve1((r) => r.u);
    const err = (pt: number, pw: number) => rows.reduce((s, r) => s + r.w * (pt * r.t + pw * r.u - r.y) ** 2, 0);
    [perTile, perWork] = err(a, 0) <= err(0, b) ? [a, 0] : [0, b];
  }
  return { perTile: round(perTile), perWork: round(perWork, 4), samples: rows.length };
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** Measured over estimated cycles, and the layer furthest from 1. */
export function worstLayer(samples: readonly LayerSample[]): { sample: LayerSample; ratio: number } | undefined {
  let worst: { sample: LayerSample; ratio: number } | undefined;
  for (const s of samples) {
    const ratio = s.measured / s.estimate;
    if (!worst || Math.abs(Math.log(ratio)) > Math.abs(Math.log(worst.ratio))) worst = { sample: s, ratio };
  }
  return worst;
}

export type { KernelCost };
