// The lab's test maker: a one-node graph of a user op with seeded random inputs over each
// input's dtype and golden outputs from the reference semantics, as Deeploy's test folders
// hold them (network.onnx, inputs.npz, outputs.npz).
import { put } from '../../../common/own';
import { zipSync } from 'fflate';
import { fail } from '../../../common/errors';
import { allocTensor, DTYPES } from '../../ir/dtype';
import type { Attr, Graph } from '../../ir/graph';
import { writeOnnx } from '../../onnx/write';
import { writeNpz } from '../../npz';
import { mulberry32, int } from '../../fuzz/prng';
import { inferTypes } from '../../shapes/infer';
import { interpret } from '../../interpret/interpret';
import { installedUserOps } from './session';
import type { UserOpSpec } from './spec';

export interface OpTestOptions {
  /** One shape per input. */
  shapes: number[][];
  /** Attribute values of the node (absent ones take the spec's defaults). */
  attrs: Record<string, number | number[]>;
  seed: number;
}

export interface OpTest {
  model: Uint8Array;
  inputs: Uint8Array;
  outputs: Uint8Array;
}

/** Largest test the maker builds, elements per input. */
export const MAX_TEST_ELEMENTS = 1 << 22;

/** The one-node graph (not yet type-inferred). */
export function opTestGraph(spec: UserOpSpec, o: OpTestOptions): Graph {
  const where = `test of ${spec.op}`;
  if (o.shapes.length !== spec.inputs.length) fail('bad-config', `${spec.op} takes ${spec.inputs.length} input(s); ${o.shapes.length} shape(s) were given`, where);
  o.shapes.forEach((s, i) => {
    if (!s.every((d) => Number.isInteger(d) && d >= 1)) fail('bad-config', `the shape [${s.join(', ')}] of input '${spec.inputs[i].name}' needs positive integer dims`, where);
    if (s.reduce((a, b) => a * b, 1) > MAX_TEST_ELEMENTS) fail('limit', `input '${spec.inputs[i].name}' [${s.join(', ')}] has more than ${MAX_TEST_ELEMENTS} elements`, where);
  });
  const attrs: Record<string, Attr> = {};
  for (const [k, v] of Object.entries(o.attrs)) {
    if (!spec.attrs.some((a) => a.name === k)) fail('bad-config', `${spec.op} has no attribute '${k}' (it has ${spec.attrs.map((a) => a.name).join(', ') || 'none'})`, where);
    put(attrs, k, Array.isArray(v) ? { kind: 'ints', value: v } : { kind: 'int', value: v });
  }
  const opsets = [{ domain: '', version: 17 }, ...(spec.domain ? [{ domain: spec.domain, version: 1 }] : [])];
  return {
    name: `${spec.op}_test`,
    nodes: [{ name: `${spec.op}_0`, op: spec.op, domain: spec.domain, inputs: spec.inputs.map((t) => t.name), outputs: [spec.output.name], attrs }],
    inputs: spec.inputs.map((t, i) => ({ name: t.name, dtype: t.dtype, shape: [...o.shapes[i]] })),
    outputs: [{ name: spec.output.name, dtype: spec.output.dtype, shape: [] }],
    initializers: {},
    types: {},
    opsets,
    producer: 'deeploy-playground test maker',
  };
}

/** Builds the test; the op must be installed (installUserOps) so shape inference and the reference know it. */
export function makeOpTest(spec: UserOpSpec, o: OpTestOptions): OpTest {
  if (!installedUserOps().some((u) => u.spec.op === spec.op && u.spec.domain === spec.domain))
    fail('internal', `${spec.op} is not installed; install the session's user ops before making its test`, `test of ${spec.op}`);
  const graph = inferTypes(opTestGraph(spec, o));
  const out = graph.outputs[0];
  graph.outputs = [{ ...out, shape: graph.types[out.name]?.shape ?? out.shape }];
  const rng = mulberry32(o.seed >>> 0);
  const inputs = spec.inputs.map((t, i) => {
    const d = DTYPES[t.dtype];
    const n = o.shapes[i].reduce((a, b) => a * b, 1);
    const data = allocTensor(t.dtype, n);
    for (let k = 0; k < n; k++) (data as Int32Array)[k] = int(rng, d.min!, d.max!);
    return { name: t.name, dtype: t.dtype, shape: [...o.shapes[i]], data };
  });
  const values = interpret(graph, inputs.map((x) => ({ shape: x.shape, data: Float64Array.from(x.data as Int32Array) })), { inputsName: 'the test maker' });
  const outputs = values.map((v, i) => {
    const t = spec.output, data = allocTensor(t.dtype, v.data.length);
    for (let k = 0; k < v.data.length; k++) (data as Int32Array)[k] = Number(v.data[k]);
    return { name: graph.outputs[i].name, dtype: t.dtype, shape: [...v.shape], data };
  });
  return { model: writeOnnx(graph), inputs: writeNpz(inputs), outputs: writeNpz(outputs) };
}

/** The test as a Deeploy-style folder in a zip: network.onnx, inputs.npz, outputs.npz. */
export function testFolderZip(t: OpTest, folder: string): Uint8Array {
  return zipSync({ [`${folder}/network.onnx`]: t.model, [`${folder}/inputs.npz`]: t.inputs, [`${folder}/outputs.npz`]: t.outputs },
    { level: 6, mtime: new Date(1980, 0, 1) });
}
