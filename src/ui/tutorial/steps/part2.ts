// Part II: microLlama on Siracusa. Runs on 1 and 8 cores, tiling configurations, the per-tile
// profile, N-EUREKA in parallel (prefill) and autoregressive (decode) mode, the weight memory.
// The checks read the runs the tutorial recorded (every finished compile of the app) and the run
// shown now; every expected number is a ratio of measured cycles.
import type { Config } from '../../../compiler/config';
import { isRunStale } from '../../store';
import { fmt, numberItem, numberItemAny, pct, SPEEDUP_TOLERANCE, SPEEDUP_TOLERANCE_TEXT, stateItem, textItem, times, verdict } from '../answers';
import { configDiff, dmaPhases, goodRuns, latestPair, layerRatios, ratio, sameExcept, sumLayers, type Pair } from '../runlog';
import type { Answers, CheckItem, LayerFacts, RunRecord, Step, World } from '../types';
import { freshCompile, selectedFinalNodes } from '../world';

export const PREFILL = 'microllama-prefill';
export const DECODE = 'microllama-decode';

const speedupQuestion = (id: string, label: string) => ({ id, label, kind: 'number' as const, unit: '×', tolerance: SPEEDUP_TOLERANCE_TEXT });

const SHOWN: Partial<Record<keyof Config, (c: Config) => string>> = {
  platform: (c) => c.platform, cores: (c) => `${c.cores} cores`, tiled: (c) => (c.tiled ? 'tiled' : 'untiled'),
  l1: (c) => `L1 ${c.l1} B`, l2: (c) => `L2 ${c.l2} B`, defaultMemLevel: (c) => `home ${c.defaultMemLevel}`,
  doubleBuffer: (c) => (c.doubleBuffer ? 'double-buffered' : 'single-buffered'), neurekaWmem: (c) => (c.neurekaWmem ? 'weight memory' : 'no weight memory'),
  profileTiling: (c) => `profileTiling ${c.profileTiling ?? 'off'}`,
};

/** What sets run b's configuration apart from run a's, e.g. "L1 8000 B". */
function differences(a: Config, b: Config): string {
  return configDiff(a, b).map((k) => SHOWN[k]?.(b) ?? k).join(', ') || 'the same configuration';
}

// Step 6 -----------------------------------------------------------------------------------

const untiledOn = (cores: number) => (c: Config) => c.platform === 'siracusa' && !c.tiled && c.cores === cores;

const cores: Step = {
  id: 'cores',
  part: 2,
  title: 'microLlama untiled on 1 and 8 cores',
  goal: 'Eight cores do not make a network eight times faster. Measure by how much they do on microLlama in autoregressive mode with everything left in L2 (no tiling), and find where the rest went.',
  tasks: [
    'Press "1 core" and compile. When the run finishes, press "Pin as baseline" in the Run pane.',
    'Press "8 cores" (only the cores change) and compile. The Run pane now shows the speedup against the pinned run, in total and per layer.',
    'Type the speedup. Then look for the reasons in the timeline: the core lanes (time between jobs is waiting), the controller lane between kernels, and the layers in the table whose speedup is lowest.',
  ],
  setups: [
    { id: 'one-core', label: '1 core', model: DECODE, config: { platform: 'siracusa', tiled: false, cores: 1 }, preset: 'run' },
    { id: 'eight-cores', label: '8 cores', model: DECODE, config: { platform: 'siracusa', tiled: false, cores: 8 }, preset: 'run' },
  ],
  questions: [speedupQuestion('speedup', 'Speedup of 8 cores over 1')],
  check(w: World, a: Answers) {
    const one = goodRuns(w.runs, DECODE, untiledOn(1))[0];
    const pair = latestPair(w.runs, DECODE, untiledOn(1), untiledOn(8), ['cores']);
    const items: CheckItem[] = [
      stateItem('one', 'a run on 1 core with Errors 0', one !== undefined, one ? `${fmt(one.cycles!)} cycles` : '', 'press "1 core" and compile'),
      stateItem('eight', 'the same on 8 cores', pair !== null, pair ? `${fmt(pair.b.cycles!)} cycles` : '', 'press "8 cores" and compile (change nothing else)'),
      numberItem(a, 'speedup', 'speedup', pair ? ratio(pair) : undefined, SPEEDUP_TOLERANCE, 'divide the 1-core Runtime by the 8-core Runtime (the Run pane shows it once the 1-core run is pinned)'),
    ];
    return verdict(items, () => coresEvidence(pair!));
  },
};

