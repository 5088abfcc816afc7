// Mutations of an ONNX file, for the fuzzer. Byte-level ones (bit flips, truncation, splicing,
// duplicated or deleted ranges) test the protobuf layer; structure-aware ones decode the model
// with onnx-proto, change one thing a user's exporter could plausibly get wrong (a dimension,
// an attribute, a data type, a node input, an op type, initializer bytes) and re-encode, so
// the case gets past the reader and exercises shape inference and the interpreter.
// Every choice comes from the Rng: the same seed gives the same mutation.
import type { onnx } from 'onnx-proto';
import { proto } from '../onnx/proto';
import type { Rng } from './prng';
import { int, pick } from './prng';

export interface Mutation {
  bytes: Uint8Array;
  /** What was done, e.g. "dim: input 'x' dim 1 = 0"; part of a reproducer report. */
  what: string;
}

type Mutator = (bytes: Uint8Array, rng: Rng, donor: Uint8Array) => Mutation;
type ModelMutator = (m: onnx.ModelProto, rng: Rng) => string | null;

/** int64 values as protobufjs {low, high} bits, exact beyond 2^53. */
const long = (v: bigint) => {
  const b = BigInt.asUintN(64, v);
  return { low: Number(b & 0xffffffffn) | 0, high: Number(b >> 32n) | 0, unsigned: false } as unknown as number;
};
const INT64_MAX = long(2n ** 63n - 1n), INT64_MIN = long(-(2n ** 63n));
/** An int64 field value as text (numbers, or {low, high} bits). */
const show = (v: unknown): string => {
  if (v && typeof v === 'object' && 'low' in v && 'high' in v) {
    const { low, high } = v as { low: number; high: number };
    return String(BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low >>> 0)));
  }
  return String(v);
};

const DIMS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 17, 64, 255, 256, 1024, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 1, 2 ** 40, 2 ** 53 - 1, -1, -2];
const INTS = [0, 1, -1, 2, -2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 127, 128, 255, 256, 1000, 2 ** 31 - 1, -(2 ** 31), 2 ** 32, 2 ** 53 - 1];
const FLOATS = [0, -0, 1, -1, 0.5, 2, 1e-45, 1e-7, 3.4e38, 1e39, Infinity, -Infinity, NaN];
/** ONNX element types: ours, the ones we refuse, and out of range. */
const ELEM_TYPES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 0, 8, 14, 16, 17, 21, 22, 99];
/** Ops of the Deeploy test networks and their neighbours, plus nonsense. */
const OPS = ['Add', 'Sub', 'Mul', 'Div', 'MatMul', 'Gemm', 'Conv', 'MaxPool', 'Relu', 'Clip', 'Reshape', 'Transpose',
  'Concat', 'Slice', 'Pad', 'Gather', 'Flatten', 'Squeeze', 'Unsqueeze', 'ReduceSum', 'ReduceMean', 'Identity',
  'Constant', 'Shape', 'RequantShift', 'iRMSNorm', 'iSoftmax', 'ITAMax', 'iGELU', 'IntegerMean', 'iHardswish',
  'iNoNorm', 'TrueIntegerDiv', 'Softmax', 'LayerNormalization', 'If', 'Loop', '', 'relu', 'Fuzz\u0000Op'];

// ---- byte-level -------------------------------------------------------------------------------

const flipBits: Mutator = (b, rng) => {
  const out = b.slice();
  const n = int(rng, 1, 8);
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = int(rng, 0, out.length - 1);
    out[p] ^= 1 << int(rng, 0, 7);
    at.push(p);
  }
  return { bytes: out, what: `flip bits at ${at.join(',')}` };
};

const setBytes: Mutator = (b, rng) => {
  const out = b.slice();
  const n = int(rng, 1, 4);
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = int(rng, 0, out.length - 1);
    out[p] = pick(rng, [0, 1, 0x7f, 0x80, 0xff, int(rng, 0, 255)]);
    at.push(p);
  }
  return { bytes: out, what: `set bytes at ${at.join(',')}` };
};

const truncate: Mutator = (b, rng) => {
  const n = int(rng, 0, b.length - 1);
  return { bytes: b.slice(0, n), what: `truncate to ${n} of ${b.length} bytes` };
};

const splice: Mutator = (b, rng, donor) => {
  const i = int(rng, 0, b.length), j = int(rng, 0, donor.length);
  const out = new Uint8Array(i + donor.length - j);
  out.set(b.subarray(0, i));
  out.set(donor.subarray(j), i);
  return { bytes: out, what: `splice: first ${i} bytes + donor from ${j}` };
};

