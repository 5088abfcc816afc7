// Test helpers for lowering passes: a small graph builder, and checkPass(), which runs a pass
// through the pass manager (so provenance is checked), verifies the result (shape inference),
// and compares the reference interpreter's outputs before and after on seeded random inputs.
import type { Attr, DType, Graph, Node } from '../ir/graph';
import { mulberry32 } from '../fuzz/prng';
import { interpret, type TensorValue } from '../interpret/interpret';
import { numel } from '../ops/core/tensor';
import { inferTypes } from '../shapes/infer';
import { runPasses } from './manager';
import type { Pass, Snapshot } from './types';

export const at = {
  int: (value: number): Attr => ({ kind: 'int', value }),
  ints: (value: number[]): Attr => ({ kind: 'ints', value }),
  str: (value: string): Attr => ({ kind: 'string', value }),
  float: (value: number): Attr => ({ kind: 'float', value }),
};

/** Requant attributes the way quantlib exports them (div = 2^s). */
export function rqAttrs(shift: number, signed = true, nLevels = 256): Record<string, Attr> {
  return { div: at.int(2 ** shift), n_levels: at.int(nLevels), signed: at.int(signed ? 1 : 0) };
}

export class GraphBuilder {
  private g: Graph = { name: 'test', nodes: [], inputs: [], outputs: [], initializers: {}, types: {}, opsets: [{ domain: '', version: 13 }] };
  private rng = mulberry32(1234);
  private count = 0;

  input(name: string, shape: number[], dtype: DType = 'float32'): string {
    this.g.inputs.push({ name, dtype, shape });
    return name;
  }

  /** An initializer: the given values, or seeded random integers in [lo, hi] (use rand() for 2-element shapes). */
  init(name: string, shape: number[], values?: number[] | [lo: number, hi: number], dtype: DType = 'float32'): string {
    const n = numel(shape);
    let data: number[];
    if (values && values.length === n) data = values;
    else {
      const [lo, hi] = (values as [number, number] | undefined) ?? [-8, 8];
      data = Array.from({ length: n }, () => lo + Math.floor(this.rng() * (hi - lo + 1)));
    }
    const arr = dtype === 'int64' ? BigInt64Array.from(data.map(BigInt)) : dtype === 'int32' ? Int32Array.from(data) : Float32Array.from(data);
    this.g.initializers[name] = { name, dtype, shape, data: arr };
    return name;
  }

  /** A random-valued initializer in [lo, hi] (explicit, for shapes of two elements). */
  rand(name: string, shape: number[], lo: number, hi: number): string {
    const data = Array.from({ length: numel(shape) }, () => lo + Math.floor(this.rng() * (hi - lo + 1)));
    return this.init(name, shape, data);
  }

  /** Adds a node; returns its (first) output name. */
  node(op: string, inputs: string[], attrs: Record<string, Attr> = {}, opts: { name?: string; outputs?: string[]; domain?: string } = {}): string {
    const name = opts.name ?? `${op}_${this.count++}`;
    const outputs = opts.outputs ?? [`${name}_out`];
    const node: Node = { name, op, domain: opts.domain ?? '', inputs, outputs, attrs };
    this.g.nodes.push(node);
    return outputs[0];
  }

  /** A RequantShift with random per-tensor mul/add (shapes given) and shift s. */
  requant(x: string, shift = 8, opts: { mulShape?: number[]; signed?: boolean; mul?: [number, number]; add?: [number, number]; name?: string } = {}): string {
    const id = this.count++;
    const mul = this.rand(`rq${id}_mul`, opts.mulShape ?? [], ...(opts.mul ?? [1, 64]));
    const add = this.rand(`rq${id}_add`, opts.mulShape ?? [], ...(opts.add ?? [-200, 200]));
    return this.node('RequantShift', [x, mul, add], rqAttrs(shift, opts.signed ?? true), { name: opts.name });
  }

  output(name: string): void {
    this.g.outputs.push({ name, dtype: 'float32', shape: [] });
  }

  build(): Graph {
    return inferTypes(this.g);
  }
}

export interface PassCheck {
  before: Graph;
  after: Graph;
  snapshot: Snapshot;
}

/** Seeded random inputs in [lo, hi] for every graph input. */
export function randomInputs(g: Graph, seed = 7, lo = -128, hi = 127): TensorValue[] {
  const rng = mulberry32(seed);
  return g.inputs.map((v) => {
    const data = new Float64Array(numel(v.shape));
    for (let i = 0; i < data.length; i++) data[i] = lo + Math.floor(rng() * (hi - lo + 1));
    return { dtype: 'float64', shape: [...v.shape], data };
  });
}

/**
 * Runs `passes` on `before` through the pass manager, re-verifies every result with shape
 * inference, and checks the interpreter computes exactly the same outputs on a few seeded
 * random inputs. Returns the last snapshot.
 */
export function checkPasses(passes: Pass[], before: Graph, opts: { seeds?: number[]; lo?: number; hi?: number } = {}): PassCheck {
  const snaps = runPasses(before, passes);
  for (const s of snaps) inferTypes({ ...s.graph, types: {} });
  const after = snaps[snaps.length - 1].graph;
  for (const seed of opts.seeds ?? [1, 2, 3]) {
    const ins = randomInputs(before, seed, opts.lo, opts.hi);
    const want = interpret(before, ins);
    // Inputs a pass dropped (empty ones) are matched by name.
    const got = interpret(after, after.inputs.map((v) => ins[before.inputs.findIndex((b) => b.name === v.name)] ?? ins[after.inputs.indexOf(v)]));
    if (got.length !== want.length) throw new Error(`the pass changed the number of outputs (${want.length} -> ${got.length})`);
    got.forEach((o, i) => {
      const a = Array.from(o.data as Float64Array), b = Array.from(want[i].data as Float64Array);
      if (a.length !== b.length || a.some((v, k) => v !== b[k]))
        throw new Error(`output ${i} differs after the pass (seed ${seed}): ${JSON.stringify(a.slice(0, 8))} vs ${JSON.stringify(b.slice(0, 8))}`);
    });
  }
  return { before, after, snapshot: snaps[snaps.length - 1] };
}

export function checkPass(pass: Pass, before: Graph, opts?: { seeds?: number[]; lo?: number; hi?: number }): PassCheck {
  return checkPasses([pass], before, opts);
}

/** The ops of a graph in order, e.g. ['Transpose', 'RequantizedConv', 'Transpose']. */
export function opsOf(g: Graph): string[] {
  return g.nodes.map((n) => n.op);
}

export function countOps(g: Graph): Record<string, number> {
  const c: Record<string, number> = {};
  for (const n of g.nodes) c[n.op] = (c[n.op] ?? 0) + 1;
  return c;
}
