// writeOnnx: round trips over every shared model, idempotence, and a structural check of the
// bytes, both through onnx-proto and through an independent wire-format walk against the
// field numbers and types of onnx.proto (we cannot run Python's onnx.checker here).
import { describe, expect, test } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { DTYPES, numel } from '../ir/dtype';
import type { DType, Graph, Initializer } from '../ir/graph';
import { findTestDirs, loadTestCase } from '../../testing/corpus';
import { dtypeToOnnx } from './datatypes';
import { proto } from './proto';
import { readOnnx } from './read';
import { defaultIrVersion, writeOnnx } from './write';

const ROOT = new URL('../../../../shared/deeploy-tests/', import.meta.url);
const DIRS = findTestDirs(ROOT);

/** Deep equality, with tensor data compared as bytes plus array type (fast on MB-sized weights). */
function expectSameGraph(got: Graph, want: Graph) {
  const strip = (g: Graph) => JSON.parse(JSON.stringify(g, (_k, v: unknown) =>
    ArrayBuffer.isView(v) ? { array: v.constructor.name, length: (v as Uint8Array).length } : v)) as unknown;
  expect(strip(got)).toEqual(strip(want));
  const tensors = (g: Graph) => [
    ...Object.values(g.initializers),
    ...g.nodes.flatMap((n) => Object.values(n.attrs).flatMap((a) => (a.kind === 'tensor' ? [a.value] : []))),
  ];
  const a = tensors(got), b = tensors(want);
  expect(a.length).toBe(b.length);
  a.forEach((t, i) => {
    expect(t.data.constructor).toBe(b[i].data.constructor);
    expect(Buffer.compare(bytesOf(t), bytesOf(b[i])), `data of '${t.name}'`).toBe(0);
  });
}

const bytesOf = (t: Initializer) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

test('the shared test vectors are found', () => {
  expect(DIRS.length).toBeGreaterThanOrEqual(40);
});

describe.each(DIRS.map((d) => [loadTestCase(d, ROOT).name, d]))('%s', (_name, dir) => {
  const tc = loadTestCase(dir, ROOT);
  test('parse -> write -> parse gives the same graph; write is idempotent', () => {
    const g1 = readOnnx(tc.onnx, 'network.onnx');
    const w1 = writeOnnx(g1);
    const g2 = readOnnx(w1, 'network.onnx');
    expectSameGraph(g2, g1);
    const w2 = writeOnnx(g2);
    expect(Buffer.compare(w1, w2)).toBe(0);
    expect(w1).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(w1)).toBe(false);
  });

  test('the written file is structurally valid ONNX', () => {
    const g = readOnnx(tc.onnx, 'network.onnx');
    const bytes = writeOnnx(g);
    checkWire(bytes, 'ModelProto');
    checkModel(bytes, g);
  });
});