function coresEvidence({ a, b }: Pair): string[] {
  const ideal = a.cycles! / 8;
  const layerCycles = sumLayers(b, (l) => l.cycles);
  const capacity = b.config.cores * layerCycles;
  const sum = (r: RunRecord, f: (l: LayerFacts) => number) => sumLayers(r, f);
  const busyA = sum(a, (l) => l.busy), busyB = sum(b, (l) => l.busy);
  const instA = sum(a, (l) => l.instructions), instB = sum(b, (l) => l.instructions);
  const l2A = sum(a, (l) => l.l2), l2B = sum(b, (l) => l.l2);
  const serial = sumLayers(b, (l) => l.cycles - l.phases.kernel) + Math.max(0, (b.network ?? layerCycles) - layerCycles);
  const more = (x: number, y: number) => `${fmt(x)} on 1 core, ${fmt(y)} on 8 (${y >= x ? '+' : '−'}${pct(Math.abs(y - x), x)})`;
  // Per operator: its layers' cycles on 1 core over those on 8; the ones that scaled worst first.
  const byOp = new Map<string, { a: number; b: number }>();
  const opOf = new Map(b.layers.map((l) => [l.node, l.op]));
  for (const x of layerRatios(a, b)) {
    const op = opOf.get(x.node)!, o = byOp.get(op) ?? { a: 0, b: 0 };
    byOp.set(op, { a: o.a + x.a, b: o.b + x.b });
  }
  const worst = [...byOp].filter(([, o]) => o.b > 0.02 * layerCycles && o.a / o.b < ratio({ a, b }))
    .sort(([, x], [, y]) => x.a / x.b - y.a / y.b).slice(0, 3)
    .map(([op, o]) => `${op} ${times(o.a / o.b)} (${pct(o.b, layerCycles)} of the 8-core time)`);
  const running = busyB / capacity;
  return [
    `Eight perfect cores would take ${fmt(ideal)} cycles; the run took ${fmt(b.cycles!)} (${times(ratio({ a, b }))}).`,
    running >= 0.9
      ? `The workers were running ${pct(busyB, capacity)} of the layers' time: they hardly waited. The same work simply costs more cycles split eight ways: ${more(busyA, busyB)} in total (the instructions and stall columns of the Run pane's table).`
      : `The workers were running only ${pct(busyB, capacity)} of the layers' time; the rest they waited for the slowest core or for the controller (the gaps in the core lanes of the timeline). Their running cycles: ${more(busyA, busyB)}.`,
    `Instructions: ${more(instA, instB)}: every core runs its own loop set-up and index arithmetic for its share. Stalls on L2: ${more(l2A, l2B)}: untiled, every operand comes from L2, a dozen cycles away, and eight cores share it.`,
    ...(serial > 0.01 * (b.network ?? b.cycles!) ? [`The controller worked alone for ${fmt(serial)} cycles (${pct(serial, b.network ?? b.cycles!)} of the network): that part does not shrink with more cores (Amdahl's law).`] : []),
    ...(worst.length ? [`By operator, the layers that scaled worst: ${worst.join(', ')}. Their work is small, memory-bound, or does not split evenly over eight cores.`] : []),
  ];
}

// Step 7 -----------------------------------------------------------------------------------

const TILING: (keyof Config)[] = ['l1', 'l2', 'defaultMemLevel', 'doubleBuffer'];
const BAD_FACTOR = 1.2;
const tiledPrefill = (c: Config) => c.platform === 'siracusa' && c.tiled && c.profileTiling === null;

