// Layered layout of a dataflow graph, for the graph pane; runs in the graph worker.
//
// The library: dagre (@dagrejs/dagre). A network is a DAG read top to bottom, which is
// exactly the Sugiyama-style layered layout dagre implements (rank assignment, crossing
// reduction, coordinate assignment, edge routing around boxes). It is small (pure JS, ~80 kB)
// and synchronous, so it runs as a plain function in our own worker; elkjs, the other
// established choice, ships a 1.5 MB GWT bundle and took about twice as long on microLlama
// (541 boxes) here. Above MANY boxes we skip dagre's "optimal order" search, which is most of
// its time on big graphs and barely changes a chain-like network. dagre recurses along paths,
// so a graph more than DEEP nodes deep would overflow the stack (it does at ~2000 in V8);
// such graphs get a simple layered layout of our own (longest-path ranks, nodes side by
// side, straight edges), as does any graph on which dagre still runs out of stack.
import dagre from '@dagrejs/dagre';
import type { GraphLayout, LayoutInput } from './graph-api';

const MANY = 150;
const DEEP = 1200;
const NODE_SEP = 18;
const RANK_SEP = 22;
const MARGIN = 16;

export function layoutGraph(input: LayoutInput): GraphLayout {
  const t0 = performance.now();
  const ranks = longestPathRanks(input);
  let out: Omit<GraphLayout, 'ms'> | null = null;
  if (ranks.reduce((a, b) => Math.max(a, b), 0) < DEEP) {
    try {
      out = dagreLayout(input);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
  }
  out ??= simpleLayout(input, ranks);
  return { ...out, ms: performance.now() - t0 };
}

function dagreLayout(input: LayoutInput): Omit<GraphLayout, 'ms'> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: NODE_SEP, ranksep: RANK_SEP, edgesep: 8, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of input.nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of input.edges) if (e.from !== e.to) g.setEdge(e.from, e.to);
  dagre.layout(g, { disableOptimalOrderHeuristic: input.nodes.length > MANY });
  const centres: number[] = [];
  for (const n of input.nodes) {
    const p = g.node(n.id);
    centres.push(p.x ?? 0, p.y ?? 0);
  }
  const routes = input.edges.map((e) => {
    const points: { x: number; y: number }[] = g.edge(e.from, e.to)?.points ?? [];
    return points.flatMap((p) => [p.x, p.y]);
  });
  const { width = 0, height = 0 } = g.graph();
  return { width, height, centres, routes };
}

/** Each node's rank: the length of the longest path to it (iterative, so any depth). */
function longestPathRanks(input: LayoutInput): number[] {
  const index = new Map(input.nodes.map((n, i) => [n.id, i]));
  const succ: number[][] = input.nodes.map(() => []);
  const indeg = new Array<number>(input.nodes.length).fill(0);
  for (const e of input.edges) {
    const a = index.get(e.from), b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    succ[a]!.push(b);
    indeg[b]!++;
  }
  const rank = new Array<number>(input.nodes.length).fill(0);
  const queue = input.nodes.map((_, i) => i).filter((i) => indeg[i] === 0);
  for (let q = 0; q < queue.length; q++) {
    const a = queue[q]!;
    for (const b of succ[a]!) {
      rank[b] = Math.max(rank[b]!, rank[a]! + 1);
      if (--indeg[b]! === 0) queue.push(b);
    }
  }
  // Nodes on a cycle never reach indegree 0: they keep rank 0 (an ONNX graph has none).
  return rank;
}

/** Each rank a centred row, straight edges. */
export function simpleLayout(input: LayoutInput, rank = longestPathRanks(input)): Omit<GraphLayout, 'ms'> {
  const index = new Map(input.nodes.map((n, i) => [n.id, i]));
  const rows: number[][] = [];
  rank.forEach((r, i) => (rows[r] ??= []).push(i));
  const rowWidth = rows.map((row) => row.reduce((w, i) => w + input.nodes[i]!.width, 0) + NODE_SEP * (row.length - 1));
  const width = Math.max(0, ...rowWidth) + 2 * MARGIN;
  const centres = new Array<number>(input.nodes.length * 2).fill(0);
  let y = MARGIN;
  rows.forEach((row, r) => {
    const h = Math.max(...row.map((i) => input.nodes[i]!.height));
    let x = (width - rowWidth[r]!) / 2;
    for (const i of row) {
      const n = input.nodes[i]!;
      centres[2 * i] = x + n.width / 2;
      centres[2 * i + 1] = y + h / 2;
      x += n.width + NODE_SEP;
    }
    y += h + RANK_SEP;
  });
  const routes = input.edges.map((e) => {
    const a = index.get(e.from), b = index.get(e.to);
    if (a === undefined || b === undefined) return [];
    const [ax, ay, bx, by] = [centres[2 * a]!, centres[2 * a + 1]!, centres[2 * b]!, centres[2 * b + 1]!];
    return [ax, ay + input.nodes[a]!.height / 2, bx, by - input.nodes[b]!.height / 2];
  });
  return { width, height: y - RANK_SEP + MARGIN, centres, routes };
}
