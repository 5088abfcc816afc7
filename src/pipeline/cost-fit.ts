// The tiler's cost model held against the simulator. Per tiled layer of a run: the terms the
// model weighs (tiles, work per core, bytes and DMA commands) beside the cycles the simulator
// measured for the layer, and, from many such layers, the least-squares fit of each kernel
// family's costs (KernelCost: per layer, tile, unit of work, output, row, first use).
// scripts/calibrate-tiler.ts writes the
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
  /** The kernel, or kernel/variant, the fit groups it by. */
  kernel: string;
  engine: string;
  tiles: number;
  /** Work units (MACs, elements) of the layer over the cores a tile keeps busy. */
  coreWork: number;
  coreOutputs: number;
  coreRows: number;
  /** No earlier layer ran its kernel. */
  firstUse: boolean;
  bytesMoved: number;
  transfers: number;
  /** Controller cycles the simulator measured for the layer, and its DMA phases among them. */
  measured: number;
  dma: number;
  /** The tiler's estimate for it. */
  estimate: number;
  /** Where it came from (the calibration script's record). */
  model?: string;
  l1?: number;
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
      node: t.node, op: t.op, kernel: t.costKey, engine: t.engine, tiles: t.tiles, coreWork: t.coreWork, coreOutputs: t.coreOutputs, coreRows: t.coreRows, firstUse: t.firstUse,
      bytesMoved: t.bytesMoved, transfers: t.tensors.reduce((s, x) => s + x.transfers, 0),
      measured: m.cycles, dma: m.phases['dma-in'] + m.phases['dma-wait'] + m.phases['dma-out'], estimate: t.estCycles,
    });
  }
  return samples;
}

/**
 * Cycles per DMA command beyond the bytes' own time, fitted over every layer's DMA phases:
 * dma = a + bytes / DMA_BYTES_PER_CYCLE + c x commands in least squares (a, the layer's own
 * DMA bookkeeping, goes to the kernels' per-layer term), c at least 0.
 */
export function fitCommandCycles(samples: readonly LayerSample[]): number {
  const rows = samples.map((s) => ({ x: [1, s.transfers], y: s.dma - s.bytesMoved / DMA_BYTES_PER_CYCLE, w: 1 }));
  const c = weightedLeastSquares(rows, [0, 1]);
  return c ? Math.max(0, c[1]) : 0;
}

/** The fitted terms, in the order of KernelCost's fields. */
const TERMS = 6;
const termsOf = (s: LayerSample) => [1, s.tiles, s.coreWork, s.coreOutputs, s.coreRows, s.firstUse ? 1 : 0];
const dot = (c: readonly number[], x: readonly number[]) => x.reduce((a, v, i) => a + c[i] * v, 0);

/** A layer the fit is further off than this factor, either way, is left out and the fit redone (a kernel path the terms do not see). */
export const OUTLIER = 1.5;

/**
 * One kernel family's fit: measured - dma = perLayer + perTile x tiles + perWork x coreWork +
 * perOutput x coreOutputs + perRow x coreRows + perFirstUse (the kernel's first layer), in least
 * squares weighted by 1 / measured (between absolute and relative error: a large layer counts
 * more than a small one, not in proportion),
 * every term at least 0: the best of the fits on each subset of the terms whose terms all came
 * out non-negative (63 small systems). With samples that cannot tell terms apart (one shape
 * only, or work proportional to outputs), the fewer terms win. Layers off by more than OUTLIER
 * are then left out and the fit redone, up to three times; how many is recorded.
 */
export function fitKernel(samples: readonly LayerSample[], commandCycles: number): KernelCost {
  const all = samples.map((s) => {
    const dma = s.bytesMoved / DMA_BYTES_PER_CYCLE + s.transfers * commandCycles;
    return { x: termsOf(s), y: s.measured - dma, w: 1 / s.measured, dma, measured: s.measured };
  });
  let rows = all, c = fitTerms(rows);
  for (let round = 0; round < 3; round++) {
    const kept = all.filter((r) => Math.abs(Math.log(r.measured / Math.max(1, dot(c, r.x) + r.dma))) <= Math.log(OUTLIER));
    if (kept.length === rows.length || kept.length === 0) break;
    rows = kept;
    c = fitTerms(rows);
  }
  return {
    perLayer: round(c[0]), perTile: round(c[1]), perWork: round(c[2], 4), perOutput: round(c[3], 3), perRow: round(c[4], 2), perFirstUse: round(c[5]),
    samples: rows.length, outliers: all.length - rows.length,
  };
}

/** The non-negative least-squares fit of the terms, by subsets (see fitKernel). */
function fitTerms(rows: readonly { x: number[]; y: number; w: number }[]): number[] {
  const err = (c: number[]) => rows.reduce((e, r) => e + r.w * (dot(c, r.x) - r.y) ** 2, 0);
  let best = new Array<number>(TERMS).fill(0), bestErr = err(best), bestTerms = 0;
  for (let mask = 1; mask < 1 << TERMS; mask++) {
    const terms = [...Array(TERMS).keys()].filter((i) => mask & (1 << i));
    const c = weightedLeastSquares(rows, terms);
    if (!c || c.some((v) => !(v >= 0))) continue;
    const full = new Array<number>(TERMS).fill(0);
    terms.forEach((t, i) => { full[t] = c[i]; });
    const e = err(full);
    // A term must pay for itself: more terms win only by a clear margin (1e-9 relative).
    if (e < bestErr * (1 - 1e-9) || (e <= bestErr * (1 + 1e-9) && terms.length < bestTerms)) { best = full; bestErr = e; bestTerms = terms.length; }
  }
  return best;
}

/** The weighted least-squares coefficients of the chosen columns (normal equations), or undefined when they are (nearly) dependent. */
function weightedLeastSquares(rows: readonly { x: number[]; y: number; w: number }[], cols: readonly number[]): number[] | undefined {
  const n = cols.length;
  const A = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (const r of rows) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) A[i][j] += r.w * r.x[cols[i]] * r.x[cols[j]];
      A[i][n] += r.w * r.x[cols[i]] * r.y;
    }
  }
  const scale = A.map((row, i) => Math.sqrt(row[i]) || 1);
  for (let i = 0; i < n; i++) for (let j = 0; j <= n; j++) A[i][j] /= scale[i] * (j < n ? scale[j] : 1);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(A[k][i]) > Math.abs(A[p][i])) p = k;
    if (Math.abs(A[p][i]) < 1e-9) return undefined;
    [A[i], A[p]] = [A[p], A[i]];
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const f = A[k][i] / A[i][i];
      for (let j = i; j <= n; j++) A[k][j] -= f * A[i][j];
    }
  }
  return A.map((row, i) => row[n] / row[i] / scale[i]);
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
