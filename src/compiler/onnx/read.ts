// ONNX bytes -> graph IR. Every way a file can be wrong ends in a PlaygroundError that
// names the file and the tensor or node, never in a raw protobuf exception.
import type { onnx } from 'onnx-proto';
import { proto } from './proto';
import { fail } from '../../common/errors';
import { DTYPES, numel } from '../ir/dtype';
import type { Attr, DType, Graph, Initializer, Node, TensorData, TensorType, ValueInfo } from '../ir/graph';
import { dtypeFromOnnx } from './datatypes';
import { sortDataflow } from '../ir/dataflow';

/** Largest model we accept; beyond this the browser tab would run out of memory anyway. */
export const MAX_MODEL_BYTES = 256 * 1024 * 1024;

type Int64 = number | { low: number; high: number; unsigned?: boolean } | null | undefined;

/** The exact value of an int64 field: protobufjs gives Long in Node and number in the browser bundle. */
function bigint64(v: Int64): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  const b = (BigInt(v.high | 0) << 32n) | BigInt(v.low >>> 0);
  return v.unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

/** An int64 field that must be exact as a JS number (dimensions, versions). */
function int64(v: Int64, what: string, where: string): number {
  const b = bigint64(v);
  if (b > BigInt(Number.MAX_SAFE_INTEGER) || b < -BigInt(Number.MAX_SAFE_INTEGER))
    fail('bad-file', `${what} = ${b} is too large`, where);
  return Number(b);
}

export function readOnnx(bytes: Uint8Array, fileName: string): Graph {
  if (bytes.length === 0) fail('bad-file', 'the file is empty', fileName, 'choose an .onnx model file');
  if (bytes.length > MAX_MODEL_BYTES)
    fail('limit', `the file is ${bytes.length} bytes, more than the ${MAX_MODEL_BYTES}-byte limit`, fileName);
  let model: onnx.ModelProto;
  try {
    model = proto.ModelProto.decode(bytes);
  } catch (e) {
    fail('bad-file', `is not a valid ONNX model (protobuf decoding failed: ${(e as Error).message})`, fileName,
      'the file may be truncated or not an ONNX file at all');
  }
  const g = model.graph;
  if (!g || (!g.node?.length && !g.input?.length && !g.output?.length))
    fail('bad-file', 'is not an ONNX model: it contains no graph', fileName, 'choose an .onnx model file');
  if (!model.opsetImport?.length)
    fail('bad-file', 'declares no operator set (opset_import is empty)', fileName,
      'the file may be truncated; every ONNX model lists the opsets it uses');
  return readGraph(g, model, fileName);
}

function readGraph(g: onnx.IGraphProto, model: onnx.ModelProto, file: string): Graph {
  const initializers: Record<string, Initializer> = {};
  for (const t of g.initializer ?? []) {
    const init = readTensor(t, `${file}, initializer '${t.name ?? ''}'`);
    if (Object.hasOwn(initializers, init.name)) fail('bad-graph', `initializer '${init.name}' is defined twice`, file);
    put(initializers, init.name, init);
  }
  if ((g.sparseInitializer ?? []).length > 0)
    fail('bad-graph', 'sparse initializers are not supported', file, 'densify the model before loading it');

  const types: Record<string, TensorType> = {};
  for (const vi of g.valueInfo ?? []) {
    // A value_info without a shape says nothing we can keep (a TensorType has a known rank).
    const v = readValueInfo(vi, file, 'value_info', false);
    if (v && vi.type?.tensorType?.shape) put(types, v.name, { dtype: v.dtype, shape: v.shape });
  }

  // Old exporters list initializers among the graph inputs; those are constants, not inputs.
  const inputs: ValueInfo[] = [];
  for (const vi of g.input ?? []) {
    if (vi.name && Object.hasOwn(initializers, vi.name)) continue;
    const v = readValueInfo(vi, file, 'graph input', true)!;
    if (v.shape.some((d) => d < 0))
      fail('bad-graph', `graph input '${v.name}' has a dynamic shape [${describeDims(vi)}]`, file,
        'export the model with fixed input shapes');
    inputs.push(v);
    put(types, v.name, { dtype: v.dtype, shape: v.shape });
  }
  const outputs: ValueInfo[] = [];
  for (const vi of g.output ?? []) {
    const o = readValueInfo(vi, file, 'graph output', true)!;
    outputs.push(o);
    // An output without a shape reads as shape [], but only a declared shape is a known type.
    if (vi.type?.tensorType?.shape && !o.shape.includes(-1) && !Object.hasOwn(types, o.name))
      put(types, o.name, { dtype: o.dtype, shape: o.shape });
  }
  // Nothing to compute, check or show (found by the fuzzer: the generated program had nothing to compare).
  if (!outputs.length) fail('bad-graph', 'the graph has no outputs', file, 'a network must list at least one graph output');

  const used = new Set<string>();
  const read = (g.node ?? []).map((n, i) => readNode(n, i, used, file));
  const nodes = sortDataflow({ nodes: read, inputs, outputs, initializers }, (n) => `${file}, node "${n.name}" (${n.op})`, file);

  return {
    name: g.name || 'graph',
    nodes,
    inputs,
    outputs,
    initializers,
    types,
    opsets: (model.opsetImport ?? []).map((o) => ({ domain: o.domain ?? '', version: int64(o.version as Int64, 'opset version', file) })),
    producer: model.producerName || undefined,
  };
}

