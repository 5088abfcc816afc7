// One layer's tiling problem: its tensors, which output dims may be cut (operator rule and
// engine multiples), and for a candidate output tile what it costs: the L1 buffers it needs
// and the estimated cycles of moving and computing every tile. The MILP (layer-milp.ts)
// chooses among candidates; this file only measures them.
import { own } from '../../common/own';
import type { Graph, Node } from '../ir/graph';
import { opFor } from '../ops';
import { initializerToInt } from '../ops/core/convert';
import { readAttrs, whereNode } from '../ops/types';
import type { Binding } from '../lower/types';
import type { EngineTiling, KernelCost } from '../platforms/types';
import type { Config } from '../config';
import { tiledScratch } from '../kernels/scratch';
import { commandCount } from '../codegen/dma-plan';
import { regionElems, tileCounts, tileRegion, whole, type Region } from './region';
import { lcm, wholeRule, type TileRule, type TileView } from './rules';

/**
 * DMA model, the simulator's (src/sim/as/dma.ts, from GVSoC's MCHAN: 8 B/cycle per direction)
 * plus what the controller spends per command (programming it, reading a DMA table from L2,
 * waiting): fitted per engine (EngineTiling.commandCycles, 125 on Siracusa's cluster), this
 * default otherwise.
 */
export const DMA_BYTES_PER_CYCLE = 8;
export const DMA_COMMAND_CYCLES = 60;
/** Buffers are word-aligned (DMA and SIMD loads). */
export const ALIGN = 4;
export const align = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

export interface LayerTensor {
  name: string;
  role: 'input' | 'weight' | 'const' | 'output';
  index: number;
  shape: number[];
  elemBytes: number;
  /** Level the engine reads it from directly (no L1 buffer). */
  direct?: string;
}

export interface LayerProblem {
  node: Node;
  binding: Binding;
  rule: TileRule;
  view: TileView;
  tensors: LayerTensor[];
  /** Per output dim: may it be cut, in multiples of what, and at least how big. */
  splittable: boolean[];
  multiples: number[];
  minSizes: number[];
  engine: EngineTiling;
  cores: number;
  doubleBuffer: boolean;
  /** Total work of the layer (MACs or elements). */
  work: number;
  /** No earlier layer ran its kernel: its code comes from L2 into the instruction cache (set by the plan). */
  firstUse: boolean;
}

/** What one candidate tile costs. */
export interface TileCost {
  tile: number[];
  tiles: number;
  /** L1 buffer bytes per tensor (all copies), in `tensors` order; 0 for direct tensors. */
  buffers: number[];
  scratch: number;
  l1Bytes: number;
  /** Per tensor: largest tile shape, whether it stays, bytes moved, DMA commands. */
  perTensor: { tile: number[]; stays: boolean; bytesMoved: number; transfers: number }[];
  bytesMoved: number;
  /** The layer's work (MACs, elements), and its output elements, over the cores a tile keeps busy and the engine's efficiency at this tile. */
  coreWork: number;
  coreOutputs: number;
  /** Its output rows over those cores: elements over the last dim (a gemm's M, a norm's or softmax's rows), or over the rule's kernel row (TileRule.rowElems). */
  coreRows: number;
  /** The kernel, or kernel/variant, whose fitted costs price this tile (EngineTiling.kernelCosts). */
  costKey: string;
  cycles: number;
}

