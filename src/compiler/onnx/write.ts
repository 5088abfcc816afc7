// Graph IR -> ONNX bytes, the inverse of read.ts: readOnnx(writeOnnx(g)) equals g, and
// writeOnnx(readOnnx(writeOnnx(g))) is byte-identical to writeOnnx(g). The file opens in
// Netron and in onnx: initializers as raw_data, attributes with their ONNX kinds, and a
// value_info for every typed tensor that is not a graph input or output.
import type { onnx } from 'onnx-proto';
import { fail } from '../../common/errors';
import { DTYPES, numel } from '../ir/dtype';
import type { Attr, DType, Graph, Initializer, Node, TensorType, ValueInfo } from '../ir/graph';
import { dtypeToOnnx } from './datatypes';
import { proto } from './proto';

export interface WriteOptions {
  /** ONNX IR version; by default the lowest one >= 8 that allows the graph's default-domain opset. */
  irVersion?: number;
}

/** First IR version of each ONNX release that raised the default-domain opset (onnx helper's VERSION_TABLE). */
const IR_FOR_OPSET: [opset: number, ir: number][] = [[19, 9], [21, 10], [23, 11], [24, 12]];

export function defaultIrVersion(graph: Pick<Graph, 'opsets'>): number {
  const opset = graph.opsets.find((o) => o.domain === '' || o.domain === 'ai.onnx')?.version ?? 0;
  let ir = 8;
  for (const [o, v] of IR_FOR_OPSET) if (opset >= o) ir = v;
  return ir;
}

export function writeOnnx(graph: Graph, opts: WriteOptions = {}): Uint8Array {
  const model: onnx.IModelProto = {
    irVersion: opts.irVersion ?? defaultIrVersion(graph),
    opsetImport: graph.opsets.map((o) => ({ domain: o.domain, version: o.version })),
    graph: graphProto(graph),
  };
  if (graph.producer !== undefined) model.producerName = graph.producer;
  const buf = proto.ModelProto.encode(model).finish();
  // protobufjs hands out a Node Buffer (often a pooled slice); give callers a plain array.
  const out = new Uint8Array(buf.byteLength);
  out.set(buf);
  return out;
}

function graphProto(g: Graph): onnx.IGraphProto {
  const inputNames = new Set(g.inputs.map((v) => v.name));
  const outputNames = new Set(g.outputs.map((v) => v.name));
  const valueInfo: onnx.IValueInfoProto[] = [];
  for (const [name, t] of Object.entries(g.types)) {
    if (inputNames.has(name)) continue;
    // An output's type goes into value_info only when the output declaration does not
    // already say it (the reader derives a type from a fully known output shape).
    if (outputNames.has(name) && sameType(t, typeFromOutput(g, name))) continue;
    valueInfo.push(valueInfoProto({ name, ...t }, true));
  }
  return {
    name: g.name,
    node: g.nodes.map(nodeProto),
    initializer: Object.values(g.initializers).map((t) => tensorProto(t, `initializer '${t.name}'`)),
    input: g.inputs.map((v) => valueInfoProto(v, true)),
    output: g.outputs.map((v) => valueInfoProto(v, v.shape.length > 0 || typeOf(g, v.name)?.shape.length === 0)),
    valueInfo,
  };
}

/** The type readOnnx derives from an output declaration written by this module, if any. */
function typeFromOutput(g: Graph, name: string): TensorType | undefined {
  const o = g.outputs.find((v) => v.name === name)!;
  const withShape = o.shape.length > 0 || typeOf(g, name)?.shape.length === 0;
  return withShape && !o.shape.includes(-1) ? { dtype: o.dtype, shape: o.shape } : undefined;
}

/** g.types[name], without tripping over names such as 'constructor'. */
function typeOf(g: Graph, name: string): TensorType | undefined {
  return Object.hasOwn(g.types, name) ? g.types[name] : undefined;
}

function sameType(a: TensorType, b: TensorType | undefined): boolean {
  return !!b && a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);
}

/** `withShape` false leaves the shape out (unknown rank), true writes it; -1 dims are written unknown. */
function valueInfoProto(v: ValueInfo, withShape: boolean): onnx.IValueInfoProto {
  const tensorType: onnx.TypeProto.ITensor = { elemType: elemType(v.dtype, `tensor '${v.name}'`) };
  if (withShape) tensorType.shape = { dim: v.shape.map((d) => (d >= 0 ? { dimValue: dim(d, v.name) } : {})) };
  return { name: v.name, type: { tensorType } };
}

function nodeProto(n: Node): onnx.INodeProto {
  const where = `node "${n.name}" (${n.op})`;
  const p: onnx.INodeProto = {
    input: n.inputs,
    output: n.outputs,
    name: n.name,
    opType: n.op,
    attribute: Object.entries(n.attrs).map(([name, a]) => attrProto(name, a, where)),
  };
  if (n.domain) p.domain = n.domain;
  return p;
}

function attrProto(name: string, a: Attr, where: string): onnx.IAttributeProto {
  const T = proto.AttributeProto.AttributeType;
  const at = `${where}, attribute ${name}`;
  switch (a.kind) {
    case 'float': return { name, type: T.FLOAT, f: a.value };
    case 'int': return { name, type: T.INT, i: int(a.value, at) };
    case 'string': return { name, type: T.STRING, s: new TextEncoder().encode(a.value) };
    case 'floats': return { name, type: T.FLOATS, floats: a.value };
    case 'ints': return { name, type: T.INTS, ints: a.value.map((v) => int(v, at)) };
    case 'strings': return { name, type: T.STRINGS, strings: a.value.map((s) => new TextEncoder().encode(s)) };
    case 'tensor': return { name, type: T.TENSOR, t: tensorProto(a.value, at) };
  }
}

function tensorProto(t: Initializer, where: string): onnx.ITensorProto {
  const info = DTYPES[t.dtype];
  const n = numel(t.shape);
  if (!info.array || t.data.length !== n || t.data.byteLength !== n * info.bytes)
    fail('bad-graph', `holds ${t.data.length} ${t.dtype} values, but its shape [${t.shape.join(', ')}] needs ${n}`, where);
  const p: onnx.ITensorProto = {
    dims: t.shape.map((d) => dim(d, where)),
    dataType: elemType(t.dtype, where),
    // Typed arrays are little-endian on every host we run on, as raw_data must be.
    rawData: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
  };
  if (t.name) p.name = t.name;
  return p;
}

function elemType(dtype: DType, where: string): number {
  const code = dtypeToOnnx(dtype) as number | undefined;
  if (code === undefined) fail('dtype-mismatch', `has element type '${dtype}', which ONNX has no code for`, where);
  return code;
}

function dim(d: number, where: string): number {
  if (!Number.isSafeInteger(d) || d < 0) fail('bad-graph', `has an invalid dimension ${d}`, where);
  return d;
}

/**
 * An int64 attribute value as protobufjs' {low, high} bits (exact without the 'long' package).
 * Integers beyond 2^53 are allowed (the reader gives INT64_MAX as 2^63); they clamp to int64.
 */
function int(v: number, where: string): number {
  if (!Number.isInteger(v)) fail('bad-graph', `holds ${v}, which is not an integer`, where);
  const b = BigInt(v);
  const MAX = (1n << 63n) - 1n;
  const bits = BigInt.asUintN(64, b > MAX ? MAX : b < -MAX - 1n ? -MAX - 1n : b);
  const long = { low: Number(bits & 0xffffffffn) | 0, high: Number(bits >> 32n) | 0, unsigned: false };
  return long as unknown as number;
}
