// A pass's working copy of a graph: lookups (producer, consumers, constants, types) and the
// handful of edits every lowering pass is made of. The input graph is never mutated: nodes
// are replaced by new objects, and finish() returns a new, re-typed graph.
//
// Provenance: replace() and insert() declare through the pass context where each new node
// came from, so the pass manager can link every node to the nodes it was made from.
import { own, put } from '../../common/own';
import { fail } from '../../common/errors';
import type { DType, Graph, Initializer, Node, TensorType, ValueInfo } from '../ir/graph';
import { initializerToInt } from '../ops/core/convert';
import type { IntTensor } from '../ops/core/tensor';
import { inferTypes } from '../shapes/infer';
import type { PassContext } from './types';

export class Editor {
  /** The graph the pass started from (typed). */
  readonly src: Graph;
  readonly ctx: PassContext;
  nodes: Node[];
  initializers: Record<string, Initializer>;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  changed = false;
  /** Types of tensors created by this pass, for later lookups within the same pass. */
  private newTypes = new Map<string, TensorType>();
  private consMap?: Map<string, Node[]>;
  private prodMap?: Map<string, Node>;
  private constCache = new Map<string, IntTensor>();

  constructor(g: Graph, ctx: PassContext) {
    this.src = g;
    this.ctx = ctx;
    this.nodes = [...g.nodes];
    this.initializers = { ...g.initializers };
    this.inputs = [...g.inputs];
    this.outputs = [...g.outputs];
  }

  // ---- lookups -------------------------------------------------------------------------------

  private index(): void {
    if (this.consMap && this.prodMap) return;
    const cons = new Map<string, Node[]>(), prod = new Map<string, Node>();
    for (const n of this.nodes) {
      for (const o of n.outputs) if (o) prod.set(o, n);
      for (const i of new Set(n.inputs)) {
        if (!i) continue;
        let l = cons.get(i);
        if (!l) cons.set(i, (l = []));
        l.push(n);
      }
    }
    this.consMap = cons;
    this.prodMap = prod;
  }

  private touched(): void {
    this.changed = true;
    this.consMap = undefined;
    this.prodMap = undefined;
  }

  producer(t: string): Node | undefined {
    this.index();
    return this.prodMap!.get(t);
  }

  /** Nodes reading tensor t (each once, in graph order). */
  consumers(t: string): Node[] {
    this.index();
    return this.consMap!.get(t) ?? [];
  }

  /** Every reader of t: its consumer nodes, plus one for each time it is a graph output. */
  uses(t: string): number {
    return this.consumers(t).length + this.outputs.filter((o) => o.name === t).length;
  }

  /** The node's only reader, when the output has exactly one use and is not a graph output. */
  soleConsumer(t: string): Node | undefined {
    const c = this.consumers(t);
    return c.length === 1 && !this.isGraphOutput(t) ? c[0] : undefined;
  }

  isGraphOutput(t: string): boolean {
    return this.outputs.some((o) => o.name === t);
  }

  isGraphInput(t: string): boolean {
    return this.inputs.some((v) => v.name === t);
  }

  isConst(t: string): boolean {
    return !!t && !!own(this.initializers, t) && !this.isGraphInput(t);
  }

  /** The value of an initializer as exact integers (undefined for anything else). */
  constant(t: string): IntTensor | undefined {
    if (!this.isConst(t)) return undefined;
    const init = own(this.initializers, t)!;
    let c = this.constCache.get(t);
    if (!c || c.data.length !== init.data.length) {
      try {
        c = initializerToInt(init);
      } catch {
        return undefined; // a float constant holding fractions: not ours to rewrite
      }
      this.constCache.set(t, c);
    }
    return c;
  }

  type(t: string): TensorType | undefined {
    const n = this.newTypes.get(t);
    if (n) return n;
    const init = own(this.initializers, t);
    if (init && !this.isGraphInput(t)) return { dtype: init.dtype, shape: init.shape };
    return own(this.src.types, t) ?? this.inputs.find((v) => v.name === t);
  }

  shape(t: string): number[] {
    const ty = this.type(t);
    if (!ty) fail('internal', `no type known for tensor '${t}'`, 'lowering pass');
    return ty.shape;
  }

