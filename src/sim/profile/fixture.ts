// A synthetic RunProfile for the Run pane's tests and benchmarks: layers of tiles, each tile
// control -> DMA in -> wait -> kernel (the workers busy, then at the barrier) -> DMA out on the
// controller, transfers on the DMA lane, NPU tasks for NPU layers. Consistent as the simulator's
// profile is: phases add up to the tile and the layer, spans sorted by lane then start and not
// overlapping within a lane. Deterministic (no randomness): sizes vary with the indices.
import type { CoreCycles, Lane, LayerPhase, LayerProfile, RunProfile, TileProfile } from './types';
import { PHASES, type Phase } from './types';

export interface FixtureOptions {
  layers?: number;
  tilesPerLayer?: number;
  /** Worker cores forked per kernel (1..8). */
  workers?: number;
  /** Layers whose index is a multiple of this run on the NPU (0: none). */
  npuEvery?: number;
  /** Startup cycles before the first layer (an 'other' span on the controller). */
  startup?: number;
}

/** Lane ids as the fixture numbers them: controller 0, workers 1..8, DMA 9, uDMA 10, NPU 11. */
export const FIXTURE_LANES: Lane[] = [
  { id: 0, name: 'controller', kind: 'controller' },
  ...Array.from({ length: 8 }, (_, i): Lane => ({ id: 1 + i, name: `core ${i}`, kind: 'worker' })),
  { id: 9, name: 'DMA', kind: 'dma' },
  { id: 10, name: 'uDMA', kind: 'udma' },
  { id: 11, name: 'NPU', kind: 'npu' },
];

const OPS = ['MatMul', 'Add', 'Softmax', 'Conv', 'Gelu'];

const zeroCore = (): CoreCycles => ({
  cycles: 0, instructions: 0, idle: 0, tcdmAccesses: 0,
  stalls: { loadUse: 0, branch: 0, multi: 0, bank: 0, l2: 0, periph: 0, icache: 0 },
});

interface RawSpan { lane: number; phase: Phase; layer: number; tile: number; start: number; end: number }

export function makeProfile(opts: FixtureOptions = {}): RunProfile {
  const nLayers = opts.layers ?? 4;
  const nTiles = opts.tilesPerLayer ?? 3;
  const workers = opts.workers ?? 8;
  const npuEvery = opts.npuEvery ?? 0;
  const raw: RawSpan[] = [];
  const layers: LayerProfile[] = [];
  let t = opts.startup ?? 100;
  raw.push({ lane: 0, phase: 'other', layer: -1, tile: -1, start: 0, end: t });
  for (let l = 0; l < nLayers; l++) {
    const npu = npuEvery > 0 && l % npuEvery === 0;
    const start = t;
    const phases: Record<LayerPhase, number> = { 'dma-in': 0, 'dma-wait': 0, kernel: 0, 'dma-out': 0, control: 0 };
    const cores = Array.from({ length: 8 }, zeroCore);
    const tiles: TileProfile[] = [];
    let dmaBytes = 0;
    let npuCycles = 0;
    for (let k = 0; k < nTiles; k++) {
      const tileStart = t;
      const d: Record<LayerPhase, number> = {
        control: 10 + (l % 3), 'dma-in': 20 + (k % 4), 'dma-wait': 5 + ((l + k) % 7), kernel: 200 + 37 * (l % 5) + k, 'dma-out': 15,
      };
      const order: LayerPhase[] = ['control', 'dma-in', 'dma-wait', 'kernel', 'dma-out'];
      for (const p of order) {
        const s = t;
        t += d[p];
        raw.push({ lane: 0, phase: p, layer: l, tile: k, start: s, end: t });
        phases[p] += d[p];
        if (p === 'dma-in' || p === 'dma-out') {
          raw.push({ lane: 9, phase: 'transfer', layer: l, tile: k, start: s + 2, end: t + 3 });
          dmaBytes += 64 * d[p];
        }
        if (p === 'kernel') {
          if (npu) {
            raw.push({ lane: 11, phase: 'transfer', layer: l, tile: k, start: s + 1, end: t - 1 });
            npuCycles += d[p] - 2;
          } else {
            for (let w = 0; w < workers; w++) {
              const busy = d[p] - 4 - ((w * 3 + k) % 9);
              raw.push({ lane: 1 + w, phase: 'busy', layer: l, tile: k, start: s + 1, end: s + 1 + busy });
              raw.push({ lane: 1 + w, phase: 'barrier', layer: l, tile: k, start: s + 1 + busy, end: t });
              const c = cores[w]!;
              const stalls = Math.floor(busy / 5);
              c.cycles += busy;
              c.instructions += busy - stalls;
              c.tcdmAccesses += Math.floor((busy - stalls) / 3);
              c.stalls.loadUse += stalls - Math.floor(stalls / 2);
              c.stalls.bank += Math.floor(stalls / 2);
              c.idle += t - (s + 1 + busy);
            }
          }
        }
      }
      tiles.push({ index: k, start: tileStart, end: t, phases: { ...d } });
    }
    const cycles = t - start;
    layers.push({
      index: l, node: `${OPS[l % OPS.length]}_${l}`, op: OPS[l % OPS.length]!, kernel: npu ? 'neureka_conv' : 'gemm_s8',
      engine: npu ? 'neureka' : 'cluster', start, end: t, cycles, phases, tiles, cores, dmaBytes, npuCycles,
      ...(l % 2 === 0 ? { estimate: Math.round(cycles * 0.8) } : {}),
    });
  }
  const end = t;
  raw.push({ lane: 0, phase: 'other', layer: -1, tile: -1, start: end, end: end + 50 });
  raw.push({ lane: 10, phase: 'transfer', layer: -1, tile: -1, start: 5, end: 60 });
  // Sorted by lane, then start (the order the contract promises).
  raw.sort((a, b) => a.lane - b.lane || a.start - b.start);
  const n = raw.length;
  const spans = {
    count: n, lane: new Uint8Array(n), phase: new Uint8Array(n), layer: new Int32Array(n), tile: new Int32Array(n),
    start: new Float64Array(n), end: new Float64Array(n),
  };
  raw.forEach((s, i) => {
    spans.lane[i] = s.lane;
    spans.phase[i] = PHASES.indexOf(s.phase);
    spans.layer[i] = s.layer;
    spans.tile[i] = s.tile;
    spans.start[i] = s.start;
    spans.end[i] = s.end;
  });
  const total = end + 50;
  const runCores = Array.from({ length: 9 }, zeroCore);
  for (const l of layers) l.cores.forEach((c, i) => { runCores[i]!.cycles += c.cycles; runCores[i]!.instructions += c.instructions; });
  runCores[8]!.cycles = total;
  runCores[8]!.instructions = total;
  return {
    start: layers[0]?.start ?? 0, end, total, runNetwork: 0, lanes: FIXTURE_LANES, layers, spans,
    heat: { pc: new Uint32Array(0), cycles: new Float64Array(0), stalls: new Float64Array(0) },
    lines: [], cores: runCores, dropped: 0,
  };
}
