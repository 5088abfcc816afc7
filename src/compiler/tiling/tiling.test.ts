import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARED_TESTS as SHARED_URL } from '../../testing/corpus';
import { bindNpzInputs } from '../interpret/npz-io';
import { lowerGraph } from '../lower/lower';
import type { LowerResult } from '../lower/types';
import { readNpz } from '../npz';
import { readOnnx } from '../onnx/read';
import { inferTypes } from '../shapes/infer';
import { PlaygroundError } from '../../common/errors';
import { at, GraphBuilder } from '../passes/testing';
import { DEFAULT_CONFIG, type Config } from '../config';
import { checkPlan } from './check';
import { allocate, greedy, liveLowerBound, type Item } from './home';
import { costOf, dimCandidates, layerProblem } from './layer';
import type { MilpSolver } from './milp';
import { nodeMilp } from '../../pipeline/node/milp';
import { planMemory } from './plan';
import { tileRegion } from './region';
import type { Buffer } from './types';

const SHARED_TESTS = fileURLToPath(SHARED_URL);
let solver: MilpSolver;
beforeAll(async () => { solver = await nodeMilp(); });

function lowered(dir: string, config: Config): LowerResult {
  const g = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
  const inputs = bindNpzInputs(g, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz').inputs;
  return lowerGraph(g, config, { check: 'none', inputs });
}

const buf = (id: string, offset: number, bytes: number, start: number, end: number): Buffer =>
  ({ id, level: 'L1', offset, bytes, start, end, role: 'input', tensor: id, shape: [bytes], copies: 1 });

describe('the plan checker', () => {
  it('accepts disjoint buffers and buffers that reuse memory at other times', () => {
    const r = checkPlan([buf('a', 0, 100, 0, 2), buf('b', 100, 100, 0, 2), buf('c', 0, 200, 2, 4)], { L1: 200 });
    expect(r).toMatchObject({ ok: true, problems: [] });
  });
  it('finds overlapping live buffers, buffers outside the level and misaligned ones', () => {
    const r = checkPlan([buf('a', 0, 100, 0, 2), buf('b', 96, 8, 1, 3), buf('c', 300, 8, 0, 1), buf('d', 202, 4, 5, 6)], { L1: 256 });
    expect(r.ok).toBe(false);
    expect(r.problems.join('\n')).toContain('a [0, 100) and b [96, 104) overlap in L1 while both live (steps 1..1)');
    expect(r.problems.join('\n')).toContain('c: [300, 308) lies outside L1 (256 B)');
    expect(r.problems.join('\n')).toContain('d: offset 202 is not word-aligned');
  });
});

describe('the home-level allocator', () => {
  it('is optimal when greedy meets the live-bytes bound', async () => {
    const items: Item[] = [{ id: 'a', bytes: 64, start: 0, end: 2 }, { id: 'b', bytes: 32, start: 1, end: 3 }, { id: 'c', bytes: 64, start: 2, end: 4 }];
    const a = await allocate(items, solver);
    expect(a.peak).toBe(96);
    expect(a.lowerBound).toBe(96);
    expect(a.how).toContain('optimal');
  });
  it('uses the MILP when greedy leaves a hole, and finds the optimum', async () => {
    // Biggest-first puts A (48) at 0 and D (16) above it; B and C (32 each, overlapping D in
    // time but not each other) then cannot both sit under D's hole: greedy reaches 96, 80 fits.
    const items: Item[] = [
      { id: 'A', bytes: 48, start: 0, end: 2 }, { id: 'B', bytes: 32, start: 2, end: 4 },
      { id: 'C', bytes: 32, start: 4, end: 6 }, { id: 'D', bytes: 32, start: 1, end: 5 }, { id: 'E', bytes: 40, start: 3, end: 6 },
    ];
    const g = greedy(items);
    const greedyPeak = Math.max(...items.map((it) => g.get(it.id)! + it.bytes));
    const a = await allocate(items, solver);
    expect(a.lowerBound).toBe(liveLowerBound(items));
    expect(a.peak).toBeLessThanOrEqual(greedyPeak);
    const bufs = items.map((it) => ({ ...buf(it.id, a.offsets.get(it.id)!, it.bytes, it.start, it.end), level: 'L2' }));
    expect(checkPlan(bufs, { L2: a.peak }).ok).toBe(true);
  });
});

describe('tile candidates and regions', () => {
  it('lists every distinct tile size of a dim, largest first, in the multiples a target asks for', () => {
    expect(dimCandidates(10, true, 1)).toEqual([10, 5, 4, 3, 2, 1]);
    expect(dimCandidates(100, true, 32)).toEqual([100, 64, 32]);
    expect(dimCandidates(7, false, 1)).toEqual([7]);
  });
  it('cuts the last tile of a dim short', () => {
    expect(tileRegion([10, 7], [4, 7], 2)).toEqual({ start: [8, 0], size: [2, 7] });
  });
  const conv = join(SHARED_TESTS, 'Kernels/Integer/Conv/Regular_3x3_RQ');
  it('gives a conv tile its receptive field (halo, clipped at the border) and all input channels', () => {
    const cfg = { ...DEFAULT_CONFIG, l1: 8000 };
    const r = lowered(conv, cfg);
    const g = r.snapshots.at(-1)!.graph;
    const node = g.nodes.find((n) => n.op === 'RequantizedConv')!;
    const p = layerProblem(g, node, r.bindings[node.name], { opsPerCycle: 2, tileOverhead: 300 }, cfg, () => 1);
    expect(p.view.output).toEqual([1, 10, 10, 4]);
    // Output rows 5..9 of a 3x3, pad-1 conv read input rows 4..9 (row 10 is padding).
    const rIn = p.rule.inputRegion(p.view, 0, { start: [0, 5, 0, 0], size: [1, 5, 10, 4] });
    expect(rIn).toEqual({ start: [0, 4, 0, 0], size: [1, 6, 10, 36] });
    // Weights follow the output channels; K (3x3x36) stays whole.
    expect(p.rule.inputRegion(p.view, 1, { start: [0, 0, 0, 2], size: [1, 10, 10, 2] })).toEqual({ start: [2, 0, 0, 0], size: [2, 3, 3, 36] });
    const c = costOf(p, [1, 5, 10, 4]);
    expect(c.tiles).toBe(2);
    expect(c.perTensor[1].stays).toBe(true); // the weights are loaded once
  });
});

describe('tiling a 3x3 requantized conv at 6 kB, beside the split Deeploy makes', () => {
  // Deeploy's tiler keeps convolution inputs' channels whole and maximises tile bytes; on this
  // layer at L1 = 8000 it cuts the output into a handful of tiles (its im2col buffer is twice
  // ours; the whole layer needs 7.9 kB here, so we cut at 6 kB). We report ours beside an
  // output-channel-only split of the same layer (what a channel-tiling tiler would do).
  it('cuts it into a handful of tiles that move no more data than output-channel tiles', async () => {
    const cfg = { ...DEFAULT_CONFIG, l1: 6000 };
    const r = lowered(join(SHARED_TESTS, 'Kernels/Integer/Conv/Regular_3x3_RQ'), cfg);
    const plan = await planMemory(r, cfg, { solver });
    const t = plan.tilings.find((x) => x.op === 'RequantizedConv')!;
    const g = r.snapshots.at(-1)!.graph;
    const node = g.nodes.find((n) => n.name === t.node)!;
    const p = layerProblem(g, node, r.bindings[node.name], { opsPerCycle: 2, tileOverhead: 300 }, cfg, () => 1);
    const channelTiles = [1, 2, 4].map((c) => costOf(p, [1, 10, 10, c])).filter((c) => c.l1Bytes <= 6000);
    console.log(`Regular_3x3_RQ at L1 6000: ours ${t.tile.join('x')} x ${t.tiles} tiles, ${t.l1Bytes} B of L1, ${t.bytesMoved} B moved; ` +
      `output-channel tiles: ${channelTiles.map((c) => `${c.tile.join('x')} x ${c.tiles}: ${c.l1Bytes} B, ${c.bytesMoved} B moved`).join('; ') ||
        `none fits (one channel needs ${costOf(p, [1, 10, 10, 1]).l1Bytes} B: the whole input plus an im2col row per busy core)`}`);
    expect(t.tiles).toBeGreaterThanOrEqual(2);
    expect(t.tiles).toBeLessThanOrEqual(8);
    expect(t.l1Bytes).toBeLessThanOrEqual(6000);
    for (const c of channelTiles) expect(t.bytesMoved).toBeLessThanOrEqual(c.bytesMoved);
  });
});

describe('infeasible budgets', () => {
  it('names the layer and the smallest L1 that fits, and that L1 works', async () => {
    const cfg = { ...DEFAULT_CONFIG, l1: 1024 };
    const r = lowered(join(SHARED_TESTS, 'Models/CNN_Linear1'), cfg);
    const e = await planMemory(r, cfg, { solver }).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(PlaygroundError);
    const d = (e as PlaygroundError).data;
    expect(d.code).toBe('does-not-fit');
    expect(d.where).toMatch(/^node "/);
    const need = Number(/an L1 of at least (\d+) B/.exec(d.hint ?? '')?.[1]);
    expect(need).toBeGreaterThan(1024);
    const ok = await planMemory(r, { ...cfg, l1: need }, { solver });
    expect(ok.check.ok).toBe(true);
    await expect(planMemory(r, { ...cfg, l1: need - 4 }, { solver })).rejects.toThrow(/does not fit L1/);
  });
  it('says no L1 setting helps when the smallest tile needs more than the platform can give', async () => {
    // A softmax row stays whole in a tile: 150000 int8 in and out need 300000 B of L1.
    const b = new GraphBuilder();
    const x = b.input('x', [1, 150_000], 'int8');
    b.output(b.node('iSoftmax', [x], { coeffA: at.int(1), coeffB: at.int(64), coeffC: at.int(2136), log2: at.int(47), n_levels: at.int(256) }));
    const cfg = { ...DEFAULT_CONFIG, l1: 200_000 };
    const r = lowerGraph(inferTypes(b.build()), cfg);
    const e = await planMemory(r, cfg, { solver }).then(() => undefined, (x: unknown) => x);
    expect((e as PlaygroundError).data.code).toBe('does-not-fit');
    expect((e as PlaygroundError).data.hint).toBe('no L1 setting fits it: Siracusa has at most 241664 B of L1 for tiles; compile it untiled');
  });
  it('says how much L2 the network needs when it does not fit', async () => {
    const cfg = { ...DEFAULT_CONFIG, l2: 64 * 1024 };
    const r = lowered(join(SHARED_TESTS, 'Models/microLlama/INT8/microLlama64_parallel'), cfg);
    await expect(planMemory(r, cfg, { solver })).rejects.toThrow(/the network needs \d+ B of L2.*use an L2 of at least \d+ B, or make L3 the default memory level/);
  });
});

describe('plans', () => {
  const mll = join(SHARED_TESTS, 'Models/microLlama/INT8/microLlama64_parallel');
  it('are deterministic', async () => {
    const cfg = { ...DEFAULT_CONFIG, l1: 16000 };
    const r = lowered(join(SHARED_TESTS, 'Models/miniMobileNetv2'), cfg);
    const strip = (p: Awaited<ReturnType<typeof planMemory>>) => JSON.stringify({ ...p, ms: 0, solver: 0, tilings: p.tilings.map((t) => ({ ...t, solve: { ...t.solve, ms: 0 } })) });
    expect(strip(await planMemory(r, cfg, { solver }))).toBe(strip(await planMemory(r, cfg, { solver })));
  });
  it('use more, smaller tiles at 8000 than at 64000 B of L1 (microLlama64_parallel)', async () => {
    const big = await planMemory(lowered(mll, DEFAULT_CONFIG), DEFAULT_CONFIG, { solver });
    const small = await planMemory(lowered(mll, { ...DEFAULT_CONFIG, l1: 8000 }), { ...DEFAULT_CONFIG, l1: 8000 }, { solver });
    expect(small.steps).toBeGreaterThan(big.steps);
    expect(Math.max(...small.levels[0].buffers.map((b) => b.bytes))).toBeLessThan(Math.max(...big.levels[0].buffers.map((b) => b.bytes)));
    expect(big.check.ok && small.check.ok).toBe(true);
    expect(small.solver.reused).toBeGreaterThan(small.solver.milps); // 8 identical decoder layers
  });
  it('double-buffer tiled operands and keep whole ones single', async () => {
    const cfg = { ...DEFAULT_CONFIG, l1: 8000, doubleBuffer: true };
    const p = await planMemory(lowered(mll, cfg), cfg, { solver });
    const tiled = p.levels[0].buffers.filter((b) => b.copies === 2);
    expect(tiled.length).toBeGreaterThan(0);
    expect(p.check.ok).toBe(true);
  });
  it('put N-EUREKA weights in the weight memory with --neureka-wmem, out of L1', async () => {
    const cfg: Config = { ...DEFAULT_CONFIG, platform: 'siracusa-neureka', neurekaWmem: true };
    const p = await planMemory(lowered(mll, cfg), cfg, { solver });
    const wmem = p.levels.find((l) => l.name === 'WMEM')!;
    expect(wmem.buffers.length).toBe(56);
    const npu = p.tilings.filter((t) => t.engine === 'neureka');
    expect(npu.every((t) => t.tensors.find((x) => x.index === 1)!.direct === 'WMEM')).toBe(true);
    expect(p.check.ok).toBe(true);
  });
  it('carry what codegen needs: every tile\'s regions, typed tile buffers and the settings', async () => {
    const cfg: Config = { ...DEFAULT_CONFIG, l1: 8000, cores: 4, doubleBuffer: true, profileTiling: 'L2' };
    const cnn = lowered(join(SHARED_TESTS, 'Models/CNN_Linear1'), cfg);
    const p = await planMemory(cnn, cfg, { solver });
    expect(p).toMatchObject({ tiled: true, cores: 4, l1: 8000, doubleBuffer: true, profileTiling: 'L2' });
    expect(p.tilings.filter((t) => t.op === 'RequantizedConv').every((t) => t.ruleKind === 'conv')).toBe(true);
    const conv = p.tilings.find((t) => t.tiles > 1)!;
    expect(conv).toBeDefined();
    expect(conv.regions.length).toBe(conv.tiles);
    const out = conv.tensors.findIndex((t) => t.role === 'output');
    conv.regions.forEach((r, i) => {
      expect(r.length).toBe(conv.tensors.length);
      expect(r[out]).toEqual(tileRegion(conv.output, conv.tile, i));
    });
    // Tile buffers name their tensor by position; the scratch by its role; `id` is only a label.
    for (const b of p.levels[0].buffers) {
      const t = p.tilings.find((x) => x.node === b.node)!;
      if (b.role === 'scratch') expect(b.k).toBeUndefined();
      else expect(t.tensors[b.k!]).toMatchObject({ tensor: b.tensor, role: b.role });
    }
    const untiled = await planMemory(cnn, { ...cfg, tiled: false }, { solver });
    expect(untiled).toMatchObject({ tiled: false, tilings: [] });
    expect(untiled.levels.map((l) => l.name)).not.toContain('L1');
  });
  it('stage every layer\'s operands in L2 when tensors live in L3', async () => {
    const cfg: Config = { ...DEFAULT_CONFIG, defaultMemLevel: 'L3' };
    const p = await planMemory(lowered(join(SHARED_TESTS, 'Models/miniMobileNetv2'), cfg), cfg, { solver });
    expect(p.homeLevel).toBe('L3');
    expect(p.levels.find((l) => l.name === 'L2')!.buffers.every((b) => b.role === 'staging')).toBe(true);
    expect(p.check.ok).toBe(true);
  });
});
