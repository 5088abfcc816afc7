// A tiny benchmark harness: each benchmark measures its subject and a baseline side by side
// in the same run and reports both, so the ratio means something on a shared, noisy machine.

export interface BenchRow {
  name: string;
  /** The subject's figure and unit, e.g. 812 'ms'; NaN when it could not be measured (see note). */
  value: number;
  unit: string;
  /** What it is compared with, measured in the same run. */
  baseline?: { name: string; value: number };
  note?: string;
}

export interface Bench {
  name: string;
  run: () => Promise<BenchRow[]> | BenchRow[];
}

/** Best of `reps` runs of fn, in ms (the minimum is the least noisy estimate). */
export async function timeBest(fn: () => unknown, reps = 3): Promise<number> {
  await fn(); // warm-up: JIT and caches, not measured
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export function formatTable(rows: BenchRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    Number.isNaN(r.value) ? '-' : `${fmt(r.value)} ${r.unit}`,
    r.baseline ? `${r.baseline.name}: ${fmt(r.baseline.value)} ${r.unit}` : '',
    r.baseline && r.baseline.value > 0 && !Number.isNaN(r.value) ? `${(r.value / r.baseline.value).toFixed(2)}x` : '',
    r.note ?? '',
  ]);
  const head = ['benchmark', 'value', 'baseline (same run)', 'ratio', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((s, i) => s.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}