  dtype(t: string): DType {
    return this.type(t)?.dtype ?? 'float32';
  }

  node(name: string): Node | undefined {
    return this.nodes.find((n) => n.name === name);
  }

  /**
   * The nodes present when called, each as it is when the loop reaches it (an earlier edit
   * may have replaced it by an updated copy); nodes removed meanwhile are skipped.
   */
  *each(): Generator<Node> {
    for (const name of this.nodes.map((n) => n.name)) {
      const n = this.node(name);
      if (n) yield n;
    }
  }

  // ---- edits ---------------------------------------------------------------------------------

  /** A fresh tensor name with a known type. */
  tensor(base: string, type: TensorType): string {
    const name = this.ctx.fresh(base);
    this.newTypes.set(name, { dtype: type.dtype, shape: [...type.shape] });
    return name;
  }

  /** Records the type of a tensor this pass writes under an existing or new name. */
  setType(name: string, type: TensorType): void {
    this.newTypes.set(name, { dtype: type.dtype, shape: [...type.shape] });
  }

  /** A new initializer holding `t`, stored in the narrowest exact dtype (preferring `like`). */
  addConst(base: string, t: IntTensor, like?: DType): string {
    const name = this.ctx.fresh(base);
    put(this.initializers, name, makeInitializer(name, t, like));
    this.constCache.set(name, t);
    this.touched();
    return name;
  }

  /** An initializer under a given name (which must be free or the name of a graph input being dropped). */
  addConstNamed(name: string, t: IntTensor, like?: DType): string {
    put(this.initializers, name, makeInitializer(name, t, like));
    this.constCache.set(name, t);
    this.touched();
    return name;
  }

  /** Replaces `old` (in place, keeping the order) by `news`, which were made from `old` and `also`. */
  replace(old: Node, news: Node[], also: Node[] = []): void {
    const i = this.nodes.indexOf(old);
    if (i < 0) fail('internal', `node '${old.name}' is not in the graph`, 'lowering pass');
    this.nodes.splice(i, 1, ...news);
    for (const n of news) if (n.name !== old.name || also.length) this.ctx.derive(n.name, [old.name, ...also.map((a) => a.name)]);
    this.touched();
  }

  /** Replaces a node by a copy with some fields changed (same name: provenance is implicit). */
  update(old: Node, patch: Partial<Node>): Node {
    const n = { ...old, ...patch };
    const i = this.nodes.indexOf(old);
    if (i < 0) fail('internal', `node '${old.name}' is not in the graph`, 'lowering pass');
    this.nodes[i] = n;
    this.touched();
    return n;
  }

  /** Inserts a new node before `ref` (or at the end), declaring it was made from `sources`. */
  insert(node: Node, sources: Node[], ref?: Node): Node {
    const i = ref ? this.nodes.indexOf(ref) : -1;
    if (i < 0) this.nodes.push(node);
    else this.nodes.splice(i, 0, node);
    this.ctx.derive(node.name, sources.map((s) => s.name));
    this.touched();
    return node;
  }

  remove(node: Node): void {
    const i = this.nodes.indexOf(node);
    if (i < 0) return;
    this.nodes.splice(i, 1);
    this.touched();
  }

  /** Makes every reader of `from` (nodes and graph outputs) read `to` instead. */
  replaceUses(from: string, to: string, only?: Node): void {
    for (const c of this.consumers(from)) {
      if (only && c !== only) continue;
      this.update(c, { inputs: c.inputs.map((i) => (i === from ? to : i)) });
    }
    if (!only) this.outputs = this.outputs.map((o) => (o.name === from ? { ...o, name: to } : o));
    this.touched();
  }

