// The per-layer table's model: one row per layer with the figures the table and its CSV show,
// the columns (label, value, how the screen formats it), sorting, and the CSV itself. Pure.
import { energyOf, formatEnergy } from '../energy';
import type { CoreCycles, LayerPhase, LayerProfile, RunProfile } from './types';
import { LAYER_PHASES } from './types';

export type Stall = keyof CoreCycles['stalls'];
export const STALLS: readonly Stall[] = ['loadUse', 'branch', 'multi', 'bank', 'l2', 'periph', 'icache'];
export const STALL_NAMES: Record<Stall, string> = {
  loadUse: 'load-use', branch: 'branch', multi: 'multi-cycle', bank: 'bank conflict', l2: 'L2 latency', periph: 'peripheral', icache: 'I-cache',
};

export interface LayerRow {
  /** Position in profile.layers (execution order). */
  order: number;
  node: string;
  op: string;
  kernel: string;
  engine: string;
  cycles: number;
  /** Share of the network's run (profile.end - profile.start), in percent. */
  percent: number;
  tiles: number;
  phases: Record<LayerPhase, number>;
  instructions: number;
  stalls: Record<Stall, number>;
  idle: number;
  dmaBytes: number;
  npuCycles: number;
  /** The layer's estimated energy in joules (src/sim/energy.ts: the workers' instructions and TCDM accesses, the DMA's words, static power over its cycles). */
  energy: number;
  estimate?: number;
  /** Measured over estimated cycles, when the tiler estimated. */
  ratio?: number;
  /** Baseline cycles over these cycles, when a baseline holds the layer. */
  speedup?: number;
}

export function layerRow(l: LayerProfile, order: number, network: number, speedup?: number): LayerRow {
  const stalls = Object.fromEntries(STALLS.map((k) => [k, 0])) as Record<Stall, number>;
  let instructions = 0, idle = 0, tcdmAccesses = 0;
  for (const c of l.cores) {
    instructions += c.instructions;
    idle += c.idle;
    tcdmAccesses += c.tcdmAccesses;
    for (const k of STALLS) stalls[k] += c.stalls[k];
  }
  const energy = energyOf({ cycles: l.cycles, instructions, tcdmAccesses, dmaBytes: l.dmaBytes }).total;
  return {
    order, node: l.node, op: l.op, kernel: l.kernel, engine: l.engine, cycles: l.cycles,
    percent: network > 0 ? (100 * l.cycles) / network : 0, tiles: l.tiles.length, phases: l.phases,
    instructions, stalls, idle, dmaBytes: l.dmaBytes, npuCycles: l.npuCycles, energy,
    ...(l.estimate !== undefined ? { estimate: l.estimate, ratio: l.estimate > 0 ? l.cycles / l.estimate : undefined } : {}),
    ...(speedup !== undefined ? { speedup } : {}),
  };
}

/** The rows of a profile in execution order; `baseline` maps a node to its cycles in the pinned run. */
export function layerRows(profile: RunProfile, baseline?: Readonly<Record<string, number>>): LayerRow[] {
  const network = profile.end - profile.start;
  return profile.layers.map((l, i) => {
    const b = baseline?.[l.node];
    return layerRow(l, i, network, b !== undefined && l.cycles > 0 ? b / l.cycles : undefined);
  });
}

export type Format = 'text' | 'int' | 'percent' | 'bytes' | 'ratio' | 'energy';

export interface Column {
  key: string;
  label: string;
  /** A longer explanation (the header's tooltip). */
  title: string;
  /** Its header in the CSV. */
  csv: string;
  format: Format;
  value: (r: LayerRow) => number | string | undefined;
}

const PHASE_TITLES: Record<LayerPhase, string> = {
  'dma-in': 'controller cycles issuing the input transfers',
  'dma-wait': 'controller cycles blocked until a transfer completed',
  kernel: 'controller cycles from fork to join: the kernel on the workers or the NPU',
  'dma-out': 'controller cycles issuing the output transfers',
  control: 'controller cycles in the tile loop\'s bookkeeping and the layer\'s setup',
};

