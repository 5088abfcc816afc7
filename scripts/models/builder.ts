// Builds a graph node by node and runs every node as soon as it is added, with the op registry's
// own shape rules and reference semantics (the interpreter's). Knowing each value while the
// graph grows is what lets the model generators calibrate: a RequantShift's mul and shift are
// picked from the statistics of the tensor it rescales, the way a quantiser calibrates.
import type { Attr, Graph, Initializer, Node, TensorType, ValueInfo } from '../../src/compiler/ir/graph';
import { opFor } from '../../src/compiler/ops';
import { initializerToInt } from '../../src/compiler/ops/core/convert';
import type { IntTensor } from '../../src/compiler/ops/core/tensor';
import { readAttrs, whereNode } from '../../src/compiler/ops/types';
import { Rng } from './prng';
import { tensorStats, type TensorStats } from './stats';

/**
 * What a tensor is, for the statistics and their checks:
 * - input: a graph input;
 * - int8: a calibrated int8 activation (RequantShift, normalisation outputs);
 * - unity: a RequantShift with mul = div (a plain copy, as Deeploy's exporter emits them);
 * - mask: the requantized attention mask (0 or -128 by design);
 * - prob: an iSoftmax output (0..255);
 * - wide: an accumulator or other wide intermediate (MatMul, Conv, Add, iHardswish, ...);
 * - shape: Reshape / Transpose / Flatten / Concat output (its input's values, moved).
 */
export type ActKind = 'input' | 'int8' | 'unity' | 'mask' | 'prob' | 'wide' | 'shape';

export interface Activation extends TensorStats {
  tensor: string;
  /** The node that writes it ('' for a graph input). */
  node: string;
  op: string;
  kind: ActKind;
  shape: number[];
}

/** Attribute values as the generators write them: integers, lists of integers, strings. */
export type AttrValue = number | number[] | string;

const SHAPE_OPS = new Set(['Reshape', 'Transpose', 'Flatten', 'Concat', 'Squeeze', 'Unsqueeze']);

function defaultKind(op: string): ActKind {
  if (op === 'RequantShift' || op === 'iRMSNorm' || op === 'iLayerNorm') return 'int8';
  if (op === 'iSoftmax') return 'prob';
  if (SHAPE_OPS.has(op)) return 'shape';
  return 'wide';
}

function toAttr(name: string, v: AttrValue): Attr {
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (Array.isArray(v)) {
    if (!v.every(Number.isInteger)) throw new Error(`attribute ${name}: ${v} are not all integers`);
    return { kind: 'ints', value: v };
  }
  if (!Number.isInteger(v)) throw new Error(`attribute ${name}: ${v} is not an integer`);
  return { kind: 'int', value: v };
}

/** Largest integer a float32 initializer holds exactly (with every smaller one). */
const FLOAT32_EXACT = 2 ** 24;

export class GraphBuilder {
  readonly nodes: Node[] = [];
  readonly inputs: ValueInfo[] = [];
  readonly outputs: ValueInfo[] = [];
  readonly initializers: Record<string, Initializer> = {};
  readonly types: Record<string, TensorType> = {};
  readonly activations: Activation[] = [];
  /** Graph input values, in graph-input order. */
  readonly inputValues: IntTensor[] = [];
  private readonly values = new Map<string, IntTensor>();
  private readonly names = new Set<string>();

  /**
   * Calibration results by key (requant parameters, data-dependent biases, softmax
   * temperatures). Given one, the builder reuses it instead of calibrating: a second graph of
   * the same network (decode after prefill) then carries exactly the same parameters.
   */
  readonly calibration: Map<string, unknown>;
  private readonly frozen: boolean;

  /** `seed` drives every random draw of the model (see rng). */
  constructor(readonly name: string, readonly seed: number, o: { opset?: number; calibration?: Map<string, unknown> } = {}) {
    this.opset = o.opset ?? 10;
    this.frozen = o.calibration !== undefined;
    this.calibration = o.calibration ?? new Map();
  }

  readonly opset: number;

  /** A calibrated quantity: computed from the values now, or taken from the given calibration. */
  calibrate<T>(key: string, compute: () => T): T {
    if (this.calibration.has(key)) return this.calibration.get(key) as T;
    if (this.frozen) throw new Error(`${this.name}: the given calibration has nothing for '${key}'`);
    const v = compute();
    this.calibration.set(key, v);
    return v;
  }