describe('hand-built graphs', () => {
  const tensor = (name: string, dtype: DType, shape: number[], values: number[]): Initializer => {
    const data = new (DTYPES[dtype].array!)(numel(shape));
    values.forEach((v, i) => {
      (data as unknown as (number | bigint)[])[i] = data instanceof BigInt64Array || data instanceof BigUint64Array ? BigInt(v) : v;
    });
    return { name, dtype, shape, data };
  };
  const ALL: DType[] = ['float32', 'float64', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'];

  function kitchenSink(): Graph {
    const inits: Record<string, Initializer> = {};
    for (const [i, dt] of ALL.entries()) inits[`c_${dt}`] = tensor(`c_${dt}`, dt, [2, i % 3 + 1], [1, 0, 1, 0, 1, 0]);
    inits.empty = tensor('empty', 'int8', [0, 4], []);
    inits.scalar = tensor('scalar', 'int64', [], [-(2 ** 40)]);
    inits['42'] = tensor('42', 'int32', [1], [-7]); // integer-like names sort first in JS objects
    return {
      name: 'sink',
      nodes: [
        {
          name: 'n0', op: 'RequantShift', domain: 'PACTOps', inputs: ['x', 'c_int32', ''], outputs: ['y'],
          attrs: {
            i: { kind: 'int', value: -(2 ** 52) }, f: { kind: 'float', value: 0.5 }, s: { kind: 'string', value: 'héllo' },
            is: { kind: 'ints', value: [1, -2, 2 ** 40, 2 ** 63, -(2 ** 63)] }, fs: { kind: 'floats', value: [0.25, -1.5] },
            ss: { kind: 'strings', value: ['a', ''] }, none: { kind: 'ints', value: [] },
            t: { kind: 'tensor', value: tensor('', 'int8', [3], [-128, 0, 127]) },
          },
        },
        { name: 'n1', op: 'Identity', domain: '', inputs: ['y'], outputs: ['z'], attrs: {} },
        { name: 'n2', op: 'ReduceSum', domain: '', inputs: ['z'], outputs: ['s'], attrs: {} },
      ],
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, 3] }],
      outputs: [
        { name: 'z', dtype: 'int8', shape: [-1, 3] },
        { name: 's', dtype: 'int32', shape: [] },
      ],
      initializers: inits,
      types: {
        x: { dtype: 'int8', shape: [1, 3] },
        y: { dtype: 'int8', shape: [1, -1] },
        z: { dtype: 'int8', shape: [1, 3] }, // more precise than the output declaration
        s: { dtype: 'int32', shape: [] }, // a known scalar output
      },
      opsets: [{ domain: '', version: 13 }, { domain: 'PACTOps', version: 1 }],
      producer: 'hand',
    };
  }

  test('every dtype, attribute kind, unknown dims, scalars and odd names survive a round trip', () => {
    const g = kitchenSink();
    const bytes = writeOnnx(g);
    checkWire(bytes, 'ModelProto');
    checkModel(bytes, g);
    expectSameGraph(readOnnx(bytes, 'sink.onnx'), g);
    expect(Buffer.compare(writeOnnx(readOnnx(bytes, 'sink.onnx')), bytes)).toBe(0);
  });

  test('names that are not identifiers, including __proto__, survive', () => {
    const g: Graph = {
      name: 'odd', opsets: [{ domain: '', version: 13 }],
      nodes: [
        { name: 'constructor', op: 'Add', domain: '', inputs: ['__proto__', 'toString'], outputs: ['hasOwnProperty'], attrs: {} },
        { name: 'valueOf', op: 'Relu', domain: '', inputs: ['hasOwnProperty'], outputs: ['constructor'], attrs: {} },
      ],
      inputs: [{ name: '__proto__', dtype: 'int8', shape: [2] }],
      outputs: [{ name: 'hasOwnProperty', dtype: 'int8', shape: [2] }, { name: 'constructor', dtype: 'int8', shape: [] }],
      initializers: {}, types: {},
    };
    Object.defineProperty(g.initializers, 'toString', { value: tensor('toString', 'int8', [2], [1, 2]), enumerable: true });
    Object.defineProperty(g.types, '__proto__', { value: { dtype: 'int8', shape: [2] }, enumerable: true });
    g.types.hasOwnProperty = { dtype: 'int8', shape: [2] } as never;
    const back = readOnnx(writeOnnx(g), 'odd.onnx');
    expect(Object.keys(back.initializers)).toEqual(['toString']);
    expect(back.inputs.map((v) => v.name)).toEqual(['__proto__']);
    expect(back.outputs.map((v) => v.name)).toEqual(['hasOwnProperty', 'constructor']);
    expect(back.nodes.map((n) => n.name)).toEqual(['constructor', 'valueOf']);
    expect(Object.keys(back.types).sort()).toEqual(['__proto__', 'hasOwnProperty']);
    expect(Object.getPrototypeOf(back.types)).toBe(Object.prototype);
  });

  test('the IR version follows the default-domain opset, or the option', () => {
    const v = (version: number) => defaultIrVersion({ opsets: [{ domain: 'PACTOps', version: 30 }, { domain: '', version }] });
    expect([v(10), v(18), v(19), v(21), v(23)]).toEqual([8, 8, 9, 10, 11]);
    const decoded = proto.ModelProto.decode(writeOnnx(kitchenSink(), { irVersion: 7 }));
    expect(Number(decoded.irVersion)).toBe(7);
  });

  test('inconsistent graphs are refused with a PlaygroundError naming the tensor or node', () => {
    const bad = kitchenSink();
    bad.initializers.c_int8 = { ...bad.initializers.c_int8, shape: [5] };
    expectError(() => writeOnnx(bad), 'bad-graph', /initializer 'c_int8'.*needs 5/);
    const badAttr = kitchenSink();
    badAttr.nodes[0].attrs.i = { kind: 'int', value: 1.5 };
    expectError(() => writeOnnx(badAttr), 'bad-graph', /node "n0" \(RequantShift\), attribute i/);
    const badDim = kitchenSink();
    badDim.initializers.empty = { ...badDim.initializers.empty, shape: [NaN] };
    expectError(() => writeOnnx(badDim), 'bad-graph', /initializer 'empty'/);
    const badType = kitchenSink();
    badType.inputs[0] = { ...badType.inputs[0], dtype: 'complex64' as DType };
    expectError(() => writeOnnx(badType), 'dtype-mismatch', /tensor 'x'.*complex64/);
  });
});

