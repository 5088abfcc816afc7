// Dataflow checks shared by the ONNX reader and shape inference: every tensor a node reads is
// a graph input, an initializer or another node's output; every tensor has one producer;
// every graph output exists; and the nodes come back in a topological order (the file's own
// order wherever it already is one). A cycle is an error that lists its nodes.
import { fail } from '../../common/errors';
import type { Graph, Node } from './graph';

type Dataflow = Pick<Graph, 'nodes' | 'inputs' | 'outputs' | 'initializers'>;

/** Sorted nodes; `at(node)` says where an error is, e.g. `network.onnx, node "Conv_3" (Conv)`. */
export function sortDataflow(g: Dataflow, at: (n: Node) => string, file?: string): Node[] {
  const { nodes } = g;
  const inputs = new Set(g.inputs.map((v) => v.name));
  const isInit = (t: string) => Object.hasOwn(g.initializers, t);
  const producer = new Map<string, number>();
  nodes.forEach((n, i) => {
    for (const t of n.outputs) {
      if (!t) continue;
      if (inputs.has(t)) fail('bad-graph', `writes tensor '${t}', which is a graph input`, at(n));
      if (isInit(t)) fail('bad-graph', `writes tensor '${t}', which is an initializer`, at(n));
      const other = producer.get(t);
      if (other !== undefined)
        fail('bad-graph', `writes tensor '${t}', which node "${nodes[other].name}" (${nodes[other].op}) also writes`, at(n),
          'every tensor must have exactly one producer');
      producer.set(t, i);
    }
  });
  const deps = nodes.map((n) => {
    const d = new Set<number>();
    for (const t of n.inputs) {
      if (!t || inputs.has(t)) continue;
      const p = producer.get(t);
      if (p !== undefined) d.add(p);
      else if (!isInit(t))
        fail('bad-graph', `reads tensor '${t}', which no node, graph input or initializer provides`, at(n),
          'the model may be missing an initializer or a graph input');
    }
    return d;
  });
  for (const o of g.outputs)
    if (!inputs.has(o.name) && !isInit(o.name) && !producer.has(o.name))
      fail('bad-graph', `graph output '${o.name}' is not produced by any node`, file ?? `graph output '${o.name}'`);
  if (deps.every((d, i) => [...d].every((j) => j < i))) return nodes;

  // Kahn's algorithm, always taking the earliest ready node so the file's order survives.
  const users: number[][] = nodes.map(() => []);
  deps.forEach((d, i) => d.forEach((j) => users[j].push(i)));
  const waiting = deps.map((d) => d.size);
  const ready = new MinHeap();
  waiting.forEach((w, i) => w === 0 && ready.push(i));
  const order: Node[] = [];
  while (ready.size) {
    const i = ready.pop();
    order.push(nodes[i]);
    for (const u of users[i]) if (--waiting[u] === 0) ready.push(u);
  }
  if (order.length < nodes.length) {
    const cycle = findCycle(deps, waiting);
    fail('bad-graph', `the graph has a cycle: ${cycle.map((i) => `"${nodes[i].name}"`).join(' -> ')}`, at(nodes[cycle[0]]));
  }
  return order;
}

/** A cycle among the nodes Kahn's algorithm could not schedule, walking back along their inputs. */
function findCycle(deps: Set<number>[], waiting: number[]): number[] {
  const path: number[] = [];
  const onPath = new Map<number, number>();
  let i = waiting.findIndex((w) => w > 0);
  while (!onPath.has(i)) {
    onPath.set(i, path.length);
    path.push(i);
    const next = [...deps[i]].find((p) => waiting[p] > 0);
    if (next === undefined) return path;
    i = next;
  }
  return [...path.slice(onPath.get(i)!), i].reverse();
}

class MinHeap {
  private a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