/** rec[key] = value, also for keys such as '__proto__' that plain assignment would not store. */
function put<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true });
}

const OTHER_ELEM_TYPES: Record<number, string> = {
  8: 'string', 14: 'complex64', 15: 'complex128', 16: 'bfloat16', 17: 'float8e4m3fn', 18: 'float8e4m3fnuz',
  19: 'float8e5m2', 20: 'float8e5m2fnuz', 21: 'uint4', 22: 'int4', 23: 'float4e2m1',
};

function describeElemType(code: number | null | undefined): string {
  if (!code) return 'unset (0)';
  return OTHER_ELEM_TYPES[code] ? `${OTHER_ELEM_TYPES[code]} (${code})` : `${code}`;
}

function describeDims(vi: onnx.IValueInfoProto): string {
  return (vi.type?.tensorType?.shape?.dim ?? []).map((d) => d.dimParam || (d.dimValue != null ? String(d.dimValue) : '?')).join(', ');
}

/** Reads a value's type; `required` makes a missing or non-tensor type an error. */
function readValueInfo(vi: onnx.IValueInfoProto, file: string, role: string, required: boolean): ValueInfo | null {
  const name = vi.name ?? '';
  if (!name) fail('bad-graph', `a ${role} has no name`, file);
  const tt = vi.type?.tensorType;
  if (!tt) {
    if (!required) return null;
    fail('bad-graph', `${role} '${name}' has no tensor type`, file, 'only tensor inputs and outputs are supported');
  }
  const dtype = dtypeFromOnnx(tt.elemType ?? 0);
  if (!dtype) {
    if (!required) return null;
    fail('dtype-mismatch', `${role} '${name}' has unsupported element type ${describeElemType(tt.elemType)}`, file);
  }
  if (!tt.shape) {
    if (role === 'graph input') fail('bad-graph', `graph input '${name}' has no shape`, file, 'export the model with fixed input shapes');
    return { name, dtype, shape: [] };
  }
  const shape = (tt.shape.dim ?? []).map((d) => (d.dimValue != null && !d.dimParam ? int64(d.dimValue as Int64, `dimension of '${name}'`, file) : -1));
  if (shape.some((d) => d < -1)) fail('bad-graph', `${role} '${name}' has a negative dimension`, file);
  return { name, dtype, shape };
}

function readNode(n: onnx.INodeProto, index: number, used: Set<string>, file: string): Node {
  const op = n.opType ?? '';
  if (!op) fail('bad-graph', `node #${index} has no op type`, file);
  // Names must be unique: they key the pass view, the memory plan and the generated C.
  let name = n.name || `${op}_${index}`;
  if (used.has(name)) {
    let k = 1;
    while (used.has(`${name}_${k}`)) k++;
    name = `${name}_${k}`;
  }
  used.add(name);
  const attrs: Record<string, Attr> = {};
  const where = `${file}, node "${name}" (${op})`;
  for (const a of n.attribute ?? []) {
    if (!a.name) fail('bad-graph', 'an attribute has no name', where);
    put(attrs, a.name, readAttr(a, where));
  }
  return { name, op, domain: n.domain ?? '', inputs: [...(n.input ?? [])], outputs: [...(n.output ?? [])], attrs };
}