function expectError(fn: () => unknown, code: string, message: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PlaygroundError);
    expect((e as PlaygroundError).data.code).toBe(code);
    expect((e as PlaygroundError).message).toMatch(message);
    return;
  }
  expect.fail('expected a PlaygroundError');
}

// What onnx-proto's decoder gives (repeated fields default to [] on the prototype).
interface Dim { dimValue?: unknown; dimParam?: string | null }
interface VI { name: string; type?: { tensorType?: { elemType: number; shape?: { dim: Dim[] } | null } | null } | null }
interface Attr { name: string; type: number; [field: string]: unknown }
interface Decoded {
  irVersion: unknown;
  opsetImport: { domain: string; version: unknown }[];
  graph: {
    name: string;
    node: { name: string; opType: string; domain: string; input: string[]; output: string[]; attribute: Attr[] }[];
    initializer: ({ name: string; dataType: number; dims: unknown[]; rawData: Uint8Array } & Record<string, unknown[]>)[];
    input: VI[]; output: VI[]; valueInfo: VI[];
  };
}

/** Decodes with onnx-proto and checks each field against the graph it was written from. */
function checkModel(bytes: Uint8Array, g: Graph) {
  const m = proto.ModelProto.decode(bytes) as unknown as Decoded;
  expect(Number(m.irVersion)).toBe(defaultIrVersion(g));
  expect(m.opsetImport.map((o) => ({ domain: o.domain, version: Number(o.version) }))).toEqual(g.opsets);
  const gp = m.graph;
  expect(gp.name).toBe(g.name);
  expect(gp.node.map((n) => [n.name, n.opType, n.domain, n.input, n.output])).toEqual(
    g.nodes.map((n) => [n.name, n.op, n.domain, n.inputs, n.outputs]));
  const T = proto.AttributeProto.AttributeType;
  const FIELD: Record<number, string | undefined> = { [T.FLOAT]: 'f', [T.INT]: 'i', [T.STRING]: 's', [T.TENSOR]: 't',
    [T.FLOATS]: 'floats', [T.INTS]: 'ints', [T.STRINGS]: 'strings' };
  gp.node.forEach((n, i) => {
    expect(n.attribute.map((a) => a.name)).toEqual(Object.keys(g.nodes[i].attrs));
    for (const a of n.attribute) {
      const kind = g.nodes[i].attrs[a.name].kind;
      const want: Record<string, string> = { int: 'i', float: 'f', string: 's', tensor: 't', ints: 'ints', floats: 'floats', strings: 'strings' };
      expect(FIELD[a.type], `${n.name}.${a.name}`).toBe(want[kind]);
      // Exactly the field of its kind is set (repeated fields may be empty).
      for (const f of Object.values(FIELD) as string[]) {
        const v = a[f];
        const set = Array.isArray(v) ? v.length > 0 : Object.hasOwn(a, f);
        if (f !== FIELD[a.type]) expect(set, `${n.name}.${a.name}.${f}`).toBe(false);
      }
    }
  });
  const inits = Object.values(g.initializers);
  expect(gp.initializer.map((t) => t.name)).toEqual(inits.map((t) => t.name));
  gp.initializer.forEach((t, i) => {
    expect(t.dataType).toBe(dtypeToOnnx(inits[i].dtype));
    expect(t.dims.map(Number)).toEqual(inits[i].shape);
    expect(t.rawData.length).toBe(numel(inits[i].shape) * DTYPES[inits[i].dtype].bytes);
    for (const f of ['floatData', 'int32Data', 'int64Data', 'doubleData', 'uint64Data', 'stringData'] as const)
      expect(t[f].length).toBe(0);
  });
  const dims = (vi: VI) =>
    vi.type?.tensorType?.shape?.dim?.map((d) => (d.dimValue != null ? Number(d.dimValue) : -1));
  expect(gp.input.map((v) => [v.name, v.type?.tensorType?.elemType, dims(v)])).toEqual(
    g.inputs.map((v) => [v.name, dtypeToOnnx(v.dtype), v.shape]));
  expect(gp.output.map((v) => [v.name, v.type?.tensorType?.elemType])).toEqual(g.outputs.map((v) => [v.name, dtypeToOnnx(v.dtype)]));
  // Every typed tensor that is not a graph input or output has a value_info with its type.
  const io = new Set([...g.inputs, ...g.outputs].map((v) => v.name));
  const vis = new Map(gp.valueInfo.map((v) => [v.name, v]));
  for (const [name, t] of Object.entries(g.types)) {
    if (io.has(name)) continue;
    const vi = vis.get(name);
    expect(vi, `value_info for '${name}'`).toBeDefined();
    expect(vi!.type?.tensorType?.elemType).toBe(dtypeToOnnx(t.dtype));
    expect(dims(vi!)).toEqual(t.shape);
  }
  for (const name of vis.keys()) expect(Object.hasOwn(g.types, name)).toBe(true);
}