const duplicateRange: Mutator = (b, rng) => {
  const a = int(rng, 0, b.length - 1), len = int(rng, 1, Math.min(256, b.length - a)), at = int(rng, 0, b.length);
  const out = new Uint8Array(b.length + len);
  out.set(b.subarray(0, at));
  out.set(b.subarray(a, a + len), at);
  out.set(b.subarray(at), at + len);
  return { bytes: out, what: `duplicate ${len} bytes from ${a} at ${at}` };
};

const deleteRange: Mutator = (b, rng) => {
  const a = int(rng, 0, b.length - 1), len = int(rng, 1, Math.min(256, b.length - a));
  const out = new Uint8Array(b.length - len);
  out.set(b.subarray(0, a));
  out.set(b.subarray(a + len), a);
  return { bytes: out, what: `delete ${len} bytes at ${a}` };
};

// ---- structure-aware ----------------------------------------------------------------------------

/** Decoded repeated fields can be a shared frozen empty array: always assign a fresh copy. */
function edit<T>(arr: T[] | null | undefined, fn: (a: T[]) => void): T[] {
  const copy = [...(arr ?? [])];
  fn(copy);
  return copy;
}

function valueInfos(g: onnx.IGraphProto): [string, onnx.IValueInfoProto][] {
  return [
    ...(g.input ?? []).map((v) => ['input', v] as [string, onnx.IValueInfoProto]),
    ...(g.output ?? []).map((v) => ['output', v] as [string, onnx.IValueInfoProto]),
    ...(g.valueInfo ?? []).map((v) => ['value_info', v] as [string, onnx.IValueInfoProto]),
  ];
}

function tensorNames(g: onnx.IGraphProto): string[] {
  const names = new Set<string>();
  for (const v of g.input ?? []) if (v.name) names.add(v.name);
  for (const t of g.initializer ?? []) if (t.name) names.add(t.name);
  for (const n of g.node ?? []) for (const o of n.output ?? []) names.add(o);
  return [...names];
}

const mutateDim: ModelMutator = (m, rng) => {
  const g = m.graph!;
  if (rng() < 0.3 && g.initializer?.length) {
    // Initializer dims: a permutation keeps the data valid; anything else usually breaks it.
    const t = pick(rng, g.initializer);
    const dims = [...(t.dims ?? [])];
    if (dims.length >= 2 && rng() < 0.5) {
      const i = int(rng, 0, dims.length - 1), j = int(rng, 0, dims.length - 1);
      [dims[i], dims[j]] = [dims[j], dims[i]];
      t.dims = dims;
      return `dim: swap dims ${i},${j} of initializer '${t.name}'`;
    }
    const i = int(rng, 0, dims.length);
    const v = pick(rng, DIMS);
    if (i === dims.length) dims.push(v);
    else dims[i] = v;
    t.dims = dims;
    return `dim: initializer '${t.name}' dim ${i} = ${v}`;
  }
  const vis = valueInfos(g).filter(([, v]) => v.type?.tensorType);
  if (!vis.length) return null;
  const [role, vi] = pick(rng, vis);
  const tt = vi.type!.tensorType!;
  const r = rng();
  if (r < 0.08) {
    tt.shape = null;
    return `dim: ${role} '${vi.name}' loses its shape`;
  }
  const dims = edit(tt.shape?.dim, (d) => {
    const i = int(rng, 0, Math.max(0, d.length - 1));
    if (r < 0.16) d.splice(i, 1);
    else if (r < 0.24) d.splice(i, 0, { dimValue: pick(rng, [1, 2, 3]) });
    else if (r < 0.32) d[i] = { dimParam: 'N' };
    else d[i] = { dimValue: pick(rng, DIMS) };
  });
  tt.shape = { dim: dims };
  return `dim: ${role} '${vi.name}' dims = [${dims.map((d) => d.dimParam ?? show(d.dimValue)).join(', ')}]`;
};

