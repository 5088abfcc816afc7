// The reference interpreter: runs a graph on exact integers with Deeploy's semantics. It is
// the living spec: kernels, lowering passes and the simulator are all checked against it.
import { own } from '../../common/own';
import { fail } from '../../common/errors';
import type { DType, Graph, Node, TensorData } from '../ir/graph';
import { initializerToInt, toIntTensor } from '../ops/core/convert';
import { numel, sameShape, shapeStr, type IntTensor } from '../ops/core/tensor';
import { opFor } from '../ops';
import { readAttrs, whereNode } from '../ops/types';
import { analyze } from '../shapes/infer';

/** A tensor as the outside world holds it: a typed array with its dtype and shape. */
export interface TensorValue {
  dtype: DType;
  shape: number[];
  data: TensorData;
}

export type { IntTensor } from '../ops/core/tensor';

export interface InterpretOptions {
  /** Named in 'bad-inputs' errors, e.g. "inputs.npz" (default "the inputs"). */
  inputsName?: string;
  /** Called after every node with its output values (for tracing and the UI). */
  onNode?: (node: Node, index: number, outputs: IntTensor[]) => void;
  /** Keep every intermediate value in the result (default: freed after their last use). */
  keepAll?: boolean;
  /** Checked between nodes; a set flag ends the run with a 'cancelled' error. */
  cancelled?: () => boolean;
}

export interface InterpretResult {
  /** The typed, topologically sorted graph that ran. */
  graph: Graph;
  /** Graph outputs, in graph-output order. */
  outputs: IntTensor[];
  /** Every tensor's value when keepAll is set; otherwise the graph inputs and outputs only. */
  values: Map<string, IntTensor>;
}

/**
 * Runs `graph` on `inputs` (by graph-input position) and returns the graph outputs in order.
 * Output values are exact integers in Float64Arrays (dtype 'float64').
 */
export function interpret(graph: Graph, inputs: readonly (TensorValue | IntTensor)[], opts: InterpretOptions = {}): TensorValue[] {
  return run(graph, inputs, opts).outputs.map((t) => ({ dtype: 'float64', shape: t.shape, data: t.data.map((v) => v + 0) })); // + 0: no -0
}

/** interpret() with the exact-integer values and the typed graph. */
export function run(graph: Graph, inputs: readonly (TensorValue | IntTensor)[], opts: InterpretOptions = {}): InterpretResult {
  const { graph: g, constant } = analyze(graph);
  const values = new Map<string, IntTensor>();
  bindInputs(g, inputs, opts.inputsName ?? 'the inputs', values);

  // Reference counts, so intermediates are freed after their last reader.
  const keep = new Set(g.outputs.map((o) => o.name));
  const readers = new Map<string, number>();
  for (const n of g.nodes) for (const i of n.inputs) if (i) readers.set(i, (readers.get(i) ?? 0) + 1);
  const initCache = new Map<string, IntTensor>();
  const valueOf = (name: string, where: string): IntTensor => {
    const v = values.get(name) ?? initCache.get(name);
    if (v) return v;
    const c = constant(name) ?? (Object.hasOwn(g.initializers, name) ? initializerToInt(g.initializers[name], where) : undefined);
    if (!c) fail('internal', `tensor '${name}' has no value when it is needed`, where);
    initCache.set(name, c);
    return c;
  };

  g.nodes.forEach((node, index) => {
    if (opts.cancelled?.()) fail('cancelled', 'the reference run was cancelled', whereNode(node));
    const entry = opFor(node);
    const where = whereNode(node);
    const ins = node.inputs.map((n) => (n ? valueOf(n, where) : undefined));
    const outTypes = node.outputs.map((o) => own(g.types, o)!);
    const opset = g.opsets.find((o) => (o.domain === 'ai.onnx' ? '' : o.domain) === node.domain)?.version ?? 1;
    const outs = entry.eval({ node, where, attrs: readAttrs(node, entry.attrs, where), inputs: ins, outputs: outTypes, opset });
    node.outputs.forEach((name, i) => {
      if (!name) return;
      const v = outs[i];
      if (!v || !sameShape(v.shape, outTypes[i].shape) || v.data.length !== v.shape.reduce((a, b) => a * b, 1))
        fail('internal', `produced ${v ? shapeStr(v.shape) : 'nothing'} for '${name}', but its shape rule says ${shapeStr(outTypes[i].shape)}`, where);
      values.set(name, v);
    });
    opts.onNode?.(node, index, outs);
    if (!opts.keepAll)
      for (const i of node.inputs) {
        if (!i) continue;
        const left = readers.get(i)! - 1;
        readers.set(i, left);
        if (left === 0 && !keep.has(i)) values.delete(i);
      }
  });

  const outputs = g.outputs.map((o) => valueOf(o.name, `graph output '${o.name}'`));
  return { graph: g, outputs, values };
}

/** Checks count and shapes of the inputs and converts them to exact integers. */
function bindInputs(g: Graph, inputs: readonly (TensorValue | IntTensor)[], source: string, values: Map<string, IntTensor>): void {
  if (inputs.length !== g.inputs.length)
    fail('bad-inputs', `${inputs.length} input array${inputs.length === 1 ? '' : 's'} given, but the graph has ${g.inputs.length} input${g.inputs.length === 1 ? '' : 's'} (${g.inputs.map((v) => v.name).join(', ')})`, source);
  g.inputs.forEach((v, i) => {
    const t = inputs[i];
    const where = `${source}, array ${i} for graph input '${v.name}'`;
    if (!sameShape(t.shape, v.shape))
      fail('bad-inputs', `has shape ${shapeStr(t.shape)}, but the graph input is ${shapeStr(v.shape)}`, where);
    if (t.data.length !== numel(t.shape))
      fail('bad-inputs', `holds ${t.data.length} values, but its shape ${shapeStr(t.shape)} needs ${numel(t.shape)}`, where);
    values.set(v.name, t.data instanceof Float64Array && !('dtype' in t) ? (t as IntTensor)
      : toIntTensor(t.data, t.shape, 'the array', where, 'bad-inputs'));
  });
}
