// Shape and dtype inference over a whole graph: checks the graph is well formed (every
// tensor defined once, no cycles, static input shapes), sorts it topologically, runs every
// op's shape rule and fills graph.types, checking the types the file declared.
import { own, put } from '../../common/own';
import { fail } from '../../common/errors';
import { sortDataflow } from '../ir/dataflow';
import type { Graph, Node, TensorType } from '../ir/graph';
import { initializerToInt } from '../ops/core/convert';
import { indexInput } from '../ops/core/dtypes';
import { isNumeric } from '../ops/core/dtypes';
import { numel, shapeStr, type IntTensor } from '../ops/core/tensor';
import { opFor } from '../ops';
import { readAttrs, whereNode, type AttrSpecs, type AttrValues, type OpEntry } from '../ops/types';

export interface Analysis {
  /** The graph, topologically sorted, with every tensor's type in `types` and outputs typed. */
  graph: Graph;
  /** Values known before running: initializers, Constant outputs, small folded subgraphs. */
  constant(name: string): IntTensor | undefined;
  /** Arithmetic work of one run (see OpEntry.work): multiply-accumulates plus element operations. */
  work: number;
}

/**
 * The largest tensor, all tensors together, and the most arithmetic one network may need.
 * Siracusa-sized networks are below them (microLlama64: 7.5 M elements in all, none over 0.3 M,
 * 44 M MACs; all of Siracusa's memory, 16 MiB of L3, holds 2^24 int8 elements). The network
 * limit holds for its inputs, initializers and every node's outputs together, an upper bound on
 * what the reference interpreter holds at once as 8-byte numbers (256 MiB), checked before anything runs:
 * beyond them the browser tab would run out of memory, the reference run (and the lowering's
 * checks, which rerun it) would take minutes.
 */
export const MAX_TENSOR_ELEMENTS = 1 << 24;
export const MAX_GRAPH_ELEMENTS = 1 << 25;
export const MAX_WORK = 5e8;

/** Largest tensor shape inference folds while evaluating constant subgraphs. */
const MAX_FOLD = 1 << 16;

/** inferTypes without the constants: the typed, sorted graph. */
export function inferTypes(graph: Graph): Graph {
  return analyze(graph).graph;
}

export function analyze(graph: Graph): Analysis {
  checkInputs(graph);
  const nodes = sortDataflow(graph, whereNode);

  const types: Record<string, TensorType> = {};
  for (const v of graph.inputs) put(types, v.name, { dtype: v.dtype, shape: [...v.shape] });
  const folded = new Map<string, IntTensor>();
  const converted = new Map<string, IntTensor>();
  const constant = (name: string): IntTensor | undefined => {
    if (!name) return undefined;
    const f = folded.get(name);
    if (f) return f;
    const init = Object.hasOwn(graph.initializers, name) ? graph.initializers[name] : undefined;
    if (!init || Object.hasOwn(types, name)) return undefined; // a graph input shadows an initializer
    let c = converted.get(name);
    if (!c) converted.set(name, (c = initializerToInt(init)));
    return c;
  };
  const typeOf = (name: string): TensorType | undefined => {
    if (Object.hasOwn(types, name)) return types[name];
    const init = Object.hasOwn(graph.initializers, name) ? graph.initializers[name] : undefined;
    return init ? { dtype: init.dtype, shape: [...init.shape] } : undefined;
  };

  let work = 0;
  // Inputs and initializers first: the interpreter holds them from the start.
  let elements = graph.inputs.reduce((s, v) => s + numel(v.shape), 0) +
    Object.values(graph.initializers).reduce((s, t) => s + numel(t.shape), 0);
  if (elements > MAX_GRAPH_ELEMENTS)
    fail('limit', `the graph inputs and initializers hold ${elements} elements, more than the limit of ${MAX_GRAPH_ELEMENTS} for the whole network`,
      'graph', 'the playground handles networks sized for microcontrollers');
  for (const node of nodes) {
    const entry = opFor(node);
    const where = whereNode(node);
    const inputs = node.inputs.map((n) => (n ? typeOf(n) : undefined));
    checkArity(node, entry, inputs, where);
    const attrs = readAttrs(node, entry.attrs, where);
    const opset = opsetOf(graph, node.domain);
    const outs = entry.infer({ node, where, attrs, inputs, constant: (i) => constant(node.inputs[i] ?? ''), opset });
    node.outputs.forEach((name, i) => {
      if (!name) return;
      const t = outs[i];
      if (!t) fail('internal', `the shape rule returned no type for output ${i}`, where);
      if (t.shape.some((d) => !Number.isInteger(d) || d < 0))
        fail('internal', `the shape rule computed ${shapeStr(t.shape)} for '${name}'`, where);
      checkDeclared(Object.hasOwn(graph.types, name) ? graph.types[name] : undefined, t, `tensor '${name}' (output of ${where})`);
      if (numel(t.shape) > MAX_TENSOR_ELEMENTS)
        fail('limit', `tensor '${name}' ${shapeStr(t.shape)} has ${numel(t.shape)} elements, more than the limit of ${MAX_TENSOR_ELEMENTS}`, where,
          'the playground handles networks sized for microcontrollers');
      put(types, name, t);
      elements += numel(t.shape);
      if (elements > MAX_GRAPH_ELEMENTS)
        fail('limit', `the network's tensors hold more than ${MAX_GRAPH_ELEMENTS} elements in all (reached with '${name}' ${shapeStr(t.shape)})`, where,
          'the playground handles networks sized for microcontrollers');
    });
    work += entry.work ? entry.work({ inputs, outputs: outs, attrs }) : outs.reduce((s, t) => s + numel(t.shape), 0);
    if (work > MAX_WORK)
      fail('limit', `the network needs more than ${MAX_WORK.toExponential()} multiply-accumulates (reached at this node)`, where,
        'the playground handles networks sized for microcontrollers');
    fold(node, entry, attrs, opset, where, constant, types, folded);
  }

  const outputs = graph.outputs.map((o) => {
    const t = typeOf(o.name);
    if (!t) fail('bad-graph', `graph output '${o.name}' is not produced by any node`, `graph output '${o.name}'`);
    checkDeclared(o, t, `graph output '${o.name}'`);
    return { name: o.name, ...t };
  });
  return { graph: { ...graph, nodes, outputs, types }, constant, work };
}

