// The tile stage: from the lowered graph and its kernel bindings to a memory plan.
//  1. Per layer (tiled configurations, engines that tile): the maximal feasible output tiles
//     under the L1 budget, then a small MILP choosing the tile and stacking its L1 buffers.
//     Identical layers (same kernel, shapes, attributes) reuse one solution.
//  2. Time: each tile of each layer is one step; a layer's L1 buffers live over its steps.
//  3. The home level (L2, or L3 with --defaultMemLevel L3) of every tensor over the whole
//     network: constants for the whole run, activations from their producer to their last
//     reader, Reshape aliases sharing their source's buffer (home.ts allocates them).
//     With the home in L3, each layer's operands are staged in L2 for the layer's steps.
//  4. An independent checker verifies every level.
import { own } from '../../common/own';
import { fail } from '../../common/errors';
import type { Graph, Node } from '../ir/graph';
import type { LowerResult } from '../lower/types';
import { DTYPES } from '../ir/dtype';
import { intTypeOf, valueRanges, type IntType } from '../passes/ranges';
import { kernelRanges } from '../lower/input-typing';
import { platformFor } from '../platforms';
import type { Config } from '../config';
import { checkPlan } from './check';
import { allocate, type Item } from './home';
import { align, firstUseCycles, layerProblem, maximalTiles, smallestTile, tileRegions, type LayerProblem } from './layer';
import { solveLayer, type LayerSolution } from './layer-milp';
import type { MilpSolver } from './milp';
import type { Buffer, LayerSteps, LayerTiling, LevelPlan, TilePlan } from './types';

export interface PlanOptions {
  solver: MilpSolver;
  /** Per-layer MILP time limit, seconds. */
  timeLimitSec?: number;
  progress?: (fraction: number, message: string) => void;
}

const INT_BYTES: Record<IntType, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4 };

/** Bytes per element as the kernels store each tensor: the narrowest integer type holding its values. */
export function storageBytes(g: Graph, lower: LowerResult): (tensor: string) => number {
  const ranges = valueRanges(g, kernelRanges(lower.inputTypes ?? []));
  return (t) => {
    const r = ranges.get(t);
    const ty = r ? intTypeOf(r) : undefined;
    if (ty) return INT_BYTES[ty];
    const dt = own(g.types, t)?.dtype ?? own(g.initializers, t)?.dtype;
    return Math.min(4, (dt && DTYPES[dt]?.bytes) || 4);
  };
}

const isAlias = (kernel: string) => kernel.endsWith('_alias');

