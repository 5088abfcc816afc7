// Part II's checks on recorded runs with chosen figures: the answers are compared with ratios of
// the runs' cycles (within 2 %), only good runs count (Errors 0, generated code, the right model),
// pairs must differ only in the fields a step varies, and the evidence quotes the runs.
import { describe, expect, it } from 'vitest';
import type { Config } from '../../compiler/config';
import type { RunResult } from '../../sim/run/types';
import { INITIAL_CODE_STATE } from '../panes/code/state';
import { INITIAL_GRAPH_STATE } from '../panes/graph/state';
import { freshStages } from '../stageViews';
import { layer, rec, world } from './fixtures';
import { DECODE, goodAndBad, PREFILL, tileLines } from './steps/part2';
import { stepById } from './steps';
import type { AppView, CheckResult, RunRecord } from './types';

const step = (id: string) => stepById(id)!;
const states = (r: CheckResult) => Object.fromEntries(r.items.map((i) => [i.id, i.state]));
const emptyApp: AppView = {
  model: null, config: rec('x', {}, 1).config, compiledConfig: null, stages: freshStages(), graph: INITIAL_GRAPH_STATE,
  code: INITIAL_CODE_STATE, runBaseline: null, runEdits: null,
};
const runsWorld = (runs: RunRecord[]) => world(emptyApp, { runs });
const untiled = (cores: number): Partial<Config> => ({ platform: 'siracusa', tiled: false, cores });