function readAttr(a: onnx.IAttributeProto, where: string): Attr {
  const T = proto.AttributeProto.AttributeType;
  const dec = (b: Uint8Array) => new TextDecoder().decode(b);
  switch (a.type) {
    case T.FLOAT: return { kind: 'float', value: a.f ?? 0 };
    // Integer attributes may be beyond 2^53 (INT64_MAX marks 'to the end' in Slice); they read as the nearest number.
    case T.INT: return { kind: 'int', value: Number(bigint64(a.i as Int64)) };
    case T.STRING: return { kind: 'string', value: dec(a.s ?? new Uint8Array()) };
    case T.FLOATS: return { kind: 'floats', value: [...(a.floats ?? [])] };
    case T.INTS: return { kind: 'ints', value: (a.ints ?? []).map((v) => Number(bigint64(v as Int64))) };
    case T.STRINGS: return { kind: 'strings', value: (a.strings ?? []).map(dec) };
    case T.TENSOR: return { kind: 'tensor', value: readTensor(a.t ?? {}, `${where}, attribute ${a.name}`) };
    case T.GRAPH: case T.GRAPHS:
      fail('unsupported-op', `attribute '${a.name}' holds a subgraph; control flow (If, Loop, Scan) is not supported`, where);
    default:
      fail('bad-graph', a.type ? `attribute '${a.name}' has unsupported type ${a.type}` : `attribute '${a.name}' has its type unset`, where);
  }
}

/** `at` names the tensor in errors: the file and the initializer, or the node and attribute. */
function readTensor(t: onnx.ITensorProto, at: string): Initializer {
  const name = t.name ?? '';
  if (t.dataLocation === proto.TensorProto.DataLocation.EXTERNAL || (t.externalData ?? []).length > 0)
    fail('bad-file', 'the tensor data is stored in an external file, which cannot be loaded here', at,
      'save the model with all tensors inside the .onnx file');
  const dtype = dtypeFromOnnx(t.dataType ?? 0);
  if (!dtype || dtype === 'string')
    fail('dtype-mismatch', `has unsupported element type ${describeElemType(t.dataType)}`, at, 'only integer and float tensors are supported');
  const shape = (t.dims ?? []).map((d) => int64(d as Int64, 'a dimension', at));
  if (shape.some((d) => d < 0)) fail('bad-graph', `negative dimension in [${shape.join(', ')}]`, at);
  const n = numel(shape);
  const data = readTensorData(t, dtype, n, at);
  return { name, dtype, shape, data };
}

function readTensorData(t: onnx.ITensorProto, dtype: DType, n: number, at: string): TensorData {
  const info = DTYPES[dtype];
  const ctor = info.array!;
  const raw = t.rawData;
  if (raw && raw.length > 0) {
    if (raw.length !== n * info.bytes)
      fail('bad-graph', `raw data has ${raw.length} bytes, but its shape needs ${n * info.bytes}`, at);
    // Copy into a fresh aligned buffer; ONNX raw data is little-endian, as are our hosts.
    const copy = new Uint8Array(raw.length);
    copy.set(raw);
    return new ctor(copy.buffer);
  }
  const src: ArrayLike<unknown> =
    dtype === 'float32' ? t.floatData ?? [] :
    dtype === 'float64' ? t.doubleData ?? [] :
    dtype === 'int64' ? t.int64Data ?? [] :
    dtype === 'uint32' || dtype === 'uint64' ? t.uint64Data ?? [] :
    t.int32Data ?? [];
  if (src.length !== n) fail('bad-graph', `holds ${src.length} values, but its shape needs ${n}`, at);
  const out = new ctor(n);
  for (let i = 0; i < n; i++) {
    const v = src[i] as Int64;
    if (dtype === 'int64') (out as BigInt64Array)[i] = BigInt.asIntN(64, bigint64(v));
    else if (dtype === 'uint64') (out as BigUint64Array)[i] = BigInt.asUintN(64, bigint64(v));
    else (out as Exclude<TensorData, BigInt64Array | BigUint64Array>)[i] = typeof v === 'number' ? v : Number(bigint64(v));
  }
  return out;
}
