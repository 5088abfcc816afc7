// Static allocation of buffers with lifetimes in one memory level (the network's activations
// in L2 or L3: hundreds of them in microLlama). A big-M MILP over all pairs does not scale
// (glpk.js proves 16 buffers optimal in ~1.6 s, not 24 in 20 s), so this is a dedicated
// allocator, exact where it is cheap:
//  - the lower bound is the most bytes live at one step: no allocation can use less;
//  - greedy: biggest (then longest-lived) first, each at the lowest address that is free for
//    its whole lifetime; when it reaches the lower bound it is optimal, and it says so;
//  - otherwise, for few enough buffers, the MILP (non-overlap only for pairs whose lifetimes
//    meet, minimise the peak) proves the optimum within a time limit.
import { align } from './layer';
import { Model, type MilpSolver } from './milp';

export interface Item {
  id: string;
  bytes: number;
  /** Lifetime in steps, [start, end). */
  start: number;
  end: number;
}

export interface Allocation {
  offsets: Map<string, number>;
  peak: number;
  lowerBound: number;
  /** 'optimal (meets the live-bytes bound)', 'optimal (MILP)', or 'greedy, N above the bound'. */
  how: string;
}

const meet = (a: Item, b: Item) => a.start < b.end && b.start < a.end;

export function liveLowerBound(items: readonly Item[]): number {
  const ev: [number, number][] = [];
  for (const it of items) { ev.push([it.start, align(it.bytes)]); ev.push([it.end, -align(it.bytes)]); }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // frees before allocations at the same step
  let live = 0, max = 0;
  for (const [, d] of ev) { live += d; max = Math.max(max, live); }
  return max;
}

export function greedy(items: readonly Item[]): Map<string, number> {
  // Buffers live for the whole run (constants) go first: they form one band at the bottom,
  // which costs nothing (they are live at every step) and keeps the rest free to pack.
  const t0 = Math.min(...items.map((i) => i.start)), t1 = Math.max(...items.map((i) => i.end));
  const always = (i: Item) => (i.start === t0 && i.end === t1 ? 1 : 0);
  const order = [...items].sort((a, b) => always(b) - always(a) || b.bytes - a.bytes || (b.end - b.start) - (a.end - a.start) || a.start - b.start || (a.id < b.id ? -1 : 1));
  const placed: { it: Item; at: number }[] = [];
  const out = new Map<string, number>();
  for (const it of order) {
    const size = align(it.bytes);
    const busy = placed.filter((p) => meet(p.it, it)).map((p) => [p.at, p.at + align(p.it.bytes)]).sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [s, e] of busy) {
      if (at + size <= s) break;
      at = Math.max(at, e);
    }
    placed.push({ it, at });
    out.set(it.id, at);
  }
  return out;
}

const peakOf = (items: readonly Item[], offs: Map<string, number>) =>
  items.reduce((m, it) => Math.max(m, offs.get(it.id)! + align(it.bytes)), 0);

/** Buffers up to this count get the exact MILP when greedy misses the bound. */
export const EXACT_MAX_ITEMS = 12;

export async function allocate(items: readonly Item[], solver?: MilpSolver, timeLimitSec = 2): Promise<Allocation> {
  const lowerBound = liveLowerBound(items);
  const g = greedy(items);
  const peak = peakOf(items, g);
  if (peak === lowerBound) return { offsets: g, peak, lowerBound, how: 'optimal (greedy meets the live-bytes bound)' };
  if (!solver || items.length > EXACT_MAX_ITEMS) return { offsets: g, peak, lowerBound, how: `greedy, ${peak - lowerBound} B above the live-bytes bound` };

  const m = new Model(solver.glp, 'home');
  const o = items.map((_, i) => m.continuous(`o${i}`, 0, peak));
  const H = m.continuous('peak', lowerBound, peak);
  items.forEach((it, i) => m.le(`top${i}`, [[o[i], 1], [H, -1]], -align(it.bytes)));
  for (let a = 0; a < items.length; a++) for (let b = a + 1; b < items.length; b++) {
    if (!meet(items[a], items[b])) continue;
    const y = m.binary(`y${a}_${b}`);
    m.le(`b${a}_${b}`, [[o[a], 1], [o[b], -1], [y, peak]], peak - align(items[a].bytes));
    m.le(`a${a}_${b}`, [[o[b], 1], [o[a], -1], [y, -peak]], -align(items[b].bytes));
  }
  m.minimize([[H, 1]]);
  const r = await solver.solve(m.lp(), { timeLimitSec });
  const glp = solver.glp;
  if (r.result.status !== glp.GLP_OPT && r.result.status !== glp.GLP_FEAS)
    return { offsets: g, peak, lowerBound, how: `greedy, ${peak - lowerBound} B above the live-bytes bound (MILP found nothing better in ${timeLimitSec} s)` };
  // Re-derive exact, aligned offsets from the solver's order: each buffer sits on the highest
  // top of the buffers below it that it meets.
  const order = items.map((it, i) => ({ it, at: r.result.vars[o[i]] ?? 0 })).sort((a, b) => a.at - b.at || (a.it.id < b.it.id ? -1 : 1));
  const offs = new Map<string, number>();
  const done: Item[] = [];
  for (const { it } of order) {
    const at = done.filter((d) => meet(d, it)).reduce((mx, d) => Math.max(mx, offs.get(d.id)! + align(d.bytes)), 0);
    offs.set(it.id, at); done.push(it);
  }
  const p = peakOf(items, offs);
  if (p >= peak) return { offsets: g, peak, lowerBound, how: `greedy, ${peak - lowerBound} B above the live-bytes bound (the MILP confirms no better order)` };
  return { offsets: offs, peak: p, lowerBound, how: r.result.status === glp.GLP_OPT ? 'optimal (MILP)' : 'MILP, best found in the time limit' };
}
