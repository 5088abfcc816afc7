// The profile as text (`dpg run --profile`): per layer its cycles, share of the network, tiles
// and cycles by phase, the workers' instructions and stalls, its energy estimate; then the
// hottest source lines.
import { formatEnergy } from '../energy';
import { layerRow } from './table';
import { LAYER_PHASES, type RunProfile } from './types';

const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '-');

export function profileReport(p: RunProfile, runtime?: number): string {
  const net = p.runNetwork + p.layers.reduce((s, l) => s + l.cycles, 0);
  const head = ['layer', 'op', 'cycles', '%', 'tiles', ...LAYER_PHASES, 'instr', 'load-use', 'branch', 'bank', 'L2', 'I-cache', 'barrier', 'energy'];
  // The table's rows (workers' instructions and stalls summed over the cores), with the share of `net`.
  const rows = p.layers.map((l, i) => layerRow(l, i, net)).filter((r) => r.cycles > 0).map((r) => [
    r.node, r.op, r.cycles, pct(r.cycles, net), r.tiles, ...LAYER_PHASES.map((k) => r.phases[k]),
    r.instructions, r.stalls.loadUse, r.stalls.branch, r.stalls.bank, r.stalls.l2, r.stalls.icache, r.idle, formatEnergy(r.energy),
  ].map(String));
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  const lines = [
    `Profile: the network takes ${net} cycles (${p.runNetwork} of them RunNetwork's own calls)${runtime !== undefined ? ` (Runtime ${runtime}: ${pct(net, runtime)})` : ''}, ${p.spans.count} spans on ${p.lanes.length} lanes`,
    line(head), ...rows.map(line),
    'Hottest source lines (cycles on all cores, of which stalls):',
    ...p.lines.slice(0, 10).map((l) => `  ${`${l.file}:${l.line}`.padEnd(24)} ${String(l.cycles).padStart(10)}  ${String(l.stalls).padStart(9)}`),
  ];
  return lines.join('\n');
}