/** The table's columns; the speedup column only with a baseline. */
export function columns(withSpeedup: boolean): Column[] {
  const cols: Column[] = [
    { key: 'node', label: 'layer', title: 'the node of the final graph', csv: 'layer', format: 'text', value: (r) => r.node },
    { key: 'op', label: 'op', title: 'operator', csv: 'op', format: 'text', value: (r) => r.op },
    { key: 'cycles', label: 'cycles', title: 'controller cycles in the layer', csv: 'cycles', format: 'int', value: (r) => r.cycles },
    { key: 'percent', label: '%', title: 'share of the network\'s run', csv: 'percent of network', format: 'percent', value: (r) => r.percent },
    ...(withSpeedup ? [{ key: 'speedup', label: 'speedup', title: 'baseline cycles / these cycles', csv: 'speedup', format: 'ratio' as const, value: (r: LayerRow) => r.speedup }] : []),
    { key: 'tiles', label: 'tiles', title: 'kernel calls', csv: 'tiles', format: 'int', value: (r) => r.tiles },
    ...LAYER_PHASES.map((p): Column => ({ key: p, label: p, title: PHASE_TITLES[p], csv: `${p} cycles`, format: 'int', value: (r) => r.phases[p] })),
    { key: 'instructions', label: 'worker instr.', title: 'instructions the workers retired in the layer', csv: 'worker instructions', format: 'int', value: (r) => r.instructions },
    ...STALLS.map((k): Column => ({ key: `stall-${k}`, label: STALL_NAMES[k], title: `worker stall cycles: ${STALL_NAMES[k]} (summed over the cores)`, csv: `stall ${STALL_NAMES[k]}`, format: 'int', value: (r) => r.stalls[k] })),
    { key: 'idle', label: 'idle', title: 'worker cycles at barriers and the join (summed over the cores)', csv: 'idle', format: 'int', value: (r) => r.idle },
    { key: 'dmaBytes', label: 'DMA bytes', title: 'bytes the cluster DMA and the uDMA moved for the layer', csv: 'dma bytes', format: 'bytes', value: (r) => r.dmaBytes },
    { key: 'npuCycles', label: 'NPU cycles', title: 'N-EUREKA task cycles', csv: 'npu cycles', format: 'int', value: (r) => r.npuCycles },
    { key: 'energy', label: 'energy', title: 'estimated energy: GVSoC Siracusa power-model values per instruction and TCDM access, static power over the layer\'s cycles at 50 MHz (src/sim/energy.ts)', csv: 'energy uJ', format: 'energy', value: (r) => r.energy },
    { key: 'estimate', label: 'estimate', title: 'the tiler\'s cost estimate (tiled layers)', csv: 'estimate', format: 'int', value: (r) => r.estimate },
    { key: 'ratio', label: 'meas./est.', title: 'measured cycles over the tiler\'s estimate', csv: 'measured/estimate', format: 'ratio', value: (r) => r.ratio },
  ];
  return cols;
}

export interface Sort { key: string; dir: 'asc' | 'desc' }

/** The default: execution order. */
export const EXECUTION_ORDER: Sort = { key: 'order', dir: 'asc' };

/**
 * The rows sorted by a column (numbers numerically, text by locale), rows without a value last
 * in either direction, ties in execution order. A new array; the input is left as it is.
 */
export function sortRows(rows: readonly LayerRow[], sort: Sort, cols: readonly Column[]): LayerRow[] {
  const col = cols.find((c) => c.key === sort.key);
  const value = col ? col.value : (r: LayerRow) => r.order;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows.map((r) => ({ r, v: value(r) })).sort((a, b) => {
    if (a.v === undefined || b.v === undefined)
      return a.v === b.v ? a.r.order - b.r.order : a.v === undefined ? 1 : -1;
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
    return c !== 0 ? sign * c : a.r.order - b.r.order;
  }).map((x) => x.r);
}

/** Clicking a header: the same column flips its direction; another starts descending for numbers (largest first). */
export function nextSort(current: Sort, key: string, cols: readonly Column[]): Sort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: cols.find((c) => c.key === key)?.format === 'text' ? 'asc' : 'desc' };
}

/** A table cell for the screen. */
export function formatCell(v: number | string | undefined, f: Format): string {
  if (v === undefined) return '—';
  if (typeof v === 'string') return v;
  switch (f) {
    case 'percent': return `${v.toFixed(1)}`;
    case 'ratio': return `${v.toFixed(2)}×`;
    case 'energy': return formatEnergy(v);
    case 'bytes': return v >= 1024 * 1024 ? `${(v / 1024 / 1024).toFixed(2)} MiB` : v >= 10240 ? `${(v / 1024).toFixed(1)} KiB` : `${v} B`;
    default: return Math.round(v).toLocaleString('en-US');
  }
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(v: number | string | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(+v.toFixed(6));
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The per-layer table as CSV: a header row and one row per layer in execution order, raw
 * numbers (no grouping, bytes in bytes, percent as a number); kernel and engine after the op;
 * the speedup column when `baseline` (node -> cycles) is given.
 */
export function layersCsv(profile: RunProfile, baseline?: Readonly<Record<string, number>>): string {
  const cols = columns(baseline !== undefined);
  const extra: Column[] = [
    { key: 'kernelName', label: 'kernel', title: '', csv: 'kernel function', format: 'text', value: (r) => r.kernel },
    { key: 'engine', label: 'engine', title: '', csv: 'engine', format: 'text', value: (r) => r.engine },
  ];
  const all = [...cols.slice(0, 2), ...extra, ...cols.slice(2)];
  const lines = [all.map((c) => csvField(c.csv)).join(',')];
  /* energy in the header's unit, uJ */
  const raw = (c: Column, r: LayerRow) => { const v = c.value(r); return c.format === 'energy' && typeof v === 'number' ? v * 1e6 : v; };
  for (const r of layerRows(profile, baseline)) lines.push(all.map((c) => csvField(raw(c, r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