/** The fastest tiled run, and the runs at least BAD_FACTOR slower that differ from it only in tiling flags. */
export function goodAndBad(runs: readonly RunRecord[]): { good?: RunRecord; bad: RunRecord[] } {
  const runsOk = goodRuns(runs, PREFILL, tiledPrefill);
  const good = runsOk.reduce<RunRecord | undefined>((best, r) => (!best || r.cycles! < best.cycles! ? r : best), undefined);
  const bad = good ? runsOk.filter((r) => r !== good && sameExcept(r.config, good.config, TILING) && r.cycles! >= BAD_FACTOR * good.cycles!) : [];
  return { good, bad };
}

const tiling: Step = {
  id: 'tiling',
  part: 2,
  title: 'Tiling flags: a bad and a good configuration',
  goal: 'Tiled, each layer is cut into tiles that fit L1; the DMA moves them in and out while the cores compute on fast L1. How well that works depends on the flags: how big L1 is (--l1), how much L2 (--l2), where tensors live (--defaultMemLevel), whether transfers overlap the kernel (--doublebuffer).',
  tasks: [
    'Press Set up (microLlama in parallel mode, tiled with Deeploy\'s defaults) and compile. Pin the run.',
    'Change the tiling flags and compile again, looking for a configuration that is clearly slower (at least 1.2×): a small L1 (say 8000 B) is a good start. Compare it with the pinned one.',
    'Also try one that cannot work, such as L2 100000 B: the tiler says what it needs instead of running.',
    'Type how many times slower your bad configuration is than your best one, then read the explanation of why.',
  ],
  setups: [{ id: 'defaults', label: 'Tiled, Deeploy\'s defaults', model: PREFILL, config: { platform: 'siracusa', tiled: true }, preset: 'run' }],
  questions: [speedupQuestion('slowdown', 'How many times slower the bad configuration is')],
  check(w: World, a: Answers) {
    const { good, bad } = goodAndBad(w.runs);
    const items: CheckItem[] = [
      stateItem('good', 'a tiled run with Errors 0', good !== undefined, good ? `best: ${fmt(good.cycles!)} cycles (L1 ${good.config.l1} B)` : '', 'press Set up and compile'),
      stateItem('bad', `a configuration at least ${BAD_FACTOR}× slower, only tiling flags changed`, bad.length > 0,
        bad.length ? `${bad.length} found` : '', 'change L1, L2, the home level or double buffering and compile again'),
      numberItemAny(a, 'slowdown', 'slowdown', bad.map((r) => r.cycles! / good!.cycles!), SPEEDUP_TOLERANCE, 'divide the bad run\'s Runtime by the best one\'s'),
    ];
    return verdict(items, () => tilingEvidence(w.runs, good!, bad[0]!));
  },
};

function tileFacts(r: RunRecord) {
  const cycles = sumLayers(r, (l) => l.cycles);
  return { tiles: sumLayers(r, (l) => l.tiles), dma: sumLayers(r, dmaPhases), control: sumLayers(r, (l) => l.phases.control), cycles };
}

function tilingEvidence(runs: readonly RunRecord[], good: RunRecord, bad: RunRecord): string[] {
  const g = tileFacts(good), b = tileFacts(bad);
  const infeasible = runs.filter((r) => r.model === PREFILL && r.failed && !r.edited).slice(-2);
  const untiled = goodRuns(runs, PREFILL, (c) => c.platform === 'siracusa' && !c.tiled && c.cores === good.config.cores)[0];
  return [
    `Bad (${differences(good.config, bad.config)}): ${fmt(bad.cycles!)} cycles, ${fmt(b.tiles)} tiles; the controller spent ${pct(b.dma, b.cycles)} of the layers' time issuing and waiting for DMA and ${pct(b.control, b.cycles)} on tile-loop bookkeeping.`,
    `Good: ${fmt(good.cycles!)} cycles, ${fmt(g.tiles)} tiles; DMA ${pct(g.dma, g.cycles)}, bookkeeping ${pct(g.control, g.cycles)}. The Run pane's chart shows the same split per layer (the DMA colours against the kernel's).`,
    'Whatever is paid per tile (programming transfers, waiting for them when they do not overlap the kernel, the loop around them, the kernel\'s own start-up on short loops) is paid once per tile: smaller tiles, more of it. Large tiles keep the cores computing on L1.',
    ...(untiled ? [`Untiled (all in L2) the same model took ${fmt(untiled.cycles!)} cycles: tiling into L1 is ${times(untiled.cycles! / good.cycles!)} faster here, because L1 answers in one cycle where L2 takes a dozen.`] : []),
    ...infeasible.map((r) => `Infeasible (${differences(good.config, r.config)}): the ${r.failed!.stage} stage said: ${r.failed!.what}`),
  ];
}