// ---- An independent protobuf wire-format walk, against onnx.proto's field numbers. ----
type Wire = 'varint' | 'i32' | 'len' | 'packed-varint' | 'packed-i32';
/** field number -> [allowed wire shapes, message type for nested messages] */
const SCHEMA: Record<string, Record<number, [Wire[], string?]>> = {
  ModelProto: { 1: [['varint']], 2: [['len']], 3: [['len']], 7: [['len'], 'GraphProto'], 8: [['len'], 'OperatorSetIdProto'] },
  OperatorSetIdProto: { 1: [['len']], 2: [['varint']] },
  GraphProto: { 1: [['len'], 'NodeProto'], 2: [['len']], 5: [['len'], 'TensorProto'], 11: [['len'], 'ValueInfoProto'],
    12: [['len'], 'ValueInfoProto'], 13: [['len'], 'ValueInfoProto'] },
  NodeProto: { 1: [['len']], 2: [['len']], 3: [['len']], 4: [['len']], 5: [['len'], 'AttributeProto'], 7: [['len']] },
  AttributeProto: { 1: [['len']], 2: [['i32']], 3: [['varint']], 4: [['len']], 5: [['len'], 'TensorProto'],
    7: [['i32', 'packed-i32']], 8: [['varint', 'packed-varint']], 9: [['len']], 20: [['varint']] },
  TensorProto: { 1: [['varint', 'packed-varint']], 2: [['varint']], 8: [['len']], 9: [['len']] },
  ValueInfoProto: { 1: [['len']], 2: [['len'], 'TypeProto'] },
  TypeProto: { 1: [['len'], 'TypeProto.Tensor'] },
  'TypeProto.Tensor': { 1: [['varint']], 2: [['len'], 'TensorShapeProto'] },
  TensorShapeProto: { 1: [['len'], 'Dimension'] },
  Dimension: { 1: [['varint']], 2: [['len']] },
};

function checkWire(buf: Uint8Array, type: string, path = type): void {
  let pos = 0;
  const varint = () => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (pos >= buf.length) throw new Error(`${path}: varint runs past the end`);
      const b = buf[pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      if (shift > 63n) throw new Error(`${path}: varint too long`);
    }
  };
  while (pos < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3, wt = tag & 7;
    const spec = SCHEMA[type][field];
    expect(spec, `${path}: field ${field} is not one we write`).toBeDefined();
    const [allowed, sub] = spec;
    if (wt === 0) {
      expect(allowed.includes('varint'), `${path}.${field}: varint`).toBe(true);
      varint();
    } else if (wt === 5) {
      expect(allowed.includes('i32'), `${path}.${field}: fixed32`).toBe(true);
      pos += 4;
    } else if (wt === 2) {
      const len = Number(varint());
      expect(pos + len <= buf.length, `${path}.${field}: length past the end`).toBe(true);
      const body = buf.subarray(pos, pos + len);
      pos += len;
      if (sub) checkWire(body, sub, `${path}.${field}`);
      else if (allowed.includes('packed-varint')) { // every byte sequence must be whole varints
        let p = 0;
        for (; p < body.length; p++) while (body[p] & 0x80) p++;
        expect(p, `${path}.${field}: packed varints`).toBe(body.length);
      } else if (allowed.includes('packed-i32')) expect(len % 4).toBe(0);
      else expect(allowed.includes('len'), `${path}.${field}: length-delimited`).toBe(true);
    } else {
      expect.fail(`${path}.${field}: wire type ${wt} is never used by onnx.proto fields we write`);
    }
  }
  expect(pos, `${path}: trailing bytes`).toBe(buf.length);
}
