// From the simulator's raw profile to the RunProfile the Run pane reads. Before the run,
// `profileSetup` gives every instruction of Network.c a region: its layer and what its line does
// there (codegen/phases.ts); the controller's region changes are then the network's phases.
// After the run, `buildProfile` cuts the controller's time into layer -> tile -> phase spans
// (its waits on the DMA split off), hangs the workers' jobs and the engines' transfers under
// them, sums per-core cycles per layer and maps the per-pc heat onto source lines.
import type { CodegenResult } from '../../compiler/codegen/types';
import { phaseOfLine } from '../../compiler/codegen/phases';
import type { LineTable } from '../link/lines';
import type { CoreStats } from '../siracusa';
import type { IdleRecord, RawProfile, ProfileSetup } from './log';
import { LAYER_PHASES, PHASES, type CoreCycles, type Lane, type LayerPhase, type LayerProfile, type Phase, type RunProfile, type Spans } from './types';

const OTHER = 1; // region: code outside the layers (startup, the harness)
const NETWORK = 2; // region: RunNetwork's own code between the layers (its calls, returns, prologue)
const FIRST_LAYER = 3;
const regionOf = (layer: number, phase: LayerPhase) => FIRST_LAYER + layer * LAYER_PHASES.length + LAYER_PHASES.indexOf(phase);
/** The largest code window the simulator profiles (PROF_SPAN_MAX of src/sim/as/layout.ts). */
const SPAN_MAX = 0x80000;
const CONTROLLER = 8;
const WORKERS = 8;

const base = (f: string) => f.replace(/^.*[\\/]/, '');

/** The code window and the region of every halfword in it, from the line table and the layers' line ranges in Network.c (as built: `network` is its text). */
export function profileSetup(code: CodegenResult, lines: LineTable, network: string): ProfileSetup {
  const rows = lines.rows;
  if (!rows.length) return { lo: 0, span: 0 };
  const lo = rows[0].addr & ~1;
  const hi = Math.min(rows[rows.length - 1].addr, lo + SPAN_MAX);
  const span = (hi - lo + 1) & ~1;
  // Network.c line -> region.
  const text = network.split('\n');
  const lineRegion = new Map<number, number>();
  const run = text.findIndex((l) => l.startsWith('void RunNetwork(void)'));
  for (let n = run; run >= 0 && n < text.length; n++) {
    lineRegion.set(n + 1, NETWORK);
    if (text[n] === '}') break;
  }
  code.layers.forEach((l, i) => {
    for (const r of l.ranges) {
      if (r.file !== 'Network.c') continue;
      for (let n = r.from; n <= r.to && n <= text.length; n++) lineRegion.set(n, regionOf(i, phaseOfLine(text[n - 1])));
    }
  });
  // The harness's call of RunNetwork sits inside its timer: it counts to the network.
  const harness = (code.files.find((f) => f.path === 'main.c')?.content ?? '').split('\n');
  const timedCall = harness.findIndex((l) => /^\s*RunNetwork\(\);/.test(l)) + 1;
  const fileRegion = lines.files.map((f) => (base(f) === 'Network.c' ? 'network' : base(f) === 'main.c' ? 'harness' : 'lib'));
  const regions = new Uint16Array(span / 2);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k], next = rows[k + 1];
    if (r.file < 0 || !next) continue;
    const kind = fileRegion[r.file];
    // Line 0 is code the compiler made up (clang's): it belongs to whatever ran before it.
    const region = kind === 'lib' || r.line === 0 ? 0 : kind === 'harness' ? (r.line === timedCall ? NETWORK : OTHER) : lineRegion.get(r.line) ?? OTHER;
    if (!region) continue;
    for (let pc = Math.max(r.addr, lo); pc < next.addr && pc < lo + span; pc += 2) regions[(pc - lo) >> 1] = region;
  }
  return { lo, span, regions };
}

interface Sub { start: number; end: number; layer: number; phase: LayerPhase | 'other' }