// Step 8 -----------------------------------------------------------------------------------

export interface TileLine { tile: number; mode: string; what: 'Input DMA' | 'Kernel' | 'Output DMA'; cycles: number }

const LINE = /^\[(.+)_(L2|L3)\]\[(SB|DB)\]\[\d+ ops\]\[Tile (\d+)\] (Input DMA|Kernel|Output DMA) took (\d+) cycles$/gm;

/** The --profileTiling lines of the program's output, by layer node. */
export function tileLines(stdout: string): Map<string, TileLine[]> {
  const out = new Map<string, TileLine[]>();
  for (const m of stdout.matchAll(LINE)) {
    const list = out.get(m[1]!) ?? [];
    list.push({ tile: Number(m[4]), mode: m[3]!, what: m[5] as TileLine['what'], cycles: Number(m[6]) });
    out.set(m[1]!, list);
  }
  return out;
}

const profileTiling: Step = {
  id: 'profile-tiling',
  part: 2,
  title: 'Per-tile timers: --profileTiling',
  goal: 'With --profileTiling the generated code reads the cycle counter around every tile\'s input DMA, kernel and output DMA and prints the three durations, so you can see whether a layer waits for data or computes.',
  tasks: [
    'Press Set up (tiled, L1 64000 B, profileTiling L2) and compile.',
    'The console at the bottom of the Run pane lists lines like "[layer_L2][SB][N ops][Tile 0] Kernel took N cycles" for every tile of every tiled layer.',
    'Select one tiled layer: click its row in the Run pane\'s table (or its node in the graph). Find its lines in the console.',
    'Answer for that layer: how many tiles it has, and how long its tile 0 took for its input DMA.',
  ],
  setups: [{ id: 'profile', label: 'Tiled, profileTiling L2', model: PREFILL, config: { platform: 'siracusa', tiled: true, profileTiling: 'L2' }, preset: 'run' }],
  questions: [
    { id: 'tiles', label: 'Tiles of the selected layer', kind: 'number' },
    { id: 'input', label: 'Its tile 0\'s Input DMA', kind: 'number', unit: 'cycles' },
  ],
  check(w: World, a: Answers) {
    const app = w.app;
    const run = app.stages.run.result;
    const ok = run !== undefined && run.errors === 0 && app.compiledConfig?.profileTiling != null && app.compiledConfig.tiled && freshCompile(app) && !isRunStale(app);
    const lines = ok ? tileLines(run.stdout) : new Map<string, TileLine[]>();
    const node = selectedFinalNodes(app).find((n) => lines.has(n));
    const mine = node ? lines.get(node)! : [];
    const tiles = new Set(mine.map((l) => l.tile)).size;
    const input0 = mine.find((l) => l.tile === 0 && l.what === 'Input DMA')?.cycles;
    const items: CheckItem[] = [
      stateItem('run', 'a run with profileTiling and Errors 0', ok, `${lines.size} layers print tile timers`, 'press Set up and compile'),
      stateItem('selected', 'a tiled layer is selected', node !== undefined, node ? `${node} selected` : '',
        'click a tiled layer\'s row in the Run pane\'s table (one that prints lines in the console)'),
      numberItem(a, 'tiles', 'tiles', node ? tiles : undefined, { abs: 0 }, 'count the distinct "Tile i" of its lines (the last i plus one)'),
      numberItem(a, 'input', 'tile 0\'s Input DMA', input0, { abs: 0 }, 'read the number in its "[Tile 0] Input DMA took N cycles" line'),
    ];
    return verdict(items, () => {
      const sum = (what: TileLine['what']) => mine.filter((l) => l.what === what).reduce((s, l) => s + l.cycles, 0);
      const k0 = mine.find((l) => l.tile === 0 && l.what === 'Kernel')?.cycles ?? 0;
      const o0 = mine.find((l) => l.tile === 0 && l.what === 'Output DMA')?.cycles ?? 0;
      const layer = run!.profile?.layers.find((l) => l.node === node);
      const t0 = layer?.tiles[0];
      const inAll = sum('Input DMA'), kAll = sum('Kernel'), oAll = sum('Output DMA');
      return [
        `${node}, tile 0: input DMA ${fmt(input0!)}, kernel ${fmt(k0)}, output DMA ${fmt(o0)} cycles. Over its ${tiles} tile${tiles === 1 ? '' : 's'}: ${pct(inAll + oAll, inAll + kAll + oAll)} of the timed cycles are DMA.`,
        mine[0]?.mode === 'SB'
          ? 'SB: single-buffered, so the DMA and the kernel take turns; with --doublebuffer the next tile\'s input moves while this one computes, and the input DMA time mostly disappears behind the kernel.'
          : 'DB: double-buffered, so the next tile\'s input moves while this one computes.',
        ...(t0 ? [`The profiler saw the same tile from the simulator: DMA in + wait ${fmt(t0.phases['dma-in'] + t0.phases['dma-wait'])}, kernel ${fmt(t0.phases.kernel)}, DMA out ${fmt(t0.phases['dma-out'])} cycles (the Run pane's tile list for the selected layer); the printed timers bracket the same code.`] : []),
      ];
    });
  },
};