export function layerProblem(g: Graph, node: Node, binding: Binding, engine: EngineTiling, config: Config,
  elemBytes: (tensor: string) => number): LayerProblem {
  const entry = opFor(node);
  const where = whereNode(node);
  const attrs = readAttrs(node, entry.attrs, where) as Record<string, unknown>;
  const shapeOf = (t: string) => own(g.types, t)?.shape ?? own(g.initializers, t)?.shape;
  const output = shapeOf(node.outputs[0])!;
  const constant = (i: number) => {
    const init = node.inputs[i] ? own(g.initializers, node.inputs[i]) : undefined;
    return init ? Array.from(initializerToInt(init).data) : undefined;
  };
  const view: TileView = { node, where, attrs, inputs: node.inputs.map((i) => (i ? shapeOf(i) : undefined)), output, constant };
  const rule = entry.tiling ?? wholeRule;
  const tensors: LayerTensor[] = [];
  node.inputs.forEach((name, index) => {
    if (!name) return;
    const constant = !!own(g.initializers, name) && !g.inputs.some((v) => v.name === name);
    const shape = shapeOf(name)!;
    const big = shape.reduce((a, b) => a * b, 1) > 64;
    const role = !constant ? 'input' : index === 1 && big ? 'weight' : 'const';
    const direct = constant ? engine.directInput?.(view, index, config) : undefined;
    tensors.push({ name, role, index, shape, elemBytes: elemBytes(name), ...(direct ? { direct } : {}) });
  });
  tensors.push({ name: node.outputs[0], role: 'output', index: 0, shape: output, elemBytes: elemBytes(node.outputs[0]) });
  const splittable = rule.splittable(view);
  // The engine's kernel-friendly multiples and the op's own constraints (user ops) both hold.
  const engineMultiples = engine.multiples?.(view) ?? output.map(() => 1);
  const ruleMultiples = rule.multiples?.(view) ?? output.map(() => 1);
  const multiples = output.map((_, i) => lcm(engineMultiples[i], ruleMultiples[i]));
  const minSizes = rule.minSizes?.(view) ?? output.map(() => 1);
  const work = entry.work?.({ inputs: node.inputs.map((i) => (i ? { dtype: 'int8', shape: shapeOf(i)! } : undefined)),
    outputs: [{ dtype: 'int8', shape: output }], attrs: attrs as never }) ?? output.reduce((a, b) => a * b, 1);
  return { node, binding, rule, view, tensors, splittable, multiples, minSizes, engine, cores: config.cores, doubleBuffer: config.doubleBuffer, work, firstUse: false };
}

/** Region of tensor k for output region `out`. */
export function tensorRegion(p: LayerProblem, k: number, out: Region): Region {
  const t = p.tensors[k];
  return t.role === 'output' ? out : p.rule.inputRegion(p.view, t.index, out);
}

/** Per tile (row-major over the output's tile grid), the region of every tensor: what the tile's DMA and kernel see. */
export function tileRegions(p: LayerProblem, tile: readonly number[], count: number): Region[][] {
  return Array.from({ length: count }, (_, i) => {
    const out = tileRegion(p.view.output, tile, i);
    return p.tensors.map((_, k) => tensorRegion(p, k, out));
  });
}

/**
 * The largest region of tensor k over all tiles of `tile` (the L1 buffer must hold it). The
 * first tile's region is clipped at the border (a conv's halo), so an interior or the last
 * tile may need more: per output dim, the first two and last two tile positions are measured
 * (a region's size along a dim depends on where the tile sits along the dims it follows).
 */
export function largestRegion(p: LayerProblem, k: number, tile: readonly number[]): Region {
  const out = p.view.output;
  const counts = tileCounts(out, tile);
  const first = { start: out.map(() => 0), size: out.map((d, i) => Math.min(d, tile[i])) };
  const size = [...tensorRegion(p, k, first).size];
  out.forEach((_, d) => {
    for (const j of new Set([1, counts[d] - 2, counts[d] - 1])) {
      if (j <= 0 || j >= counts[d]) continue;
      const start = [...first.start], sz = [...first.size];
      start[d] = j * tile[d];
      sz[d] = Math.min(tile[d], out[d] - start[d]);
      tensorRegion(p, k, { start, size: sz }).size.forEach((n, i) => { if (n > size[i]) size[i] = n; });
    }
  });
  return { start: size.map(() => 0), size };
}

/** Contiguous runs in a box: the dims before its outermost cut one (a tie-break: fewer, longer rows). */
function runsOf(shape: number[], r: Region): number {
  let d = shape.length - 1;
  while (d > 0 && r.size[d] === shape[d]) d--;
  let n = 1;
  for (let i = 0; i < d; i++) n *= r.size[i];
  return n;
}

/** Tiles beyond this are costed from a sample (their count is still exact). */
const EXACT_TILES = 4096;

/** L1 bytes of a tile (buffers and scratch), without costing its transfers: the search's inner test. */
export function footprint(p: LayerProblem, tile: number[]): number {
  const out = p.view.output;
  const tiles = tileCounts(out, tile).reduce((a, b) => a * b, 1);
  let bytes = align(tiledScratch(p.binding.kernel, p.view, tile, p.cores));
  p.tensors.forEach((t, k) => {
    if (t.direct) return;
    const r = largestRegion(p, k, tile);
    const n = regionElems(r);
    const stays = t.role !== 'output' && n === t.shape.reduce((a, b) => a * b, 1);
    bytes += align(n * t.elemBytes) * (p.doubleBuffer && tiles > 1 && !stays ? 2 : 1);
  });
  return bytes;
}