describe('cores', () => {
  const s = step('cores');
  const phases = (kernel: number, control: number) => ({ 'dma-in': 0, 'dma-wait': 0, kernel, 'dma-out': 0, control });
  const one = rec(DECODE, untiled(1), 8_000_000, {
    layers: [
      layer('mm', 'cluster', 6_000_000, { busy: 6_000_000, instructions: 4_000_000, l2: 1_000_000 }),
      layer('norm', 'cluster', 2_000_000, { op: 'iRMSNorm', busy: 2_000_000, instructions: 1_000_000, l2: 200_000 }),
    ],
  });
  const eight = rec(DECODE, untiled(8), 1_600_000, {
    layers: [
      layer('mm', 'cluster', 800_000, { busy: 6_000_000, instructions: 4_200_000, l2: 2_000_000, phases: phases(780_000, 20_000) }),
      layer('norm', 'cluster', 700_000, { op: 'iRMSNorm', busy: 2_100_000, instructions: 1_300_000, l2: 300_000, phases: phases(650_000, 50_000) }),
    ],
  });

  it('compares the typed speedup with the 1-core Runtime over the 8-core one, within 2 %', () => {
    const w = runsWorld([one, eight]);
    expect(s.check(w, { speedup: '5' }).status).toBe('passed');
    expect(s.check(w, { speedup: '5.09x' }).status).toBe('passed');
    expect(s.check(w, { speedup: '4.91' }).status).toBe('passed');
    expect(s.check(w, { speedup: '5.2' }).status).toBe('failed');
    expect(s.check(w, { speedup: '8' }).status).toBe('failed');
    expect(s.check(w, { speedup: 'fast' }).status).toBe('failed');
    expect(s.check(w, {}).status).toBe('not-yet');
  });

  it('points at the L2 stalls, the workers\' idle time, the controller\'s serial part and the operators that scaled worst', () => {
    const r = s.check(runsWorld([one, eight]), { speedup: '5.00' });
    const text = r.evidence.join('\n');
    expect(text).toMatch(/would take 1,000,000 cycles; the run took 1,600,000 \(5\.00×\)/);
    expect(text).toMatch(/running only 67\.5 % of the layers' time.*8,000,000 on 1 core, 8,100,000 on 8 \(\+1\.3 %\)/); // 8.1 M of 8 x 1.5 M
    expect(text).toMatch(/Instructions: 5,000,000 on 1 core, 5,500,000 on 8 \(\+10\.0 %\).*Stalls on L2: 1,200,000 on 1 core, 2,300,000 on 8 \(\+91\.7 %\)/);
    expect(text).toMatch(/alone for 170,000 cycles \(10\.6 % of the network\)/); // the control phases, and 100,000 outside the layers
    expect(text).toMatch(/scaled worst: iRMSNorm 2\.86× \(46\.7 % of the 8-core time\)\./); // RequantizedGemm scaled better than the whole run
  });

  it('counts only good runs of the decode model that differ in the cores alone', () => {
    const edited = { ...eight, edited: true };
    expect(s.check(runsWorld([one, edited]), { speedup: '5' }).status).toBe('not-yet');
    expect(s.check(runsWorld([one, { ...eight, errors: 3 }]), { speedup: '5' }).status).toBe('not-yet');
    expect(s.check(runsWorld([one, { ...eight, model: PREFILL }]), { speedup: '5' }).status).toBe('not-yet');
    expect(s.check(runsWorld([one, { ...eight, config: { ...eight.config, l2: 500_000 } }]), { speedup: '5' }).status).toBe('not-yet');
    expect(states(s.check(runsWorld([eight]), {})).one).toBe('missing');
    // Untiled, L1 is not used: a different L1 still makes a pair.
    expect(s.check(runsWorld([one, { ...eight, config: { ...eight.config, l1: 8000 } }]), { speedup: '5' }).status).toBe('passed');
    // The newest pair counts.
    const faster = rec(DECODE, untiled(8), 1_000_000, { layers: eight.layers });
    expect(s.check(runsWorld([one, eight, faster]), { speedup: '8' }).status).toBe('passed');
  });
});

describe('tiling', () => {
  const s = step('tiling');
  const good = rec(PREFILL, { platform: 'siracusa', l1: 64_000 }, 9_400_000, { layers: [layer('mm', 'cluster', 9_000_000, { tiles: 10 })] });
  const bad = rec(PREFILL, { platform: 'siracusa', l1: 8_000 }, 15_040_000, {
    layers: [layer('mm', 'cluster', 14_000_000, { tiles: 80, phases: { 'dma-in': 2_000_000, 'dma-wait': 3_000_000, kernel: 7_000_000, 'dma-out': 1_000_000, control: 1_000_000 } })],
  });

  it('finds the best tiled run and the ones at least 1.2x slower that changed only tiling flags', () => {
    expect(goodAndBad([good, bad])).toEqual({ good, bad: [bad] });
    const slightly = rec(PREFILL, { platform: 'siracusa', l1: 32_000 }, 10_000_000);
    expect(goodAndBad([good, slightly]).bad).toEqual([]);
    const otherCores = rec(PREFILL, { platform: 'siracusa', cores: 4 }, 20_000_000);
    expect(goodAndBad([good, otherCores]).bad).toEqual([]);
    const untiledRun = rec(PREFILL, { platform: 'siracusa', tiled: false }, 21_000_000);
    expect(goodAndBad([good, untiledRun]).bad).toEqual([]);
  });

  it('compares the typed slowdown with bad / good and explains it with the tiles and the DMA share', () => {
    const infeasible = rec(PREFILL, { platform: 'siracusa', l2: 100_000 }, 0, { cycles: undefined, errors: undefined, failed: { stage: 'tile', what: 'the network needs 749536 B of L2' } });
    const untiledRun = rec(PREFILL, { platform: 'siracusa', tiled: false }, 21_150_000);
    const w = runsWorld([good, bad, infeasible, untiledRun]);
    expect(s.check(w, { slowdown: '1.6' }).status).toBe('passed');
    expect(s.check(w, { slowdown: '1.5' }).status).toBe('failed');
    const text = s.check(w, { slowdown: '1.60' }).evidence.join('\n');
    expect(text).toMatch(/Bad \(L1 8000 B\): 15,040,000 cycles, 80 tiles; the controller spent 42\.9 % .* DMA and 7\.1 % on tile-loop bookkeeping/);
    expect(text).toMatch(/Good: 9,400,000 cycles, 10 tiles; DMA 0\.0 %/);
    expect(text).toMatch(/Untiled .* 21,150,000 cycles: tiling into L1 is 2\.25× faster/);
    expect(text).toMatch(/Infeasible \(L2 100000 B\): the tile stage said: the network needs 749536 B of L2/);
    expect(s.check(runsWorld([good]), { slowdown: '1.6' }).status).toBe('not-yet');
  });
});

describe('profile-tiling', () => {
  const s = step('profile-tiling');
  const stdout = [
    'Starting',
    '[mm_L2][SB][4096 ops][Tile 0] Input DMA took 1262 cycles',
    '[mm_L2][SB][4096 ops][Tile 0] Kernel took 3840 cycles',
    '[mm_L2][SB][4096 ops][Tile 0] Output DMA took 570 cycles',
    '[mm_L2][SB][4096 ops][Tile 1] Input DMA took 1200 cycles',
    '[mm_L2][SB][4096 ops][Tile 1] Kernel took 3800 cycles',
    '[mm_L2][SB][4096 ops][Tile 1] Output DMA took 560 cycles',
    '[norm_L2][SB][64 ops][Tile 0] Input DMA took 590 cycles',
    'Runtime: 99999 cycles',
  ].join('\n');

  it('reads the per-tile lines by layer', () => {
    const lines = tileLines(stdout);
    expect([...lines.keys()]).toEqual(['mm', 'norm']);
    expect(lines.get('mm')).toHaveLength(6);
    expect(lines.get('mm')![3]).toEqual({ tile: 1, mode: 'SB', what: 'Input DMA', cycles: 1200 });
  });

  const graph = { name: 'g', nodes: [{ name: 'mm', op: 'RequantizedGemm', domain: '', inputs: [], outputs: [], attrs: {} }, { name: 'other', op: 'Add', domain: '', inputs: [], outputs: [], attrs: {} }], inputs: [], outputs: [], initializers: {}, types: {}, opsets: [] };
  const config = { ...rec(PREFILL, { platform: 'siracusa', profileTiling: 'L2' }, 1).config };
  const run: RunResult = { target: 'simulator', compiler: 'builtin', stdout, exitCode: 0, cycles: 99_999, errors: 0, total: 10 };
  const app: AppView = {
    ...emptyApp, model: { name: 'n', bytes: new Uint8Array(), builtinId: PREFILL }, config, compiledConfig: config,
    stages: {
      ...freshStages(),
      lower: { status: 'done', result: { platform: 'siracusa', snapshots: [{ pass: 'input', doc: '', graph, changed: false, origin: {}, removed: [], ms: 0 }], bindings: {}, failures: [], checks: [], checkInputs: 'random' } },
      run: { status: 'done', result: run },
    },
    graph: { ...INITIAL_GRAPH_STATE, selection: { snapshot: 0, node: 'mm' } },
  };

  it('passes with the selected layer\'s tile count and tile 0\'s input DMA as printed', () => {
    expect(s.check(world(app), { tiles: '2', input: '1262' }).status).toBe('passed');
    expect(s.check(world(app), { tiles: '2', input: '1200' }).status).toBe('failed');
    expect(s.check(world(app), { tiles: '1', input: '1262' }).status).toBe('failed');
    const text = s.check(world(app), { tiles: '2', input: '1262' }).evidence.join('\n');
    expect(text).toMatch(/mm, tile 0: input DMA 1,262, kernel 3,840, output DMA 570 cycles\. Over its 2 tiles: 32\.0 % of the timed cycles are DMA/);
    expect(text).toMatch(/SB: single-buffered/);
  });

  it('needs a run with profileTiling, fresh and without errors, and a layer that printed lines selected', () => {
    expect(states(s.check(world({ ...app, graph: { ...app.graph, selection: { snapshot: 0, node: 'other' } } }), {})).selected).toBe('missing');
    expect(states(s.check(world({ ...app, compiledConfig: { ...config, profileTiling: null }, config: { ...config, profileTiling: null } }), {})).run).toBe('missing');
    expect(states(s.check(world({ ...app, config: { ...config, l1: 8000 } }), {})).run).toBe('missing');
    expect(states(s.check(world({ ...app, stages: { ...app.stages, run: { status: 'done', result: { ...run, errors: 2 } } } }), {})).run).toBe('missing');
  });
});

describe('neureka and wmem', () => {
  const npuLayer = (cycles: number, npu: number, dma: number, bytes: number) => layer('mm', 'neureka', cycles, {
    npu, dmaBytes: bytes, phases: { 'dma-in': dma / 2, 'dma-wait': dma / 2, kernel: cycles - dma, 'dma-out': 0, control: 0 },
  });
  const runs = [
    rec(PREFILL, { platform: 'siracusa' }, 9_400_000, { layers: [layer('mm', 'cluster', 4_000_000), layer('attn', 'cluster', 5_000_000)] }),
    rec(PREFILL, { platform: 'siracusa-neureka' }, 7_680_000, { layers: [npuLayer(2_280_000, 1_800_000, 400_000, 300_000), layer('attn', 'cluster', 5_000_000)] }),
    rec(DECODE, { platform: 'siracusa' }, 1_140_000, { layers: [layer('mm', 'cluster', 300_000), layer('attn', 'cluster', 800_000)] }),
    rec(DECODE, { platform: 'siracusa-neureka' }, 990_000, { layers: [npuLayer(150_000, 30_000, 100_000, 300_000), layer('attn', 'cluster', 800_000)] }),
    rec(PREFILL, { platform: 'siracusa-neureka', neurekaWmem: true }, 7_630_000, { layers: [npuLayer(2_230_000, 1_800_000, 350_000, 20_000), layer('attn', 'cluster', 5_000_000)] }),
    rec(DECODE, { platform: 'siracusa-neureka', neurekaWmem: true }, 925_000, { layers: [npuLayer(85_000, 30_000, 35_000, 20_000), layer('attn', 'cluster', 800_000)] }),
  ];

  it('N-EUREKA: both speedups and the mode that gains more, computed from the runs', () => {
    const s = step('neureka');
    const w = runsWorld(runs);
    const right = { prefill: '1.22', decode: '1.15', more: 'parallel' };
    expect(s.check(w, right).status).toBe('passed');
    expect(s.check(w, { ...right, more: 'Prefill' }).status).toBe('passed');
    expect(s.check(w, { ...right, more: 'autoregressive' }).status).toBe('failed');
    expect(s.check(w, { ...right, decode: '1.04' }).status).toBe('failed');
    // The weight-memory runs are not N-EUREKA-alone runs.
    expect(s.check(runsWorld(runs.filter((r) => r.config.platform === 'siracusa' || r.config.neurekaWmem)), right).status).toBe('not-yet');
    const text = s.check(w, right).evidence.join('\n');
    expect(text).toMatch(/Parallel: 1\.22× in total\. 1 layers ran on N-EUREKA, 31\.3 % of the run's layer time; those layers took 4,000,000 cycles on the cluster, 1\.75× more/);
    expect(text).toMatch(/Autoregressive: 1\.15× .* The NPU computed 20\.0 % of its layers' time; 66\.7 % went to moving data/);
  });

  it('the weight memory: both gains and the mode that gains more, with the NPU layers\' DMA before and after', () => {
    const s = step('wmem');
    const w = runsWorld(runs);
    const right = { prefill: '1.007', decode: '1.07', more: 'decode' };
    expect(s.check(w, right).status).toBe('passed');
    expect(s.check(w, { ...right, more: 'parallel' }).status).toBe('failed');
    expect(s.check(w, { ...right, decode: '1.2' }).status).toBe('failed');
    const text = s.check(w, right).evidence.join('\n');
    expect(text).toMatch(/Autoregressive: 1\.07×\. The NPU layers' DMA fell from 300,000 to 20,000 bytes and their DMA time from 100,000 to 35,000 cycles, which was 10\.1 % of the run/);
  });
});