export async function planMemory(lower: LowerResult, config: Config, opts: PlanOptions): Promise<TilePlan> {
  const t0 = performance.now();
  const g = lower.snapshots[lower.snapshots.length - 1].graph;
  const platform = platformFor(config.platform);
  const engines = new Map(platform.engines.map((e) => [e.name, e]));
  const bytesOf = storageBytes(g, lower);
  const hasL1 = platform.memory.some((m) => m.name === 'L1');
  const tiled = config.tiled && hasL1;
  const l1 = config.l1;

  // 1. Per-layer tiling.
  const problems: LayerProblem[] = [];
  const ran = new Set<string>();
  for (const node of g.nodes) {
    const b = own(lower.bindings, node.name);
    if (!b) fail('internal', 'node has no kernel binding', `node "${node.name}" (${node.op})`);
    const e = engines.get(b.engine)?.tiling;
    if (tiled && e && !isAlias(b.kernel)) problems.push({ ...layerProblem(g, node, b, e, config, bytesOf), firstUse: !ran.has(b.kernel) });
    ran.add(b.kernel);
  }
  const tooBig = problems.map((p) => ({ p, min: smallestTile(p) })).filter(({ min }) => min.l1Bytes > l1);
  if (tooBig.length) {
    const need = Math.max(...tooBig.map((t) => t.min.l1Bytes));
    const first = tooBig.sort((a, b) => b.min.l1Bytes - a.min.l1Bytes)[0];
    const dims = first.p.view.output.map((d, i) => (first.min.tile[i] === d ? `${d}` : `${first.min.tile[i]}/${d}`)).join('x');
    fail('does-not-fit',
      `${tooBig.length} layer${tooBig.length > 1 ? 's do' : ' does'} not fit L1 = ${l1} B even with the smallest tile; the largest, ${first.p.binding.kernel}, needs ${first.min.l1Bytes} B (tile ${dims}${config.doubleBuffer ? ', double-buffered' : ''})`,
      `node "${first.p.node.name}" (${first.p.node.op})`,
      need <= platform.limits.l1.max
        ? `use an L1 of at least ${need} B${config.doubleBuffer ? ', or turn double buffering off' : ''}; the network fits from L1 = ${need} B`
        // The smallest tile needs more than the platform can give: no L1 setting helps.
        : `no L1 setting fits it: ${platform.title} has at most ${platform.limits.l1.max} B of L1 for tiles; ${config.doubleBuffer ? 'turn double buffering off or ' : ''}compile it untiled`);
  }
  const solutions = new Map<string, LayerSolution>();
  const cache = new Map<string, LayerSolution>();
  let milps = 0, reused = 0, solverMs = 0;
  for (let i = 0; i < problems.length; i++) {
    const p = problems[i];
    opts.progress?.(0.9 * i / problems.length, `tiling ${p.node.name} (${i + 1}/${problems.length})`);
    const key = signature(p, l1);
    let s = cache.get(key);
    if (s) reused++;
    else {
      const cands = maximalTiles(p, l1);
      s = await solveLayer(p, cands, l1, opts.solver, opts.timeLimitSec ?? 2);
      (s as LayerSolution & { candidates?: number }).candidates = cands.length;
      cache.set(key, s);
      milps++; solverMs += s.ms;
    }
    solutions.set(p.node.name, s);
  }

  // 2. Time steps.
  const layers: LayerSteps[] = [];
  let step = 0;
  for (const node of g.nodes) {
    const s = solutions.get(node.name);
    const count = isAlias(own(lower.bindings, node.name)!.kernel) ? 0 : s ? s.choice.tiles : 1;
    layers.push({ node: node.name, start: step, count });
    step += count;
  }
  const steps = Math.max(1, step);
  const span = new Map(layers.map((l) => [l.node, l]));

  // L1 buffers of each tiled layer, over its steps.
  const buffers: Buffer[] = [];
  const tilings: LayerTiling[] = [];
  for (const p of problems) {
    const s = solutions.get(p.node.name)!;
    const l = span.get(p.node.name)!;
    s.bufferNames.forEach((name, j) => {
      const k = s.bufferTensors[j];
      const t = k === undefined ? undefined : p.tensors[k];
      const copies = k !== undefined && p.doubleBuffer && s.choice.tiles > 1 && !s.choice.perTensor[k].stays ? 2 : 1;
      buffers.push({
        id: `L1:${p.node.name}:${name}`, level: 'L1', offset: s.offsets[j], bytes: s.bufferBytes[j], start: l.start, end: l.start + l.count,
        role: t ? t.role : 'scratch', tensor: t ? t.name : p.node.name, node: p.node.name,
        shape: k !== undefined ? s.choice.perTensor[k].tile : [s.choice.scratch], copies, ...(k !== undefined ? { k } : {}),
      });
    });
    tilings.push(layerTiling(p, s));
  }

  // 3. Home level: constants, activations (alias groups share a buffer), staging.
  const home = tiled || hasL1 ? (config.defaultMemLevel === 'L3' ? 'L3' : 'L2') : platform.memory[0].name;
  const levelSize = (name: string) => (name === 'L1' ? l1 : name === 'L2' ? config.l2 : platform.memory.find((m) => m.name === name)?.bytes ?? 0);
  const group = aliasGroups(g, lower);
  const homeItems = new Map<string, Item[]>();
  const meta = new Map<string, Omit<Buffer, 'offset' | 'level'>>();
  const put = (level: string, item: Item, m: Omit<Buffer, 'offset' | 'level'>) => {
    if (!homeItems.has(level)) homeItems.set(level, []);
    homeItems.get(level)!.push(item);
    meta.set(`${level}|${item.id}`, m);
  };
  const producer = new Map<string, string>();
  for (const n of g.nodes) for (const o of n.outputs) producer.set(o, n.name);
  const lastUse = new Map<string, number>();
  for (const n of g.nodes) {
    const l = span.get(n.name)!;
    for (const i of n.inputs) if (i) lastUse.set(group(i), Math.max(lastUse.get(group(i)) ?? 0, l.start + Math.max(1, l.count)));
  }
  for (const o of g.outputs) lastUse.set(group(o.name), steps);
  const constants = Object.keys(g.initializers).filter((n) => !g.inputs.some((v) => v.name === n))
    .filter((n) => g.nodes.some((node) => node.inputs.includes(n)));
  const directLevel = new Map<string, string>();
  for (const p of problems) for (const t of p.tensors) if (t.direct) directLevel.set(t.name, t.direct);
  // Untiled N-EUREKA layers with the weight memory on still read their weights from it.
  if (config.neurekaWmem) for (const n of g.nodes) if (own(lower.bindings, n.name)?.engine === 'neureka' && n.inputs[1] && own(g.initializers, n.inputs[1])) directLevel.set(n.inputs[1], 'WMEM');
  for (const c of constants) {
    const init = own(g.initializers, c)!;
    const bytes = align(init.shape.reduce((a, b) => a * b, 1) * bytesOf(c));
    const level = directLevel.get(c) ?? home;
    put(level, { id: c, bytes, start: 0, end: steps }, { id: `${level}:${c}`, bytes, start: 0, end: steps, role: 'constant', tensor: c, shape: init.shape, copies: 1 });
  }
  const seen = new Set<string>();
  const activations = [...g.inputs.map((v) => v.name), ...g.nodes.flatMap((n) => n.outputs.filter(Boolean))];
  for (const t of activations) {
    const root = group(t);
    if (seen.has(root) || own(g.initializers, root)) continue;
    seen.add(root);
    const members = activations.filter((a) => group(a) === root);
    const shape = own(g.types, root)?.shape ?? [];
    const bytes = align(Math.max(...members.map((m) => (own(g.types, m)?.shape ?? []).reduce((a, b) => a * b, 1) * bytesOf(m))));
    const prod = producer.get(root);
    const start = prod ? span.get(prod)!.start : 0;
    const end = Math.max(start + 1, lastUse.get(root) ?? start + 1);
    put(home, { id: root, bytes, start, end }, {
      id: `${home}:${root}`, bytes, start, end, role: 'activation', tensor: root, node: prod, shape, copies: 1,
      ...(members.length > 1 ? { aliases: members.filter((m) => m !== root) } : {}),
    });
  }
  if (home === 'L3') {
    // Each layer's operands are copied L3 -> L2 (blocking) for its steps, and its output back.
    for (const n of g.nodes) {
      const l = span.get(n.name)!;
      if (l.count === 0) continue;
      for (const t of [...n.inputs.filter(Boolean), ...n.outputs.filter(Boolean)]) {
        if (directLevel.has(t)) continue;
        const shape = own(g.types, t)?.shape ?? own(g.initializers, t)?.shape ?? [];
        const bytes = align(shape.reduce((a, b) => a * b, 1) * bytesOf(t));
        const id = `${n.name}:${t}`;
        put('L2', { id, bytes, start: l.start, end: l.start + l.count }, { id: `L2:${id}`, bytes, start: l.start, end: l.start + l.count, role: 'staging', tensor: t, node: n.name, shape, copies: 1 });
      }
    }
  }

  const levels: LevelPlan[] = [];
  if (tiled) {
    const l1Bufs = buffers.filter((b) => b.level === 'L1');
    levels.push({ name: 'L1', capacity: l1, used: l1Bufs.reduce((m, b) => Math.max(m, b.offset + b.bytes), 0), buffers: l1Bufs, allocator: `per-layer MILP (glpk.js): ${milps} solved, ${reused} reused`, lowerBound: Math.max(0, ...tilings.map((t) => t.l1Bytes)) });
  }
  const order = ['L1', 'L2', 'L3', 'WMEM', ...platform.memory.map((m) => m.name)];
  for (const level of [...homeItems.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    opts.progress?.(0.92, `allocating ${level}`);
    const items = homeItems.get(level)!;
    const a = await allocate(items, opts.solver);
    const bufs = items.map((it) => ({ ...meta.get(`${level}|${it.id}`)!, level, offset: a.offsets.get(it.id)! }) as Buffer);
    buffers.push(...bufs);
    const cap = levelSize(level);
    levels.push({ name: level, capacity: cap, used: a.peak, buffers: bufs, allocator: a.how, lowerBound: a.lowerBound });
    if (a.peak > cap) {
      const consts = bufs.filter((b) => b.role === 'constant').reduce((s, b) => s + b.bytes, 0);
      const field = level === 'L2';
      fail('does-not-fit',
        `the network needs ${a.peak} B of ${level} (constants ${consts} B, activations and staging at most ${a.peak - consts} B live at once); ${level} has ${cap} B`,
        `memory level ${level}`,
        field && a.peak <= platform.limits.l2.max ? `use an L2 of at least ${a.peak} B${home === 'L2' ? ', or make L3 the default memory level to keep tensors off-chip' : ''}`
          : field && home === 'L2' ? `more than ${platform.title}'s ${platform.limits.l2.max} B of L2: make L3 the default memory level to keep tensors off-chip` : 'use a smaller network');
    }
  }

  // 4. The independent check.
  const capacity = Object.fromEntries(levels.map((l) => [l.name, l.capacity]));
  const check = checkPlan(buffers, capacity);
  opts.progress?.(1, 'memory plan checked');
  return {
    platform: config.platform, tiled, cores: config.cores, l1, doubleBuffer: config.doubleBuffer, profileTiling: config.profileTiling, homeLevel: home, steps, layers, tilings, levels, check,
    solver: { milps, reused, ms: solverMs }, ms: performance.now() - t0,
  };
}

/** Tensors that share memory: a Reshape alias's output is its input's buffer. Returns the root name. */
function aliasGroups(g: Graph, lower: LowerResult): (t: string) => string {
  const parent = new Map<string, string>();
  const find = (t: string): string => { let r = t; while (parent.has(r)) r = parent.get(r)!; return r; };
  for (const n of g.nodes) {
    if (!isAlias(own(lower.bindings, n.name)?.kernel ?? '')) continue;
    const [src] = n.inputs, [dst] = n.outputs;
    if (src && dst && !own(g.initializers, src)) parent.set(dst, find(src));
  }
  return find;
}

function signature(p: LayerProblem, l1: number): string {
  const attrs = Object.fromEntries(Object.entries(p.node.attrs).map(([k, a]) => [k, a.kind === 'tensor' ? Array.from(a.value.data as ArrayLike<number>, Number) : a.value]));
  return JSON.stringify([p.binding.kernel, p.view.inputs, p.view.output, attrs, p.tensors.map((t) => [t.role, t.elemBytes, t.direct ?? '']), l1, p.cores, p.doubleBuffer]);
}

function layerTiling(p: LayerProblem, s: LayerSolution): LayerTiling {
  const c = s.choice;
  return {
    node: p.node.name, op: p.node.op, engine: p.binding.engine, kernel: p.binding.kernel, rule: p.rule.name, ruleKind: p.rule.kind,
    output: p.view.output, tile: c.tile, tiles: c.tiles,
    tensors: p.tensors.map((t, k) => ({
      tensor: t.name, role: t.role, index: t.index, shape: t.shape, tile: c.perTensor[k].tile, elemBytes: t.elemBytes,
      stays: c.perTensor[k].stays, bytesMoved: c.perTensor[k].bytesMoved, transfers: c.perTensor[k].transfers,
      ...(t.direct ? { direct: t.direct } : {}),
    })),
    regions: tileRegions(p, c.tile, c.tiles),
    l1Bytes: c.l1Bytes, bytesMoved: c.bytesMoved, estCycles: Math.round(c.cycles + firstUseCycles(p, c.costKey)), costKey: c.costKey, firstUse: p.firstUse, coreWork: c.coreWork, coreOutputs: c.coreOutputs, coreRows: c.coreRows,
    solve: { candidates: (s as LayerSolution & { candidates?: number }).candidates ?? 0, status: s.status, ms: Math.round(s.ms * 10) / 10, cached: false, vars: s.vars, rows: s.rows },
  };
}

export type { Node };