const mutateAttr: ModelMutator = (m, rng) => {
  const nodes = (m.graph!.node ?? []).filter((n) => n.attribute?.length);
  if (!nodes.length) return null;
  const n = pick(rng, nodes);
  const T = proto.AttributeProto.AttributeType;
  const r = rng();
  let what = '';
  n.attribute = edit(n.attribute, (attrs) => {
    const k = int(rng, 0, attrs.length - 1);
    const a = { ...attrs[k] } as onnx.IAttributeProto;
    if (r < 0.1) {
      attrs.splice(k, 1);
      what = `remove attribute ${a.name}`;
      return;
    }
    if (r < 0.2) {
      a.type = pick(rng, [T.INT, T.INTS, T.FLOAT, T.FLOATS, T.STRING, T.TENSOR, T.UNDEFINED, T.GRAPH]);
      what = `attribute ${a.name} type = ${a.type}`;
    } else if (a.type === T.INT || (r < 0.3 && a.type !== T.INTS)) {
      a.type = T.INT;
      a.i = rng() < 0.1 ? pick(rng, [INT64_MAX, INT64_MIN]) : pick(rng, INTS) * (rng() < 0.2 ? -1 : 1);
      what = `attribute ${a.name} = int ${show(a.i)}`;
    } else if (a.type === T.INTS) {
      a.ints = edit(a.ints as number[], (v) => {
        const i = int(rng, 0, v.length);
        if (rng() < 0.2 && v.length) v.splice(int(rng, 0, v.length - 1), 1);
        else if (i === v.length) v.push(pick(rng, INTS));
        else v[i] = rng() < 0.1 ? INT64_MAX : pick(rng, INTS) * (rng() < 0.3 ? -1 : 1);
      });
      what = `attribute ${a.name} = ints [${a.ints.map(show).join(', ')}]`;
    } else if (a.type === T.FLOAT) {
      a.f = pick(rng, FLOATS);
      what = `attribute ${a.name} = float ${a.f}`;
    } else if (a.type === T.FLOATS) {
      a.floats = edit(a.floats, (v) => v.push(pick(rng, FLOATS)));
      what = `attribute ${a.name} floats + 1`;
    } else if (a.type === T.TENSOR && a.t) {
      const t = { ...a.t };
      t.dims = edit(t.dims as number[], (d) => d.push(pick(rng, [0, 1, 2])));
      a.t = t;
      what = `attribute ${a.name} tensor dims + 1`;
    } else {
      a.s = new TextEncoder().encode(pick(rng, ['', 'NOTSET', 'SAME_UPPER', 'VALID', '\u00ff\u00fe']));
      what = `attribute ${a.name} = string`;
    }
    attrs[k] = a;
  });
  return `attr: node "${n.name}" (${n.opType}) ${what}`;
};

const mutateDtype: ModelMutator = (m, rng) => {
  const g = m.graph!;
  if (rng() < 0.4 && g.initializer?.length) {
    const t = pick(rng, g.initializer);
    // Same-size swaps keep raw data valid and reach the interpreter.
    const same: Record<number, number[]> = { 1: [6, 12], 2: [3, 9], 3: [2, 9], 6: [1, 12], 7: [11, 13], 11: [7], 12: [6] };
    const to = rng() < 0.6 && same[t.dataType ?? 0] ? pick(rng, same[t.dataType!]) : pick(rng, ELEM_TYPES);
    t.dataType = to;
    return `dtype: initializer '${t.name}' data_type = ${to}`;
  }
  const vis = valueInfos(g).filter(([, v]) => v.type?.tensorType);
  if (!vis.length) return null;
  const [role, vi] = pick(rng, vis);
  vi.type!.tensorType!.elemType = pick(rng, ELEM_TYPES);
  return `dtype: ${role} '${vi.name}' elem_type = ${vi.type!.tensorType!.elemType}`;
};

const mutateNodeInput: ModelMutator = (m, rng) => {
  const g = m.graph!;
  if (!g.node?.length) return null;
  const n = pick(rng, g.node);
  const names = tensorNames(g);
  const r = rng();
  let what = '';
  n.input = edit(n.input, (ins) => {
    const i = int(rng, 0, Math.max(0, ins.length - 1));
    if (r < 0.15 && ins.length) { ins.splice(i, 1); what = `drop input ${i}`; }
    else if (r < 0.3) { const t = pick(rng, names); ins.push(t); what = `add input '${t}'`; }
    else if (r < 0.4 && ins.length > 1) { const j = int(rng, 0, ins.length - 1); [ins[i], ins[j]] = [ins[j], ins[i]]; what = `swap inputs ${i},${j}`; }
    else if (r < 0.45) { ins[i] = ''; what = `input ${i} = ''`; }
    else if (r < 0.5) { ins[i] = 'fuzz_missing'; what = `input ${i} = 'fuzz_missing'`; }
    else { ins[i] = pick(rng, names); what = `input ${i} = '${ins[i]}'`; }
  });
  return `input: node "${n.name}" (${n.opType}) ${what}`;
};