/** The controller's time as consecutive spans of (layer, phase), its waits on transfers split off as dma-wait. */
function controllerSpans(raw: RawProfile, layers: number, endCycle: number): Sub[] {
  const idles = raw.idles.filter((d) => d.core === CONTROLLER && (d.reason === 'dma' || d.reason === 'udma')).sort((a, b) => a.from - b.from);
  const out: Sub[] = [];
  const push = (start: number, end: number, layer: number, phase: Sub['phase']) => {
    if (end <= start) return;
    const last = out[out.length - 1];
    if (last && last.layer === layer && last.phase === phase && last.end === start) last.end = end;
    else out.push({ start, end, layer, phase });
  };
  let k = 0;
  const n = raw.region.length;
  // Before the first region change the controller runs crt0 and main: outside the layers.
  const starts = [0, ...raw.regionCycle], regs = [OTHER, ...raw.region];
  for (let i = 0; i <= n; i++) {
    const a = starts[i], b = i < n ? starts[i + 1] : endCycle;
    const r = regs[i];
    const inLayer = r >= FIRST_LAYER && Math.floor((r - FIRST_LAYER) / LAYER_PHASES.length) < layers;
    const layer = inLayer ? Math.floor((r - FIRST_LAYER) / LAYER_PHASES.length) : -1;
    const phase: Sub['phase'] = r === NETWORK ? 'control' : inLayer ? LAYER_PHASES[(r - FIRST_LAYER) % LAYER_PHASES.length] : 'other';
    let t = a;
    while (k < idles.length && idles[k].to <= t) k++;
    for (let j = k; j < idles.length && idles[j].from < b; j++) {
      const d = idles[j];
      const from = Math.max(d.from, t), to = Math.min(d.to, b);
      if (to <= from) continue;
      push(t, from, layer, phase);
      // A wait inside the kernel (the NPU's end event) is the kernel's time.
      push(from, to, layer, phase === 'kernel' || phase === 'other' ? phase : 'dma-wait');
      t = to;
    }
    push(t, b, layer, phase);
  }
  return out;
}

/**
 * Tile numbers of a layer's spans: a tile is one kernel call with the transfers around it. A
 * kernel span counts as a call when work started in it (`calls`): code the optimiser hoisted out
 * of a kernel line into the loop's preheader is not a tile.
 */
function tilesOf(subs: Sub[], calls: boolean[]): number[] {
  const tile: number[] = [];
  let t = 0, seenKernel = false, prev: Sub['phase'] | null = null;
  for (const [i, s0] of subs.entries()) {
    const s = s0.phase === 'kernel' && !calls[i] ? { ...s0, phase: 'control' as const } : s0;
    if (s.phase === 'kernel') {
      if (seenKernel && prev !== 'kernel') t++;
      seenKernel = true;
    } else if ((s.phase === 'dma-in' || s.phase === 'control') && seenKernel) {
      t++;
      seenKernel = false;
    }
    tile.push(t);
    prev = s.phase;
  }
  // A stretch with no kernel (the loop's exit, the epilogue) belongs to the tile before it.
  const kernelTiles = new Set(tile.filter((_, i) => subs[i].phase === 'kernel' && calls[i]));
  const number = new Map<number, number>();
  let n = -1;
  for (const k of new Set(tile)) {
    if (kernelTiles.has(k)) n++;
    number.set(k, Math.max(n, 0));
  }
  return tile.map((k) => number.get(k)!);
}

function addCycles(to: CoreCycles, c: CoreCycles): void {
  to.cycles += c.cycles; to.instructions += c.instructions; to.idle += c.idle; to.tcdmAccesses += c.tcdmAccesses;
  const a = to.stalls, b = c.stalls;
  a.loadUse += b.loadUse; a.branch += b.branch; a.multi += b.multi; a.bank += b.bank; a.l2 += b.l2; a.periph += b.periph; a.icache += b.icache;
}

const zeroPhases = (): Record<LayerPhase, number> => ({ 'dma-in': 0, 'dma-wait': 0, kernel: 0, 'dma-out': 0, control: 0 });
const zeroCore = (): CoreCycles => ({ cycles: 0, instructions: 0, stalls: { loadUse: 0, branch: 0, multi: 0, bank: 0, l2: 0, periph: 0, icache: 0 }, idle: 0, tcdmAccesses: 0 });