// Steps 9 and 10 ---------------------------------------------------------------------------

const cluster = (c: Config) => c.platform === 'siracusa';
const npu = (wmem: boolean) => (c: Config) => c.platform === 'siracusa-neureka' && c.neurekaWmem === wmem;
const onNpu = (l: LayerFacts) => l.engine === 'neureka';

const NPU_SETUPS = (wmem: boolean) => [
  { id: 'prefill-cluster', label: 'Parallel, cluster only', model: PREFILL, config: { platform: 'siracusa' as const, tiled: true }, preset: 'run' },
  { id: 'prefill-npu', label: 'Parallel, N-EUREKA', model: PREFILL, config: { platform: 'siracusa-neureka' as const, tiled: true }, preset: 'run' },
  ...(wmem ? [{ id: 'prefill-wmem', label: 'Parallel, N-EUREKA + weight memory', model: PREFILL, config: { platform: 'siracusa-neureka' as const, tiled: true, neurekaWmem: true }, preset: 'run' }] : []),
  { id: 'decode-cluster', label: 'Autoregressive, cluster only', model: DECODE, config: { platform: 'siracusa' as const, tiled: true }, preset: 'run' },
  { id: 'decode-npu', label: 'Autoregressive, N-EUREKA', model: DECODE, config: { platform: 'siracusa-neureka' as const, tiled: true }, preset: 'run' },
  ...(wmem ? [{ id: 'decode-wmem', label: 'Autoregressive, N-EUREKA + weight memory', model: DECODE, config: { platform: 'siracusa-neureka' as const, tiled: true, neurekaWmem: true }, preset: 'run' }] : []),
];

/** Which mode gained more, as the words a student may type for it (both when they gained the same). */
function moreGain(p: Pair | null, d: Pair | null): string[] | undefined {
  if (!p || !d) return undefined;
  const x = ratio(p), y = ratio(d);
  const parallel = ['parallel', 'prefill', 'parallel (prefill)'], auto = ['autoregressive', 'decode', 'autoregressive (decode)'];
  if (Math.abs(x - y) < 0.01) return [...parallel, ...auto];
  return x > y ? parallel : auto;
}

