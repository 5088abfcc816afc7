// Test helpers: one-node graphs and attribute shorthands, so op tests read like the formulas.
import type { Attr, DType, Graph, Node } from '../ir/graph';
import { run } from '../interpret/interpret';
import { tensor, type IntTensor } from './core/tensor';

export const A = {
  int: (value: number): Attr => ({ kind: 'int', value }),
  ints: (value: number[]): Attr => ({ kind: 'ints', value }),
  float: (value: number): Attr => ({ kind: 'float', value }),
  str: (value: string): Attr => ({ kind: 'string', value }),
  /** A tensor attribute, the way quantlib exports div / n_levels / signed. */
  t: (values: number[], shape: number[] = [values.length], dtype: DType = 'float32'): Attr => ({
    kind: 'tensor', value: { name: '', dtype, shape, data: dtype === 'int64' ? BigInt64Array.from(values.map(BigInt)) : Float32Array.from(values) },
  }),
};

export interface In {
  shape: number[];
  data: number[];
  /** An initializer rather than a graph input. */
  init?: boolean;
  dtype?: DType;
}

export const inp = (shape: number[], data: number[], dtype?: DType): In => ({ shape, data, dtype });
export const init = (shape: number[], data: number[], dtype?: DType): In => ({ shape, data, init: true, dtype });

/** A graph holding one node `op` over the given inputs ('' = omitted input). */
export function oneNode(op: string, ins: (In | null)[], attrs: Record<string, Attr> = {},
  opts: { domain?: string; outputs?: number; opset?: number } = {}): Graph {
  const g: Graph = {
    name: 'test', nodes: [], inputs: [], outputs: [], initializers: {}, types: {},
    opsets: [{ domain: '', version: opts.opset ?? 13 }],
  };
  const names = ins.map((x, i) => {
    if (!x) return '';
    const name = `in${i}`;
    const dtype = x.dtype ?? (x.init && op !== 'Constant' ? 'float32' : 'float32');
    if (x.init) {
      const data = dtype === 'int64' ? BigInt64Array.from(x.data.map(BigInt)) : dtype === 'int32' ? Int32Array.from(x.data) : Float32Array.from(x.data);
      g.initializers[name] = { name, dtype, shape: x.shape, data };
    } else g.inputs.push({ name, dtype, shape: x.shape });
    return name;
  });
  const outputs = Array.from({ length: opts.outputs ?? 1 }, (_, i) => `out${i}`);
  const node: Node = { name: `${op}_0`, op, domain: opts.domain ?? '', inputs: names, outputs, attrs };
  g.nodes.push(node);
  g.outputs = outputs.map((name) => ({ name, dtype: 'float32', shape: [] }));
  return g;
}

/** Runs a one-node graph; graph inputs take their values from `ins` in order. */
export function evalOp(op: string, ins: (In | null)[], attrs: Record<string, Attr> = {},
  opts: { domain?: string; outputs?: number; opset?: number } = {}): IntTensor[] {
  const g = oneNode(op, ins, attrs, opts);
  const values = ins.filter((x): x is In => !!x && !x.init).map((x) => tensor(x.shape, x.data));
  return run(g, values).outputs;
}

/** The first output as a plain array (for toEqual). */
export function evalData(op: string, ins: (In | null)[], attrs: Record<string, Attr> = {},
  opts: { domain?: string; outputs?: number; opset?: number } = {}): number[] {
  return Array.from(evalOp(op, ins, attrs, opts)[0].data, (v) => v + 0);
}

/** The PlaygroundError code and message a function throws (for error-case tests). */
export function errorOf(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    const err = e as { data?: { code: string }; message: string };
    return { code: err.data?.code ?? 'not-a-playground-error', message: err.message };
  }
  throw new Error('expected an error');
}
