// One layer's MILP: choose the output tile and stack the layer's L1 buffers.
//
// Tile sizes multiply (a conv tile's bytes are rows x cols x channels), so the model does not
// carry sizes as variables: it chooses among candidate tiles with binaries x_c (sum x_c = 1),
// and every buffer's size is linear in them, size_b = sum_c bytes(b, c) x_c. Buffers get an
// offset o_b; for each pair a binary y_ab says which lies below, with big-M disjunctions
//   o_a + size_a <= o_b + M (1 - y_ab),   o_b + size_b <= o_a + M y_ab,
// and every o_b + size_b <= L1 (the stacking order is the solver's, as in Deeploy's Tetris
// co-optimisation). The objective is the cost model's cycles (transfers and per-tile kernel
// overheads, parallelism within a tile) plus a tiny term that packs buffers low, which also
// makes the result deterministic.
import { align, type LayerProblem, type TileCost } from './layer';
import { Model, type MilpSolver } from './milp';

/** Candidates given to the solver: the cheapest by the cost model (the rest are dominated in practice). */
export const MAX_MILP_CANDIDATES = 16;

export interface LayerSolution {
  choice: TileCost;
  /** L1 offset per buffer, in `bufferNames` order. */
  offsets: number[];
  bufferNames: string[];
  /** Per buffer: the tensor it holds (position in the problem's tensors), undefined for the scratch. */
  bufferTensors: (number | undefined)[];
  bufferBytes: number[];
  status: 'optimal' | 'feasible' | 'single';
  vars: number;
  rows: number;
  ms: number;
}

/** Buffers of a layer: one per tensor with an L1 buffer, then the scratch. The names label MILP variables and order ties. */
function buffersOf(p: LayerProblem, c: TileCost): { name: string; k?: number; bytes: number }[] {
  const b: { name: string; k?: number; bytes: number }[] = p.tensors.map((t, k) => ({ name: `${t.role}${k}`, k, bytes: c.buffers[k] })).filter((x) => x.bytes > 0);
  if (c.scratch > 0) b.push({ name: 'scratch', bytes: c.scratch });
  return b;
}

export async function solveLayer(p: LayerProblem, candidates: TileCost[], budget: number, solver: MilpSolver,
  timeLimitSec: number): Promise<LayerSolution> {
  const t0 = performance.now();
  const cands = [...candidates].sort((a, b) => a.cycles - b.cycles || b.l1Bytes - a.l1Bytes).slice(0, MAX_MILP_CANDIDATES);
  // Buffer identity is the same across candidates (which tensors have L1 buffers does not
  // depend on the tile), except scratch, which some candidates may not need: take the union.
  const names = [...new Set(cands.flatMap((c) => buffersOf(p, c).map((b) => b.name)))];
  const tensorOf = new Map(cands.flatMap((c) => buffersOf(p, c)).map((b) => [b.name, b.k]));
  const bufferTensors = names.map((n) => tensorOf.get(n));
  const bytesOf = (c: TileCost, n: string) => buffersOf(p, c).find((b) => b.name === n)?.bytes ?? 0;
  const stack = (c: TileCost, order: string[]) => {
    let at = 0;
    const offsets = new Map<string, number>();
    for (const n of order) { offsets.set(n, at); at += align(bytesOf(c, n)); }
    return names.map((n) => offsets.get(n)!);
  };
  if (cands.length === 1 && names.length <= 1) {
    const c = cands[0];
    return { choice: c, offsets: stack(c, names), bufferNames: names, bufferTensors, bufferBytes: names.map((n) => bytesOf(c, n)), status: 'single', vars: 0, rows: 0, ms: performance.now() - t0 };
  }

  const m = new Model(solver.glp, p.node.name);
  const x = cands.map((_, i) => m.binary(`x${i}`));
  // Columns by index: GLPK aborts on a name over 255 bytes, and tensor names are the model's (found by the name fuzz, c-text.test.ts).
  const o = names.map((_, j) => m.continuous(`o_${j}`, 0, budget));
  m.eq('choose', x.map((v) => [v, 1]), 1);
  const size = (j: number): [string, number][] => cands.map((c, i) => [x[i], bytesOf(c, names[j])] as [string, number]).filter(([, b]) => b > 0);
  names.forEach((_, j) => m.le(`cap_${j}`, [[o[j], 1], ...size(j)], budget));
  const M = budget;
  for (let a = 0; a < names.length; a++) for (let b = a + 1; b < names.length; b++) {
    const y = m.binary(`y_${a}_${b}`);
    m.le(`below_${a}_${b}`, [[o[a], 1], [o[b], -1], ...size(a), [y, M]], M);
    m.le(`above_${a}_${b}`, [[o[b], 1], [o[a], -1], ...size(b), [y, -M]], 0);
  }
  const scale = cands[0].cycles || 1;
  m.minimize([...cands.map((c, i) => [x[i], c.cycles / scale] as [string, number]), ...o.map((v) => [v, 1e-9] as [string, number])]);
  const { vars, rows } = m.size;
  const r = await solver.solve(m.lp(), { timeLimitSec });
  const glp = solver.glp;
  const ok = r.result.status === glp.GLP_OPT || r.result.status === glp.GLP_FEAS;
  if (!ok) {
    // No integer solution in time (never seen: every candidate fits on its own): the cheapest, stacked in order.
    const c = cands[0];
    return { choice: c, offsets: stack(c, names), bufferNames: names, bufferTensors, bufferBytes: names.map((n) => bytesOf(c, n)), status: 'feasible', vars, rows, ms: performance.now() - t0 };
  }
  const chosen = x.findIndex((v) => r.result.vars[v] > 0.5);
  const c = cands[chosen < 0 ? 0 : chosen];
  // Exact addresses from the solver's stacking order: bottom to top, packed and aligned.
  const order = names.map((n, j) => ({ n, at: r.result.vars[o[j]] ?? 0 })).sort((a, b) => a.at - b.at || a.n.localeCompare(b.n)).map((e) => e.n);
  return {
    choice: c, offsets: stack(c, order), bufferNames: names, bufferTensors, bufferBytes: names.map((n) => bytesOf(c, n)),
    status: r.result.status === glp.GLP_OPT ? 'optimal' : 'feasible', vars, rows, ms: performance.now() - t0,
  };
}