  /** Renames tensors everywhere at once (a map may swap names). */
  renameTensors(map: ReadonlyMap<string, string>): void {
    if (map.size === 0) return;
    const r = (t: string) => (t ? map.get(t) ?? t : t);
    this.nodes = this.nodes.map((n) => ({ ...n, inputs: n.inputs.map(r), outputs: n.outputs.map(r) }));
    const inits: Record<string, Initializer> = {};
    for (const [k, v] of Object.entries(this.initializers)) put(inits, r(k), map.has(k) ? { ...v, name: r(k) } : v);
    this.initializers = inits;
    this.inputs = this.inputs.map((v) => ({ ...v, name: r(v.name) }));
    this.outputs = this.outputs.map((v) => ({ ...v, name: r(v.name) }));
    for (const [from, to] of map) {
      const t = this.type(from);
      if (t) this.newTypes.set(to, t);
    }
    this.touched();
  }

  /**
   * Removes a node that passes its input `src` through unchanged (to output `dst`): readers of
   * dst read src. When dst is a graph output the producer of src writes dst instead. Returns
   * false (and changes nothing) when neither is possible.
   */
  bypass(node: Node, src = node.inputs[0], dst = node.outputs[0]): boolean {
    if (!this.isGraphOutput(dst)) {
      this.remove(node);
      this.replaceUses(dst, src);
      return true;
    }
    const p = this.producer(src);
    if (!p || this.isGraphOutput(src) || this.isGraphInput(src)) return false;
    this.remove(node);
    this.renameTensors(new Map([[src, dst]]));
    return true;
  }

  /** Removes nodes none of whose outputs is read (repeatedly). */
  removeDead(): void {
    for (;;) {
      const dead = this.nodes.filter((n) => n.outputs.every((o) => !o || this.uses(o) === 0));
      if (dead.length === 0) return;
      for (const n of dead) this.remove(n);
    }
  }

  /** The rewritten graph, re-typed (which also checks it is well formed), unused constants dropped. */
  finish(): Graph {
    const used = new Set<string>([...this.nodes.flatMap((n) => n.inputs), ...this.outputs.map((o) => o.name)]);
    const inits: Record<string, Initializer> = {};
    for (const [k, v] of Object.entries(this.initializers)) if (used.has(k)) put(inits, k, v);
    return inferTypes({ ...this.src, nodes: this.nodes, initializers: inits, inputs: this.inputs, outputs: this.outputs, types: {} });
  }
}

// ---------------------------------------------------------------------------------------------
// Constants

const RANGES: [DType, number, number][] = [
  ['int8', -128, 127], ['uint8', 0, 255], ['int16', -32768, 32767], ['int32', -(2 ** 31), 2 ** 31 - 1],
];

/**
 * An initializer holding exact integers. Kept in `like` when that dtype holds every value
 * exactly (float32 up to 2^24), else the narrowest of int8/uint8/int16/int32, else int64.
 */
export function makeInitializer(name: string, t: IntTensor, like?: DType): Initializer {
  let lo = Infinity, hi = -Infinity;
  for (const v of t.data) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (t.data.length === 0) lo = hi = 0;
  const fitsIn = (d: DType | undefined): boolean => {
    if (!d) return false;
    if (d === 'float32') return lo >= -(2 ** 24) && hi <= 2 ** 24;
    if (d === 'float64' || d === 'int64') return true;
    const r = RANGES.find(([x]) => x === d) ?? (d === 'uint16' ? ['uint16', 0, 65535] : d === 'uint32' ? ['uint32', 0, 2 ** 32 - 1] : undefined);
    return !!r && lo >= r[1] && hi <= r[2];
  };
  const dtype: DType = fitsIn(like) ? like! : (RANGES.find(([d]) => fitsIn(d))?.[0] ?? 'int64');
  return { name, dtype, shape: [...t.shape], data: typedData(t, dtype) };
}

function typedData(t: IntTensor, dtype: DType): Initializer['data'] {
  switch (dtype) {
    case 'int64': return BigInt64Array.from(t.data, (v) => BigInt(v));
    case 'float32': return Float32Array.from(t.data);
    case 'float64': return Float64Array.from(t.data);
    case 'int8': return Int8Array.from(t.data);
    case 'uint8': return Uint8Array.from(t.data);
    case 'int16': return Int16Array.from(t.data);
    case 'uint16': return Uint16Array.from(t.data);
    case 'int32': return Int32Array.from(t.data);
    case 'uint32': return Uint32Array.from(t.data);
    default: return BigInt64Array.from(t.data, (v) => BigInt(v));
  }
}
