// The profile as text (`dpg run --profile`): per layer its cycles, share of the network, tiles
// and cycles by phase, the workers' instructions and stalls; then the hottest source lines.
import { LAYER_PHASES, type CoreCycles, type RunProfile } from './types';

const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '-');

/** The stall cycles of the workers summed: by cause. */
export function stallsOf(cores: readonly CoreCycles[]): CoreCycles['stalls'] & { instructions: number; idle: number } {
  const s = { loadUse: 0, branch: 0, multi: 0, bank: 0, l2: 0, periph: 0, instructions: 0, idle: 0 };
  for (const c of cores) {
    s.instructions += c.instructions; s.idle += c.idle;
    for (const k of Object.keys(c.stalls) as (keyof CoreCycles['stalls'])[]) s[k] += c.stalls[k];
  }
  return s;
}

export function profileReport(p: RunProfile, runtime?: number): string {
  const net = p.runNetwork + p.layers.reduce((s, l) => s + l.cycles, 0);
  const head = ['layer', 'op', 'cycles', '%', 'tiles', ...LAYER_PHASES, 'instr', 'load-use', 'branch', 'bank', 'L2', 'barrier'];
  const rows = p.layers.filter((l) => l.cycles > 0).map((l) => {
    const s = stallsOf(l.cores);
    return [l.node, l.op, l.cycles, pct(l.cycles, net), l.tiles.length, ...LAYER_PHASES.map((k) => l.phases[k]), s.instructions, s.loadUse, s.branch, s.bank, s.l2, s.idle].map(String);
  });
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