export function costOf(p: LayerProblem, tile: number[]): TileCost {
  const out = p.view.output;
  const counts = tileCounts(out, tile);
  const tiles = counts.reduce((a, b) => a * b, 1);
  const step = Math.max(1, Math.floor(tiles / EXACT_TILES));
  const sampled = Math.ceil(tiles / step);
  let allRuns = 0;
  const perTensor = p.tensors.map((t, k) => {
    const r = largestRegion(p, k, tile);
    const stays = t.role !== 'output' && regionElems(r) === t.shape.reduce((a, b) => a * b, 1);
    let bytes = 0, cmds = 0, runs = 0;
    if (!t.direct) {
      if (stays) { bytes = regionElems(r) * t.elemBytes; cmds = Math.max(1, commandCount(t.shape, t.elemBytes, r.size)); runs = runsOf(t.shape, r); } else {
        for (let i = 0; i < tiles; i += step) {
          const ri = tensorRegion(p, k, tileRegion(out, tile, i));
          bytes += regionElems(ri) * t.elemBytes;
          cmds += Math.max(1, commandCount(t.shape, t.elemBytes, ri.size));
          runs += runsOf(t.shape, ri);
        }
        bytes = Math.round(bytes * tiles / sampled); cmds = Math.round(cmds * tiles / sampled);
      }
    }
    allRuns += runs * (stays ? 1 : tiles / sampled);
    return { tile: [...r.size], stays, bytesMoved: bytes, transfers: cmds };
  });
  const copies = (k: number) => (p.doubleBuffer && tiles > 1 && !perTensor[k].stays ? 2 : 1);
  const buffers = p.tensors.map((t, k) => (t.direct ? 0 : align(regionElems({ start: [], size: perTensor[k].tile }) * t.elemBytes) * copies(k)));
  const scratch = align(tiledScratch(p.binding.kernel, p.view, tile, p.cores));
  const l1Bytes = buffers.reduce((a, b) => a + b, 0) + scratch;
  const bytesMoved = perTensor.reduce((a, t) => a + t.bytesMoved, 0);
  // Kernel time: the tile's share of the work on the cores its parallel dims can keep busy.
  const par = p.rule.parallel(p.view).reduce((a, d) => a * tile[d], 1);
  const useful = Math.max(1, Math.min(p.cores, par));
  const eff = p.engine.efficiency?.(p.view, tile) ?? 1;
  const share = p.engine.coreShare?.(p.view, p.binding.kernel, tile, p.cores) ?? 1 / useful;
  const coreWork = p.work * share / eff;
  const coreOutputs = out.reduce((a, b) => a * b, 1) * share / eff;
  // A busy core takes at least one row (a block of a Transpose's copy, say, however large).
  const coreRows = Math.max(1, coreOutputs / Math.max(1, p.rule.rowElems?.(p.view, tile) ?? out[out.length - 1] ?? 1));
  // A kernel fitted to the simulator (siracusa-costs.json) has its own cycles per layer, tile,
  // unit of work, output and row; one it has not seen gets the engine's nominal throughput.
  const costKey = costKeyOf(p, tile);
  const fit = fitOf(p, costKey);
  const kernel = fit ? fittedCycles(fit, { tiles, coreWork, coreOutputs, coreRows })
    : coreWork / p.engine.opsPerCycle + tiles * p.engine.tileOverhead;
  const dma = bytesMoved / DMA_BYTES_PER_CYCLE + perTensor.reduce((a, t) => a + t.transfers, 0) * (p.engine.commandCycles ?? DMA_COMMAND_CYCLES);
  // Double buffering hides the shorter of the two behind the longer.
  // Equal estimates prefer the tile moved in fewer, longer rows (a hundredth of a cycle a row:
  // enough for the MILP to see, too little to outweigh a real difference).
  const cycles = (p.doubleBuffer && tiles > 1 ? Math.max(kernel, dma) + Math.min(kernel, dma) / tiles : kernel + dma) + allRuns * 0.01;
  return { tile: [...tile], tiles, buffers, scratch, l1Bytes, perTensor, bytesMoved, coreWork, coreOutputs, coreRows, costKey, cycles };
}

/** The kernel, or kernel/variant, that prices a tile: the path its kernel takes for it. */
export function costKeyOf(p: LayerProblem, tile: readonly number[]): string {
  const variant = p.engine.costVariant?.(p.view, p.binding.kernel, tile, p.cores);
  return variant ? `${p.binding.kernel}/${variant}` : p.binding.kernel;
}

/** The fitted kernel costs of a path: its own, else its kernel's, if the fit saw it. */
function fitOf(p: LayerProblem, costKey: string): KernelCost | undefined {
  return p.engine.kernelCosts?.[costKey] ?? p.engine.kernelCosts?.[p.binding.kernel];
}

