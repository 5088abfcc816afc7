// What the graph pane draws for one graph: a box per node (plus one per graph input and
// output), an arrow per producer -> consumer pair carrying the tensors between them, and the
// stripped graph the worker lays out. Pure functions of the graph IR; types only from the compiler.
import type { DType, Graph, TensorType } from '../../../compiler/ir/graph';
import type { LayoutInput } from '../../../worker/graph-api';
import { shownName } from '../../names';

export type BoxKind = 'op' | 'input' | 'output';

export interface Box {
  /** Unique in the view: the node name for ops, a prefixed tensor name for graph inputs and outputs. */
  id: string;
  kind: BoxKind;
  /** Node name (ops) or tensor name (inputs, outputs). */
  name: string;
  /** Op type; 'input' / 'output' for the graph's inputs and outputs. */
  op: string;
  /** The second label line: the name, shortened. */
  short: string;
  width: number;
  height: number;
}

export interface Arrow {
  from: string;
  to: string;
  /** The tensors flowing along it, with their types when known. */
  tensors: { name: string; type?: TensorType }[];
}

export interface GraphView {
  boxes: Box[];
  arrows: Arrow[];
  /** Box index by id. */
  index: Map<string, number>;
}

export const INPUT_PREFIX = '\u2193in:';
export const OUTPUT_PREFIX = '\u2193out:';

const MAX_SHORT = 26;
/** Label fonts are monospace (see graph.css): 12px bold op line, 11px name line. */
const OP_CHAR = 7.4;
const NAME_CHAR = 6.7;

export function shortName(name: string): string {
  // Invisible and reordering characters shown as ⟨U+XXXX⟩ (names.ts), then shortened.
  const shown = shownName(name);
  return shown.length <= MAX_SHORT ? shown : `\u2026${shown.slice(shown.length - MAX_SHORT + 1)}`;
}

function box(id: string, kind: BoxKind, name: string, op: string): Box {
  const short = shortName(name);
  const io = kind !== 'op';
  const width = Math.max(io ? 48 : 72, Math.ceil(Math.max(op.length * OP_CHAR, short.length * NAME_CHAR)) + 20);
  return { id, kind, name, op, short, width, height: io ? 30 : 36 };
}

export function typeText(t: TensorType | undefined): string {
  if (!t) return '?';
  return `${t.dtype}[${t.shape.join(',')}]`;
}

/** A tensor's type with the element type its values really have, when known (the lower stage's elementTypes). */
export function realType(t: TensorType | undefined, real: DType | undefined): TensorType | undefined {
  return t && real ? { ...t, dtype: real } : t;
}

export function graphView(g: Graph): GraphView {
  const boxes: Box[] = [];
  const producer = new Map<string, string>();
  for (const v of g.inputs) {
    if (g.initializers[v.name]) continue;
    const b = box(INPUT_PREFIX + v.name, 'input', v.name, 'input');
    boxes.push(b);
    producer.set(v.name, b.id);
  }
  for (const n of g.nodes) {
    boxes.push(box(n.name, 'op', n.name, n.op));
    for (const t of n.outputs) if (t) producer.set(t, n.name);
  }
  const arrows = new Map<string, Arrow>();
  const link = (from: string, to: string, tensor: string) => {
    const key = `${from}\u0000${to}`;
    let a = arrows.get(key);
    if (!a) arrows.set(key, (a = { from, to, tensors: [] }));
    if (!a.tensors.some((t) => t.name === tensor)) a.tensors.push({ name: tensor, type: g.types[tensor] });
  };
  for (const n of g.nodes)
    for (const t of n.inputs) {
      const from = t ? producer.get(t) : undefined;
      if (from) link(from, n.name, t);
    }
  for (const v of g.outputs) {
    const b = box(OUTPUT_PREFIX + v.name, 'output', v.name, 'output');
    boxes.push(b);
    const from = producer.get(v.name);
    if (from) link(from, b.id, v.name);
  }
  return { boxes, arrows: [...arrows.values()], index: new Map(boxes.map((b, i) => [b.id, i])) };
}

/** The stripped graph for the layout worker: ids, sizes and edges only. */
export function layoutInput(v: GraphView): LayoutInput {
  return {
    nodes: v.boxes.map((b) => ({ id: b.id, width: b.width, height: b.height })),
    edges: v.arrows.map((a) => ({ from: a.from, to: a.to })),
  };
}

/**
 * Two views with the same key are drawn the same (a pass that changed nothing reuses the
 * layout and the drawing); tensor types are not part of it, the drawing looks them up.
 */
export function layoutKey(v: GraphView): string {
  return JSON.stringify([v.boxes.map((b) => [b.id, b.op, b.width, b.height]), v.arrows.map((a) => [a.from, a.to])]);
}
