// The memory plan as text: one line per layer (tile shape, tiles, L1 bytes, bytes moved) and
// one per memory level. Used by `dpg compile --out` and the CLI.
import type { TilePlan } from './types';

const dims = (s: number[]) => s.join('x');

export function tilingTable(p: TilePlan): string {
  const rows = [['layer', 'kernel', 'output', 'tile', 'tiles', 'L1 B', 'moved B', 'solve']];
  for (const t of p.tilings)
    rows.push([t.node, t.kernel, dims(t.output), dims(t.tile), String(t.tiles), String(t.l1Bytes), String(t.bytesMoved),
      `${t.solve.status}, ${t.solve.candidates} candidates`]);
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => c.padEnd(w[i])).join('  ').trimEnd());
  lines.push('');
  for (const l of p.levels)
    lines.push(`${l.name}: ${l.used} of ${l.capacity} B used (lower bound ${l.lowerBound} B), ${l.buffers.length} buffers; ${l.allocator}`);
  lines.push(`${p.steps} steps; checker: ${p.check.ok ? 'ok' : p.check.problems.join('; ')} (${p.check.buffersChecked} buffers, ${p.check.pairsChecked} live pairs)`);
  return lines.join('\n') + '\n';
}