// ---------------------------------------------------------------------------------------------

function checkInputs(graph: Graph): void {
  const seen = new Set<string>();
  for (const v of graph.inputs) {
    const where = `graph input '${v.name}'`;
    if (seen.has(v.name)) fail('bad-graph', 'is listed twice among the graph inputs', where);
    seen.add(v.name);
    if (v.shape.some((d) => !Number.isInteger(d) || d < 0))
      fail('bad-graph', `has a dynamic shape [${v.shape.map((d) => (d < 0 ? '?' : d)).join(', ')}]`, where,
        'export the model with fixed input shapes');
    if (numel(v.shape) > MAX_TENSOR_ELEMENTS)
      fail('limit', `has ${numel(v.shape)} elements ${shapeStr(v.shape)}, more than the limit of ${MAX_TENSOR_ELEMENTS}`, where,
        'the playground handles networks sized for microcontrollers');
  }
}

function checkArity(node: Node, entry: OpEntry, inputs: (TensorType | undefined)[], where: string): void {
  const specs = entry.inputs;
  const variadic = specs.some((s) => s.variadic);
  let count = node.inputs.length;
  while (count > 0 && !node.inputs[count - 1]) count--;
  if (!variadic && count > specs.length)
    fail('bad-graph', `has ${count} inputs; ${node.op} takes at most ${specs.length}`, where);
  specs.forEach((s, i) => {
    if (s.variadic || s.optional || node.inputs[i]) return;
    fail('bad-graph', `input ${i} ('${s.name}') is missing`, where);
  });
  specs.forEach((s, i) => {
    if (s.index && inputs[i]) indexInput(inputs[i]!, `input ${i} ('${s.name}')`, where);
  });
  const outs = node.outputs.filter(Boolean).length;
  if (outs === 0) fail('bad-graph', 'has no outputs', where);
  if (node.outputs.length > entry.outputs.length)
    fail('bad-graph', `has ${node.outputs.length} outputs; ${node.op} has at most ${entry.outputs.length}`, where);
}

function opsetOf(graph: Graph, domain: string): number {
  const d = domain === 'ai.onnx' ? '' : domain;
  return graph.opsets.find((o) => (o.domain === 'ai.onnx' ? '' : o.domain) === d)?.version ?? 1;
}

/**
 * Compares an inferred type with what the file declared. Shapes must agree (-1 and an empty
 * declared shape mean "unknown"); dtypes only need to agree on being numbers, because the
 * Deeploy files declare FLOAT for tensors that hold integers (and sometimes int32 for the same).
 */
function checkDeclared(declared: TensorType | undefined, t: TensorType, where: string): void {
  if (!declared) return;
  const d = declared.shape;
  if (d.length > 0 && (d.length !== t.shape.length || d.some((v, i) => v >= 0 && v !== t.shape[i])))
    fail('shape-mismatch', `is declared ${shapeStr(d.map((v) => (v < 0 ? -1 : v)))} but computes to ${shapeStr(t.shape)}`, where);
  if (isNumeric(declared.dtype) !== isNumeric(t.dtype))
    fail('dtype-mismatch', `is declared ${declared.dtype} but computes to ${t.dtype}`, where);
}

/** Evaluates a node whose inputs are all known and small, so later shape rules can read it. */
function fold(node: Node, entry: OpEntry, attrs: AttrValues<AttrSpecs>, opset: number, where: string,
  constant: (name: string) => IntTensor | undefined, types: Record<string, TensorType>, folded: Map<string, IntTensor>): void {
  if (entry.foldable === false) return;
  const outTypes = node.outputs.map((o) => own(types, o)!);
  if (outTypes.some((t) => !t || numel(t.shape) > MAX_FOLD)) return;
  const inputs: (IntTensor | undefined)[] = [];
  for (const name of node.inputs) {
    if (!name) { inputs.push(undefined); continue; }
    // Ops that only read their inputs' shapes (Shape) fold whenever the shapes are known.
    const c = entry.readsShapesOnly && own(types, name) ? { shape: own(types, name)!.shape, data: new Float64Array(0) } : constant(name);
    if (!c || c.data.length > MAX_FOLD) return;
    inputs.push(c);
  }
  try {
    const outs = entry.eval({ node, where, attrs, inputs, outputs: outTypes, opset });
    node.outputs.forEach((name, i) => name && outs[i] && folded.set(name, outs[i]));
  } catch {
    // Not foldable (e.g. a float Constant): the node simply runs at interpretation time.
  }
}