  /** The random stream for one named purpose (a weight, an input): same seed and label, same numbers. */
  rng(label: string): Rng {
    return Rng.stream(this.seed, label);
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`${this.name}: the name '${name}' is used twice`);
    this.names.add(name);
    return name;
  }

  /** A graph input, declared FLOAT like Deeploy's test networks, with the value it is run on. */
  input(name: string, value: IntTensor): string {
    this.claim(name);
    this.inputs.push({ name, dtype: 'float32', shape: [...value.shape] });
    this.inputValues.push(value);
    this.values.set(name, value);
    this.record(name, '', '', 'input', value);
    return name;
  }

  /** A constant holding integers, stored FLOAT as Deeploy's networks store their weights. */
  weight(name: string, shape: number[], data: ArrayLike<number>): string {
    this.claim(name);
    const f = Float32Array.from(data);
    for (let i = 0; i < f.length; i++)
      if (!Number.isInteger(data[i]) || Math.abs(data[i]) > FLOAT32_EXACT || f[i] !== data[i])
        throw new Error(`${name}: ${data[i]} is not an integer a float32 holds exactly`);
    this.initializers[name] = { name, dtype: 'float32', shape: [...shape], data: f };
    return name;
  }

  /** An int64 constant (Reshape's shape). */
  int64(name: string, values: number[]): string {
    this.claim(name);
    this.initializers[name] = { name, dtype: 'int64', shape: [values.length], data: BigInt64Array.from(values.map(BigInt)) };
    return name;
  }

  /**
   * Adds a node, runs it, and returns its output tensor's name (`<node name>_out` unless `out`
   * names it). Inputs may be graph inputs, initializers or earlier outputs.
   */
  node(op: string, name: string, inputs: string[], attrs: Record<string, AttrValue> = {},
    o: { out?: string; kind?: ActKind } = {}): string {
    const out = this.claim(o.out ?? `${name}_out`);
    const node: Node = {
      name, op, domain: '', inputs, outputs: [out],
      attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, toAttr(k, v)])),
    };
    const entry = opFor(node);
    const where = `${this.name}: ${whereNode(node)}`;
    const parsed = readAttrs(node, entry.attrs, where);
    const inTypes = inputs.map((t) => (t ? this.typeOf(t) : undefined));
    const constant = (i: number): IntTensor | undefined => {
      const init = this.initializers[inputs[i]];
      return init ? initializerToInt(init) : undefined;
    };
    const [type] = entry.infer({ node, where, attrs: parsed, inputs: inTypes, constant, opset: this.opset });
    const [value] = entry.eval({ node, where, attrs: parsed, inputs: inputs.map((t) => (t ? this.value(t) : undefined)), outputs: [type], opset: this.opset });
    this.nodes.push(node);
    this.types[out] = type;
    this.values.set(out, value);
    this.record(out, name, op, o.kind ?? defaultKind(op), value);
    return out;
  }

  /** The value of a tensor: a graph input, an initializer or a node output. */
  value(t: string): IntTensor {
    const v = this.values.get(t);
    if (v) return v;
    const init = this.initializers[t];
    if (init) return initializerToInt(init);
    throw new Error(`${this.name}: no tensor '${t}'`);
  }

  shape(t: string): number[] {
    return this.typeOf(t).shape;
  }

  private typeOf(t: string): TensorType {
    const init = this.initializers[t];
    if (init) return { dtype: init.dtype, shape: init.shape };
    const inp = this.inputs.find((v) => v.name === t);
    if (inp) return { dtype: inp.dtype, shape: inp.shape };
    const type = this.types[t];
    if (!type) throw new Error(`${this.name}: no tensor '${t}'`);
    return type;
  }

  /** Marks a tensor as a graph output (in call order), declared FLOAT. */
  output(t: string): void {
    this.outputs.push({ name: t, dtype: 'float32', shape: [...this.shape(t)] });
  }

  /** The values of the graph outputs as computed while building. */
  outputValues(): IntTensor[] {
    return this.outputs.map((o) => this.value(o.name));
  }

  private record(tensor: string, node: string, op: string, kind: ActKind, v: IntTensor): void {
    if (kind === 'shape') return; // its input's values, moved: nothing new to see
    this.activations.push({ tensor, node, op, kind, shape: [...v.shape], ...tensorStats(v.data) });
  }

  graph(): Graph {
    const types: Record<string, TensorType> = {};
    // Declared types as Deeploy's exporter writes them: FLOAT everywhere.
    for (const [k, t] of Object.entries(this.types)) types[k] = { dtype: 'float32', shape: [...t.shape] };
    return {
      name: this.name,
      nodes: this.nodes,
      inputs: this.inputs,
      outputs: this.outputs,
      initializers: this.initializers,
      types,
      opsets: [{ domain: '', version: this.opset }],
      producer: 'deeploy-playground scripts/models',
    };
  }

  /** Number of constant values (weights, biases, requant parameters), without shape constants. */
  parameterCount(): number {
    let n = 0;
    for (const t of Object.values(this.initializers)) if (t.dtype !== 'int64') n += t.data.length;
    return n;
  }
}