const mutateOp: ModelMutator = (m, rng) => {
  const g = m.graph!;
  if (!g.node?.length) return null;
  const n = pick(rng, g.node);
  const before = n.opType;
  if (rng() < 0.15) {
    n.domain = pick(rng, ['', 'PACTOps', 'com.microsoft', 'ai.onnx.ml', 'fuzz']);
    return `op: node "${n.name}" (${before}) domain = '${n.domain}'`;
  }
  const own = [...new Set(g.node.map((x) => x.opType ?? ''))];
  n.opType = rng() < 0.5 ? pick(rng, own) : pick(rng, OPS);
  return `op: node "${n.name}" (${before}) op_type = '${n.opType}'`;
};

const mutateNodes: ModelMutator = (m, rng) => {
  const g = m.graph!;
  if (!g.node?.length) return null;
  const r = rng();
  const i = int(rng, 0, g.node.length - 1);
  let what = '';
  g.node = edit(g.node, (nodes) => {
    if (r < 0.35) { what = `remove node ${i} ("${nodes[i].name}")`; nodes.splice(i, 1); }
    else if (r < 0.55) { what = `duplicate node ${i}`; nodes.splice(i, 0, { ...nodes[i] }); }
    else if (r < 0.8) { const j = int(rng, 0, nodes.length - 1); [nodes[i], nodes[j]] = [nodes[j], nodes[i]]; what = `swap nodes ${i},${j}`; }
    else { what = `rewire node ${i}'s output to a graph output`; nodes[i] = { ...nodes[i], output: [g.output?.[0]?.name ?? 'y'] }; }
  });
  return `nodes: ${what}`;
};

const mutateData: ModelMutator = (m, rng) => {
  const g = m.graph!;
  const inits = (g.initializer ?? []).filter((t) => t.rawData?.length);
  if (!inits.length) return null;
  const t = pick(rng, inits);
  const raw = new Uint8Array(t.rawData!);
  const r = rng();
  if (r < 0.15) {
    t.rawData = raw.subarray(0, int(rng, 0, raw.length - 1));
    return `data: initializer '${t.name}' raw data cut to ${t.rawData.length} bytes`;
  }
  // Overwrite whole elements with extreme values of the tensor's own type (shift 63, divisor 0,
  // INT_MIN, float-encoded integers beyond 2^24 or 2^53...) so the case reaches the interpreter.
  const dt = t.dataType ?? 0;
  const view = new DataView(raw.buffer);
  const width = { 1: 4, 6: 4, 7: 8, 11: 8, 12: 4, 13: 8, 5: 2, 4: 2, 10: 2 }[dt] ?? 1;
  const n = Math.floor(raw.length / width);
  if (n === 0) return null;
  const count = int(rng, 1, Math.min(8, n));
  const v = pick(rng, [0, 1, -1, 2, 31, 32, 63, 64, 127, -128, 255, 2 ** 15, 2 ** 24 + 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 40, 2 ** 53, 1e30]);
  for (let k = 0; k < count; k++) {
    const at = int(rng, 0, n - 1) * width;
    switch (dt) {
      case 1: view.setFloat32(at, v, true); break;
      case 11: view.setFloat64(at, v, true); break;
      case 7: case 13: view.setBigInt64(at, BigInt(Math.trunc(Math.min(Math.max(v, -(2 ** 63)), 2 ** 63 - 1024))), true); break;
      case 6: case 12: view.setInt32(at, v, true); break;
      case 5: case 4: case 10: view.setInt16(at, v, true); break;
      default: view.setInt8(at, v);
    }
  }
  t.rawData = raw;
  return `data: initializer '${t.name}' ${count} elements = ${v}`;
};

const mutateIO: ModelMutator = (m, rng) => {
  const g = m.graph!;
  const r = rng();
  if (r < 0.4 && g.input?.length) {
    const i = int(rng, 0, g.input.length - 1);
    const name = g.input[i].name;
    g.input = edit(g.input, (a) => a.splice(i, 1));
    return `io: remove graph input '${name}'`;
  }
  if (r < 0.7 && g.output?.length) {
    const i = int(rng, 0, g.output.length - 1);
    const name = g.output[i].name;
    g.output = edit(g.output, (a) => a.splice(i, 1));
    return `io: remove graph output '${name}'`;
  }
  const names = tensorNames(g);
  if (!g.output?.length || !names.length) return null;
  const o = { ...g.output[0], name: pick(rng, names) };
  g.output = edit(g.output, (a) => a.push(o));
  return `io: add graph output '${o.name}'`;
};

/**
 * Forgets the declared intermediate and output shapes (their element types stay) and picks a
 * graph input with a shape; null (nothing changed) when there is none.
 */