/** A kernel's fitted cycles for a layer's terms (KernelCost), without the first use. */
export function fittedCycles(fit: KernelCost, t: { tiles: number; coreWork: number; coreOutputs: number; coreRows: number }): number {
  return fit.perLayer + t.tiles * fit.perTile + t.coreWork * fit.perWork + t.coreOutputs * fit.perOutput + t.coreRows * fit.perRow;
}

/** The fitted cycles a kernel's first run in the network adds (its code fetched from L2): not a tile's cost, added to the layer's estimate. */
export function firstUseCycles(p: LayerProblem, costKey: string): number {
  return p.firstUse ? fitOf(p, costKey)?.perFirstUse ?? 0 : 0;
}

/** Candidate sizes of one output dim: every distinct ceil(D / n), in multiples of m and at least `min` (or D itself). */
export function dimCandidates(D: number, split: boolean, m: number, min = 1): number[] {
  if (!split || D <= 1) return [D];
  const s = new Set<number>([D]);
  for (let n = 2; n <= D; n++) {
    const v = Math.ceil(Math.ceil(D / n) / m) * m;
    if (v < D && v >= min) s.add(v);
    if (Math.ceil(D / n) === 1) break;
  }
  return [...s].sort((a, b) => b - a);
}

/** Caps a candidate list to `max` values spread over it (largest and smallest kept). */
function thin(c: number[], max: number): number[] {
  if (c.length <= max) return c;
  const out = new Set<number>();
  for (let i = 0; i < max; i++) out.add(c[Math.round(i * (c.length - 1) / (max - 1))]);
  return [...out];
}

/**
 * The maximal feasible tiles: for every choice of the other cut dims, the largest size of the
 * last cut dim that fits `budget` (footprint grows with every dim). Dominated tiles (smaller
 * in every dim than a feasible one) never win, so they are left out.
 */
export function maximalTiles(p: LayerProblem, budget: number, maxCandidates = 4000): TileCost[] {
  const out = p.view.output;
  const cands = out.map((d, i) => dimCandidates(d, p.splittable[i], p.multiples[i], p.minSizes[i]));
  const cut = out.map((_, i) => i).filter((i) => cands[i].length > 1);
  if (cut.length === 0) {
    const c = costOf(p, [...out]);
    return c.l1Bytes <= budget ? [c] : [];
  }
  const last = cut[cut.length - 1];
  const outer = cut.slice(0, -1);
  // Keep the enumeration bounded: thin the outer dims' lists evenly.
  let per = 64;
  while (outer.reduce((a, d) => a * Math.min(per, cands[d].length), 1) > maxCandidates && per > 2) per--;
  const lists = outer.map((d) => thin(cands[d], per));
  const found: number[][] = [];
  const tile = [...out];
  const lastC = cands[last]; // descending
  const walk = (k: number) => {
    if (k === outer.length) {
      // Binary search the largest last-dim size that fits (footprint is monotone but for a
      // kernel's scratch, which a smaller tile keeping more cores busy can grow; what it returns fits).
      let lo = 0, hi = lastC.length - 1;
      tile[last] = lastC[hi];
      if (footprint(p, tile) > budget) return;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        tile[last] = lastC[mid];
        if (footprint(p, tile) <= budget) hi = mid; else lo = mid + 1;
      }
      tile[last] = lastC[lo];
      found.push([...tile]);
      return;
    }
    for (const v of lists[k]) { tile[outer[k]] = v; walk(k + 1); }
  };
  walk(0);
  // Drop tiles another found tile contains (it fits too and moves no more data).
  const maximal = found.filter((a) => !found.some((b) => b !== a && b.every((v, i) => v >= a[i]) && b.some((v, i) => v > a[i])));
  // A smaller tile of whole kernel blocks can be faster than a maximal one that cuts a block.
  const preferred = p.engine.preferredMultiples?.(p.view);
  const rounded = preferred ? maximal.map((t) => t.map((v, i) => {
    const m = lcm(preferred[i], p.multiples[i]);
    const r = Math.floor(v / m) * m;
    return v < out[i] && r >= Math.max(m, p.minSizes[i]) ? r : v;
  })) : [];
  const unique = [...new Map([...maximal, ...rounded].map((t) => [t.join('x'), t])).values()];
  return unique.map((t) => costOf(p, t));
}

/** The smallest tile the rules allow (every cut dim at its smallest candidate) and its footprint. */
export function smallestTile(p: LayerProblem): TileCost {
  const out = p.view.output;
  return costOf(p, out.map((d, i) => dimCandidates(d, p.splittable[i], p.multiples[i], p.minSizes[i]).at(-1)!));
}

export { whole };