/** The span (index into `subs`, sorted by start) covering cycle t, or the last one before it. */
function spanAt(subs: Sub[], t: number): number {
  let lo = 0, hi = subs.length - 1, found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (subs[mid].start <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

export interface ProfileInputs {
  raw: RawProfile;
  code: CodegenResult;
  lines: LineTable;
  /** The simulator's per-core statistics and the run's last cycle. */
  cores: CoreStats[];
  total: number;
}

export function buildProfile(p: ProfileInputs): RunProfile {
  const { raw, code } = p;
  const L = code.layers.length;
  const ctrlEnd = Math.max(p.total, ...raw.regionCycle);
  const subs = controllerSpans(raw, L, ctrlEnd);

  // Layers: their spans, tiles and phases.
  const layers: LayerProfile[] = code.layers.map((l, index) => ({
    index, node: l.node, op: l.op, kernel: l.kernel, engine: l.engine, start: Infinity, end: 0, cycles: 0,
    phases: zeroPhases(), tiles: [], cores: Array.from({ length: WORKERS }, zeroCore), dmaBytes: 0, npuCycles: 0,
    ...(l.estimate !== undefined ? { estimate: l.estimate } : {}),
  }));
  const byLayer = new Map<number, number[]>();
  subs.forEach((s, i) => {
    if (s.layer < 0) return;
    const list = byLayer.get(s.layer);
    if (list) list.push(i); else byLayer.set(s.layer, [i]);
  });
  const subTile = new Int32Array(subs.length).fill(-1);
  // When work started (a worker's job, an NPU task): the kernel spans that are calls.
  const work = [...raw.jobs.map((j) => j.start), ...raw.engines.filter((e) => e.engine === 'npu').map((e) => e.from)].sort((a, b) => a - b);
  const firstAtOrAfter = (t: number) => {
    let lo = 0, hi = work.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (work[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  };
  const isCall = (s: Sub) => s.phase === 'kernel' && (work.length === 0 || (work[firstAtOrAfter(s.start)] ?? Infinity) <= s.end);
  for (const [li, idx] of byLayer) {
    const lp = layers[li];
    const layerSubs = idx.map((i) => subs[i]);
    const calls = layerSubs.map(isCall);
    // A layer whose kernel runs on the controller itself (no fork): every kernel span is a call.
    if (!calls.some(Boolean)) layerSubs.forEach((s, k) => { calls[k] = s.phase === 'kernel'; });
    const tiles = tilesOf(layerSubs, calls);
    idx.forEach((i, k) => {
      const s = subs[i], d = s.end - s.start, ph = s.phase as LayerPhase;
      subTile[i] = tiles[k];
      lp.start = Math.min(lp.start, s.start);
      lp.end = Math.max(lp.end, s.end);
      lp.cycles += d;
      lp.phases[ph] += d;
      let t = lp.tiles[tiles[k]];
      if (!t) t = lp.tiles[tiles[k]] = { index: tiles[k], start: s.start, end: s.end, phases: zeroPhases() };
      t.end = s.end;
      t.phases[ph] += d;
    });
  }
  for (const lp of layers) if (lp.start === Infinity) lp.start = 0;

  // The spans, lane by lane.
  const lanes: Lane[] = [{ id: 0, name: 'controller', kind: 'controller' }];
  const used = new Set(raw.jobs.map((j) => j.core));
  for (let c = 0; c < WORKERS; c++) if (used.has(c)) lanes.push({ id: lanes.length, name: `core ${c}`, kind: 'worker' });
  const laneOfCore = new Map(lanes.filter((l) => l.kind === 'worker').map((l) => [Number(l.name.slice(5)), l.id]));
  const engineLane = new Map<string, number>();
  for (const [e, name] of [['dma', 'cluster DMA'], ['udma', 'uDMA (L3)'], ['npu', 'N-EUREKA']] as const) {
    if (raw.engines.some((x) => x.engine === e)) { engineLane.set(e, lanes.length); lanes.push({ id: lanes.length, name, kind: e }); }
  }
  const rows: { lane: number; start: number; end: number; layer: number; tile: number; phase: Phase }[] = [];
  subs.forEach((s, i) => rows.push({ lane: 0, start: s.start, end: s.end, layer: s.layer, tile: subTile[i], phase: s.phase }));
  const where = (t: number) => { const i = spanAt(subs, t); return { layer: subs[i]?.layer ?? -1, tile: subTile[i] ?? -1 }; };

  // Workers: each job busy, its barrier / join waits apart; its counters go to the job's layer.
  const waits = new Map<number, IdleRecord[]>();
  for (const d of raw.idles) {
    if (d.core >= WORKERS || (d.reason !== 'barrier' && d.reason !== 'join')) continue;
    const list = waits.get(d.core);
    if (list) list.push(d); else waits.set(d.core, [d]);
  }
  for (const list of waits.values()) list.sort((a, b) => a.from - b.from);
  const nextWait = new Map<number, number>();
  const jobs = [...raw.jobs].sort((a, b) => a.start - b.start);
  const allCores: CoreCycles[] = Array.from({ length: WORKERS }, zeroCore);
  for (const j of jobs) {
    const lane = laneOfCore.get(j.core)!;
    const at = where(j.start);
    const dw = (k: 'instret' | 'bank' | 'l2' | 'periph' | 'idle' | 'loadUse' | 'branch' | 'tcdm' | 'icache') => (j.to[k] - j.from[k]) >>> 0;
    const cyc = j.end - j.start;
    const cc: CoreCycles = {
      cycles: cyc, instructions: dw('instret'), idle: dw('idle'), tcdmAccesses: dw('tcdm'),
      stalls: { loadUse: dw('loadUse'), branch: dw('branch'), bank: dw('bank'), l2: dw('l2'), periph: dw('periph'), icache: dw('icache'), multi: 0 },
    };
    cc.stalls.multi = Math.max(0, cyc - cc.instructions - cc.idle - cc.stalls.loadUse - cc.stalls.branch - cc.stalls.bank - cc.stalls.l2 - cc.stalls.periph - cc.stalls.icache);
    if (at.layer >= 0) addCycles(layers[at.layer].cores[j.core], cc);
    addCycles(allCores[j.core], cc);
    // A core's jobs and waits both come in time order: one pass over its waits.
    const ws = waits.get(j.core) ?? [];
    let k = nextWait.get(j.core) ?? 0;
    while (k < ws.length && ws[k].to <= j.start) k++;
    nextWait.set(j.core, k);
    let t = j.start;
    for (; k < ws.length && ws[k].from < j.end; k++) {
      const d = ws[k];
      const from = Math.max(d.from, j.start), to = Math.min(d.to, j.end);
      if (from > t) rows.push({ lane, start: t, end: from, ...at, phase: 'busy' });
      rows.push({ lane, start: from, end: to, ...at, phase: 'barrier' });
      t = to;
    }
    if (j.end > t) rows.push({ lane, start: t, end: j.end, ...at, phase: 'busy' });
  }
  for (const e of raw.engines) {
    const at = where(e.from);
    rows.push({ lane: engineLane.get(e.engine)!, start: e.from, end: e.to, ...at, phase: 'transfer' });
    if (at.layer >= 0) {
      if (e.engine === 'npu') layers[at.layer].npuCycles += e.to - e.from;
      else layers[at.layer].dmaBytes += e.bytes;
    }
  }
  rows.sort((a, b) => a.lane - b.lane || a.start - b.start);
  const n = rows.length;
  const spans: Spans = {
    count: n, lane: new Uint8Array(n), phase: new Uint8Array(n), layer: new Int32Array(n), tile: new Int32Array(n),
    start: new Float64Array(n), end: new Float64Array(n),
  };
  const phaseId = new Map(PHASES.map((ph, i) => [ph, i]));
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    spans.lane[i] = r.lane; spans.phase[i] = phaseId.get(r.phase)!; spans.layer[i] = r.layer; spans.tile[i] = r.tile;
    spans.start[i] = r.start; spans.end[i] = r.end;
  }

  // The heat: non-zero pcs, and per source line.
  const { heat: h } = raw;
  const pcs: number[] = [], cyc: number[] = [], st: number[] = [];
  const perLine = new Map<number, { file: string; line: number; cycles: number; stalls: number }>();
  // pcs ascend: the line table's rows (sorted by address) are walked alongside, not searched.
  const lrows = p.lines.rows;
  let row = -1;
  for (let i = 0; i < h.cycles.length; i++) {
    if (!h.cycles[i]) continue;
    const pc = h.lo + 2 * i;
    pcs.push(pc); cyc.push(h.cycles[i]); st.push(h.stalls[i]);
    while (row + 1 < lrows.length && lrows[row + 1].addr <= pc) row++;
    const r = lrows[row];
    if (!r || r.file < 0 || r.line === 0) continue;
    const key = r.file * 0x100000 + r.line;
    let e = perLine.get(key);
    if (!e) perLine.set(key, e = { file: base(p.lines.files[r.file]), line: r.line, cycles: 0, stalls: 0 });
    e.cycles += h.cycles[i]; e.stalls += h.stalls[i];
  }

  const ran = layers.filter((l) => l.cycles > 0);
  const runNetwork = subs.reduce((s, x) => s + (x.layer < 0 && x.phase === 'control' ? x.end - x.start : 0), 0);
  const controller = p.cores[CONTROLLER];
  const coreCycles = (c: CoreStats): CoreCycles => ({
    cycles: c.instructions + c.stalls.pipeline + c.stalls.bank + c.stalls.l2 + c.stalls.periph + c.stalls.icache + c.idle, instructions: c.instructions, idle: c.idle,
    tcdmAccesses: c.tcdmAccesses,
    stalls: { loadUse: c.stalls.loadUse ?? 0, branch: c.stalls.branch ?? 0, multi: c.stalls.pipeline - (c.stalls.loadUse ?? 0) - (c.stalls.branch ?? 0), bank: c.stalls.bank, l2: c.stalls.l2, periph: c.stalls.periph, icache: c.stalls.icache },
  });
  return {
    start: ran.length ? Math.min(...ran.map((l) => l.start)) : 0,
    end: ran.length ? Math.max(...ran.map((l) => l.end)) : 0,
    total: p.total,
    runNetwork,
    lanes, layers, spans,
    heat: { pc: Uint32Array.from(pcs), cycles: Float64Array.from(cyc), stalls: Float64Array.from(st) },
    lines: [...perLine.values()].sort((a, b) => b.cycles - a.cycles),
    cores: [...p.cores.slice(0, WORKERS).map(coreCycles), ...(controller ? [coreCycles(controller)] : [])],
    dropped: raw.dropped,
  };
}