function npuFacts(a: RunRecord, b: RunRecord) {
  const layers = sumLayers(b, (l) => l.cycles);
  const npuCycles = sumLayers(b, (l) => l.cycles, onNpu);
  const busy = sumLayers(b, (l) => l.npu, onNpu);
  const dma = sumLayers(b, dmaPhases, onNpu);
  const same = layerRatios(a, b, onNpu);
  const before = same.reduce((s, x) => s + x.a, 0), after = same.reduce((s, x) => s + x.b, 0);
  return { layers, npuCycles, busy, dma, count: b.layers.filter(onNpu).length, layerSpeedup: after > 0 ? before / after : undefined, before };
}

const neureka: Step = {
  id: 'neureka',
  part: 2,
  title: 'N-EUREKA in parallel and autoregressive mode',
  goal: 'The NPU takes over the linear layers (as 1x1 convolutions). In parallel mode (prefill: all 64 tokens at once) a linear layer is a matrix-matrix product; in autoregressive mode (decode: one new token, the past ones in a KV cache) it is a matrix-vector product. Measure what the NPU brings in each.',
  tasks: [
    'Run the four configurations below (each button sets one up; compile after each). Pin the cluster-only run of a mode before its N-EUREKA run to see the speedup directly, in total and per layer.',
    'In the N-EUREKA runs, look at the timeline\'s N-EUREKA lane and at the table\'s NPU cycles beside each linear layer\'s total.',
    'Type both speedups and which mode gains more.',
  ],
  setups: NPU_SETUPS(false),
  questions: [
    speedupQuestion('prefill', 'Speedup of N-EUREKA in parallel mode'),
    speedupQuestion('decode', 'Speedup of N-EUREKA in autoregressive mode'),
    { id: 'more', label: 'Which mode gains more (parallel or autoregressive)', kind: 'text' },
  ],
  check(w: World, a: Answers) {
    const p = latestPair(w.runs, PREFILL, cluster, npu(false), ['platform']);
    const d = latestPair(w.runs, DECODE, cluster, npu(false), ['platform']);
    const items: CheckItem[] = [
      stateItem('prefill-pair', 'parallel mode: cluster and N-EUREKA runs', p !== null, p ? `${fmt(p.a.cycles!)} → ${fmt(p.b.cycles!)} cycles` : '', 'run "Parallel, cluster only" and "Parallel, N-EUREKA"'),
      stateItem('decode-pair', 'autoregressive mode: cluster and N-EUREKA runs', d !== null, d ? `${fmt(d.a.cycles!)} → ${fmt(d.b.cycles!)} cycles` : '', 'run "Autoregressive, cluster only" and "Autoregressive, N-EUREKA"'),
      numberItem(a, 'prefill', 'parallel speedup', p ? ratio(p) : undefined, SPEEDUP_TOLERANCE, 'the cluster-only Runtime divided by the N-EUREKA Runtime, parallel mode'),
      numberItem(a, 'decode', 'autoregressive speedup', d ? ratio(d) : undefined, SPEEDUP_TOLERANCE, 'the same for autoregressive mode'),
      textItem(a, 'more', 'which mode gains more', moreGain(p, d), 'compare your two speedups'),
    ];
    return verdict(items, () => {
      const lines: string[] = [];
      for (const [mode, pair] of [['Parallel', p!], ['Autoregressive', d!]] as const) {
        const f = npuFacts(pair.a, pair.b);
        lines.push(`${mode}: ${times(ratio(pair))} in total. ${f.count} layers ran on N-EUREKA, ${pct(f.npuCycles, f.layers)} of the run's layer time${f.layerSpeedup ? `; those layers took ${fmt(f.before)} cycles on the cluster, ${times(f.layerSpeedup)} more than on the NPU` : ''}. The NPU computed ${pct(f.busy, f.npuCycles)} of its layers' time; ${pct(f.dma, f.npuCycles)} went to moving data in and out.`);
      }
      lines.push('In parallel mode every weight the NPU loads serves all the tokens, so it mostly computes. In autoregressive mode each weight meets a single token: little work per byte moved, so the NPU layers spend much of their time on transfers and gain less. In both modes attention over the KV cache, the cache appends, the norms and the softmax stay on the cluster, which bounds what the NPU can do for the whole run.');
      return lines;
    });
  },
};