function forgetShapesPickInput(m: onnx.ModelProto, rng: Rng) {
  const g = m.graph!;
  const inits = new Set((g.initializer ?? []).map((t) => t.name));
  const inputs = (g.input ?? []).filter((v) => !inits.has(v.name) && v.type?.tensorType?.shape?.dim?.length);
  if (!inputs.length) return null;
  g.valueInfo = [];
  g.output = (g.output ?? []).map((o) => ({ ...o, type: { tensorType: { elemType: o.type?.tensorType?.elemType ?? 1 } } }));
  const vi = pick(rng, inputs);
  return { vi, tt: vi.type!.tensorType! };
}

/** Forgets the declared intermediate and output shapes, then makes one input dimension huge:
 *  shape inference must refuse the sizes that follow, not the interpreter run out of memory. */
const mutateScale: ModelMutator = (m, rng) => {
  const picked = forgetShapesPickInput(m, rng);
  if (!picked) return null;
  const { vi, tt } = picked;
  const v = pick(rng, [2 ** 12, 2 ** 16, 2 ** 20, 2 ** 24, 2 ** 31, 2 ** 40]);
  const i = int(rng, 0, tt.shape!.dim!.length - 1);
  tt.shape = { dim: edit(tt.shape!.dim, (d) => (d[i] = { dimValue: v })) };
  return `scale: no declared shapes; input '${vi.name}' dim ${i} = ${v}`;
};

/** Forgets the declared shapes and gives one input dimension an unusual but modest size (odd,
 *  prime, one past a power of two): the network stays valid, and tiling, codegen and the kernels
 *  meet remainders and edge tiles they do not meet at the exporter's sizes. */
const mutateResize: ModelMutator = (m, rng) => {
  const picked = forgetShapesPickInput(m, rng);
  if (!picked) return null;
  const { vi, tt } = picked;
  const i = int(rng, 0, tt.shape!.dim!.length - 1);
  const v = pick(rng, [1, 2, 3, 5, 7, 9, 13, 17, 31, 33, 63, 65, 100, 129]);
  tt.shape = { dim: edit(tt.shape!.dim, (d) => (d[i] = { dimValue: v })) };
  return `resize: no declared shapes; input '${vi.name}' dim ${i} = ${v}`;
};

const MODEL_MUTATORS: [number, string, ModelMutator][] = [
  [1, 'scale', mutateScale], [3, 'resize', mutateResize],
  [3, 'dim', mutateDim], [3, 'attr', mutateAttr], [2, 'dtype', mutateDtype], [3, 'input', mutateNodeInput],
  [2, 'op', mutateOp], [1, 'nodes', mutateNodes], [3, 'data', mutateData], [1, 'io', mutateIO],
];
const BYTE_MUTATORS: [number, Mutator][] = [
  [3, flipBits], [2, setBytes], [2, truncate], [1, splice], [1, duplicateRange], [1, deleteRange],
];

function weighted<T>(rng: Rng, items: [number, ...T[]][]): [number, ...T[]] {
  const total = items.reduce((s, it) => s + it[0], 0);
  let x = rng() * total;
  for (const it of items) if ((x -= it[0]) < 0) return it;
  return items[items.length - 1];
}

/** One to three structure-aware mutations; null when the bytes do not decode or nothing applied. */
export function mutateStructure(bytes: Uint8Array, rng: Rng): Mutation | null {
  let m: onnx.ModelProto;
  try {
    m = proto.ModelProto.decode(bytes);
  } catch {
    return null;
  }
  if (!m.graph) return null;
  const done: string[] = [];
  const rounds = rng() < 0.7 ? 1 : int(rng, 2, 3);
  for (let k = 0; k < rounds; k++) {
    const [, , fn] = weighted(rng, MODEL_MUTATORS) as [number, string, ModelMutator];
    const what = fn(m, rng);
    if (what) done.push(what);
  }
  if (!done.length) return null;
  return { bytes: proto.ModelProto.encode(m).finish().slice(), what: done.join('; ') };
}

/**
 * A mutated copy of `bytes`: structure-aware about 60% of the time, byte-level otherwise.
 * `donor` (another model) feeds splicing.
 */
export function mutate(bytes: Uint8Array, rng: Rng, donor: Uint8Array = bytes): Mutation {
  if (bytes.length > 0 && rng() < 0.6) {
    const s = mutateStructure(bytes, rng);
    if (s) return s;
  }
  return mutateBytes(bytes, rng, donor);
}

/** A byte-level mutation only (for any file format: .onnx, .npz...). */
export function mutateBytes(bytes: Uint8Array, rng: Rng, donor: Uint8Array = bytes): Mutation {
  if (bytes.length === 0) return { bytes, what: 'empty input' };
  const [, fn] = weighted(rng, BYTE_MUTATORS) as [number, Mutator];
  return fn(bytes, rng, donor.length ? donor : bytes);
}