const wmem: Step = {
  id: 'wmem',
  part: 2,
  title: 'The weight memory',
  goal: 'With --neureka-wmem the linear layers\' weights live in N-EUREKA\'s own weight memory, read over a direct link: no DMA moves them into L1 tile by tile any more.',
  tasks: [
    'Run both modes on N-EUREKA with and without the weight memory (the buttons below; the runs without it from the previous step count).',
    'Compare the NPU layers: their DMA bytes and their DMA time in the table, the cluster DMA lane in the timeline.',
    'Type both gains and which mode gains more.',
  ],
  setups: NPU_SETUPS(true).filter((s) => s.id.endsWith('npu') || s.id.endsWith('wmem')),
  questions: [
    speedupQuestion('prefill', 'Speedup of the weight memory in parallel mode'),
    speedupQuestion('decode', 'Speedup of the weight memory in autoregressive mode'),
    { id: 'more', label: 'Which mode gains more (parallel or autoregressive)', kind: 'text' },
  ],
  check(w: World, a: Answers) {
    const p = latestPair(w.runs, PREFILL, npu(false), npu(true), ['neurekaWmem']);
    const d = latestPair(w.runs, DECODE, npu(false), npu(true), ['neurekaWmem']);
    const items: CheckItem[] = [
      stateItem('prefill-pair', 'parallel mode: N-EUREKA without and with the weight memory', p !== null, p ? `${fmt(p.a.cycles!)} → ${fmt(p.b.cycles!)} cycles` : '', 'run "Parallel, N-EUREKA" and "Parallel, N-EUREKA + weight memory"'),
      stateItem('decode-pair', 'autoregressive mode: without and with', d !== null, d ? `${fmt(d.a.cycles!)} → ${fmt(d.b.cycles!)} cycles` : '', 'run "Autoregressive, N-EUREKA" and "Autoregressive, N-EUREKA + weight memory"'),
      numberItem(a, 'prefill', 'parallel speedup', p ? ratio(p) : undefined, SPEEDUP_TOLERANCE, 'the Runtime without the weight memory divided by the one with it, parallel mode'),
      numberItem(a, 'decode', 'autoregressive speedup', d ? ratio(d) : undefined, SPEEDUP_TOLERANCE, 'the same for autoregressive mode'),
      textItem(a, 'more', 'which mode gains more', moreGain(p, d), 'compare your two speedups'),
    ];
    return verdict(items, () => {
      const lines: string[] = [];
      for (const [mode, pair] of [['Parallel', p!], ['Autoregressive', d!]] as const) {
        const bytesA = sumLayers(pair.a, (l) => l.dmaBytes, onNpu), bytesB = sumLayers(pair.b, (l) => l.dmaBytes, onNpu);
        const dmaA = sumLayers(pair.a, dmaPhases, onNpu), dmaB = sumLayers(pair.b, dmaPhases, onNpu);
        lines.push(`${mode}: ${times(ratio(pair))}. The NPU layers' DMA fell from ${fmt(bytesA)} to ${fmt(bytesB)} bytes and their DMA time from ${fmt(dmaA)} to ${fmt(dmaB)} cycles, which was ${pct(dmaA, pair.a.cycles!)} of the run without the weight memory.`);
      }
      lines.push('Moving weights is what an autoregressive step spends its NPU time on: each weight is used once per token, so taking its transfer away removes a large share. In parallel mode the same transfer is spread over all the tokens and was a small part to begin with.');
      return lines;
    });
  },
};

export const PART2: Step[] = [cores, tiling, profileTiling, neureka, wmem];
