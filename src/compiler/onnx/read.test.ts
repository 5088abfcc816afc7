// readOnnx on bad input: every way a file can be wrong gives a PlaygroundError with a code
// and a message naming the file and the tensor or node, never a raw exception.
import { zipSync } from 'fflate';
import type { onnx } from 'onnx-proto';
import { describe, expect, test } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import type { ErrorCode } from '../../common/errors';
import { findTestDirs, loadTestCase } from '../../testing/corpus';
import { mulberry32 } from '../fuzz/prng';
import { proto } from './proto';
import { readOnnx } from './read';
import { writeOnnx } from './write';

const ROOT = new URL('../../../../shared/deeploy-tests/', import.meta.url);
const shared = (rel: string) => {
  const dir = findTestDirs(ROOT).find((d) => d.endsWith(rel));
  if (!dir) throw new Error(`no shared test ending in ${rel}`);
  return loadTestCase(dir, ROOT).onnx;
};

function expectError(fn: () => unknown, code: ErrorCode, ...mentions: (string | RegExp)[]): PlaygroundError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a PlaygroundError').toBeInstanceOf(PlaygroundError);
  const pe = err as PlaygroundError;
  expect(pe.data.code, pe.message).toBe(code);
  for (const m of mentions) expect(pe.message).toMatch(m);
  return pe;
}

// ---- tiny ONNX builders (plain protobuf objects, so we can write what writeOnnx never would) ----
type Dim = number | string | null;
const vi = (name: string, elemType: number, dims?: Dim[]): onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType, ...(dims ? { shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : d === null ? {} : { dimValue: d })) } } : {}) } },
});
const INT8 = 3;
function encode(graph: onnx.IGraphProto, opsets: onnx.IOperatorSetIdProto[] = [{ domain: '', version: 13 }]): Uint8Array {
  return proto.ModelProto.encode({ irVersion: 8, opsetImport: opsets, graph }).finish();
}
/** x (int8 [1,4]) -> Relu -> y, plus whatever the test changes. */
function relu(over: Partial<onnx.IGraphProto> = {}): onnx.IGraphProto {
  return {
    name: 'g',
    node: [{ name: 'relu', opType: 'Relu', input: ['x'], output: ['y'] }],
    input: [vi('x', INT8, [1, 4])],
    output: [vi('y', INT8, [1, 4])],
    ...over,
  };
}

describe('not an ONNX file', () => {
  test('an empty file', () => {
    expectError(() => readOnnx(new Uint8Array(), 'empty.onnx'), 'bad-file', 'empty.onnx', /empty/);
  });

  test('random bytes', () => {
    const rand = mulberry32(7);
    for (let k = 0; k < 50; k++) {
      const bytes = new Uint8Array(1 + Math.floor(rand() * 4096)).map(() => Math.floor(rand() * 256));
      expectError(() => readOnnx(bytes, `random${k}.onnx`), 'bad-file', `random${k}.onnx`);
    }
  });

  test('a PNG, a zip and text files renamed .onnx', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
      0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    expectError(() => readOnnx(png, 'picture.onnx'), 'bad-file', 'picture.onnx');
    const zip = zipSync({ 'network.onnx': shared('Add/Regular') });
    expectError(() => readOnnx(zip, 'archive.onnx'), 'bad-file', 'archive.onnx');
    const texts = ['hello world\n', '{"graph": {"node": []}}', 'import torch\ntorch.onnx.export(model, x, "m.onnx")\n',
      'ir_version: 8\ngraph { node { op_type: "Relu" } }\n', ' ', '\n'];
    for (const t of texts)
      expectError(() => readOnnx(new TextEncoder().encode(t), 'notes.onnx'), 'bad-file', 'notes.onnx');
  });

  test('a model cut short anywhere', () => {
    const small = shared('Add/Regular');
    for (let cut = 1; cut < small.length; cut++)
      expectError(() => readOnnx(small.subarray(0, cut), 'cut.onnx'), 'bad-file', 'cut.onnx');
    for (const rel of ['Conv/Regular_2D_RQ', 'GEMM/Regular', 'miniMobileNetv2', 'Attention']) {
      const bytes = shared(rel);
      for (const f of [0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999]) {
        const cut = Math.max(1, Math.floor(bytes.length * f));
        expectError(() => readOnnx(bytes.subarray(0, cut), 'cut.onnx'), 'bad-file', 'cut.onnx');
      }
      expectError(() => readOnnx(bytes.subarray(0, bytes.length - 1), 'cut.onnx'), 'bad-file', 'cut.onnx');
    }
  });

  test('a model with no opset import (cut right after the graph)', () => {
    const bytes = proto.ModelProto.encode({ irVersion: 8, graph: relu() }).finish();
    expectError(() => readOnnx(bytes, 'noopset.onnx'), 'bad-file', 'noopset.onnx', /opset/);
  });

  test('a file over the size limit is refused before decoding', () => {
    const big = new Uint8Array(256 * 1024 * 1024 + 1);
    expectError(() => readOnnx(big, 'huge.onnx'), 'limit', 'huge.onnx');
  });
});

describe('graph inputs and outputs', () => {
  test('a dynamic input dimension (dim_param)', () => {
    const bytes = encode(relu({ input: [vi('x', INT8, ['batch', 4])] }));
    expectError(() => readOnnx(bytes, 'dyn.onnx'), 'bad-graph', 'dyn.onnx', "'x'", /dynamic shape \[batch, 4\]/);
  });

  test('an unset input dimension', () => {
    const bytes = encode(relu({ input: [vi('x', INT8, [null, 4])] }));
    expectError(() => readOnnx(bytes, 'dyn.onnx'), 'bad-graph', 'dyn.onnx', "'x'", /dynamic shape/);
  });

  test('an input without a shape', () => {
    const bytes = encode(relu({ input: [vi('x', INT8)] }));
    expectError(() => readOnnx(bytes, 'noshape.onnx'), 'bad-graph', 'noshape.onnx', "graph input 'x' has no shape");
  });

  test('an input that is not a tensor, or of an unsupported type', () => {
    expectError(() => readOnnx(encode(relu({ input: [{ name: 'x', type: {} }] })), 'seq.onnx'), 'bad-graph', 'seq.onnx', "'x'", /tensor type/);
    expectError(() => readOnnx(encode(relu({ input: [vi('x', 16, [1, 4])] })), 'bf.onnx'), 'dtype-mismatch', 'bf.onnx', "'x'", /bfloat16/);
  });

  test('a negative or enormous dimension', () => {
    expectError(() => readOnnx(encode(relu({ input: [vi('x', INT8, [1, -4])] })), 'neg.onnx'), 'bad-graph', 'neg.onnx', "'x'", /negative/);
    const huge = encode(relu({ input: [{ name: 'x', type: { tensorType: { elemType: INT8, shape: { dim: [{ dimValue: { low: 0, high: 0x40000000 } as never }] } } } }] }));
    expectError(() => readOnnx(huge, 'huge.onnx'), 'bad-file', 'huge.onnx', "'x'", /too large/);
  });

  test('an output no node produces', () => {
    const bytes = encode(relu({ output: [vi('y', INT8, [1, 4]), vi('ghost', INT8, [1])] }));
    expectError(() => readOnnx(bytes, 'out.onnx'), 'bad-graph', 'out.onnx', "'ghost'");
  });

  test('no outputs at all (found by the fuzzer)', () => {
    expectError(() => readOnnx(encode(relu({ output: [] })), 'none.onnx'), 'bad-graph', 'none.onnx', 'the graph has no outputs');
  });

  test('value_info without a shape is not taken for a scalar; outputs without one are untyped', () => {
    const g = readOnnx(encode(relu({ valueInfo: [vi('y', INT8)], output: [vi('y', INT8)] })), 'vi.onnx');
    expect(g.types.y).toBeUndefined();
    expect(g.outputs).toEqual([{ name: 'y', dtype: 'int8', shape: [] }]);
    const scalar = readOnnx(encode(relu({ output: [vi('y', INT8, [])] })), 'vi.onnx');
    expect(scalar.types.y).toEqual({ dtype: 'int8', shape: [] });
  });
});

describe('dataflow', () => {
  test('a node input that refers to a tensor that does not exist', () => {
    const bytes = encode(relu({ node: [{ name: 'relu', opType: 'Relu', input: ['x_typo'], output: ['y'] }] }));
    expectError(() => readOnnx(bytes, 'dangling.onnx'), 'bad-graph', 'dangling.onnx', 'node "relu" (Relu)', "'x_typo'");
  });

  test('a missing initializer (removed from a shared Conv model)', () => {
    const m = proto.ModelProto.decode(shared('Conv/Regular_2D'));
    const gone = m.graph!.initializer!.shift()!;
    const bytes = proto.ModelProto.encode(m).finish();
    const e = expectError(() => readOnnx(bytes, 'network.onnx'), 'bad-graph', 'network.onnx', `'${gone.name}'`, /Conv/);
    expect(e.data.hint).toMatch(/initializer/);
  });

  test('two producers of one tensor, and a node overwriting an input', () => {
    const twice = encode(relu({ node: [
      { name: 'a', opType: 'Relu', input: ['x'], output: ['y'] },
      { name: 'b', opType: 'Relu', input: ['x'], output: ['y'] },
    ] }));
    expectError(() => readOnnx(twice, 'ssa.onnx'), 'bad-graph', 'ssa.onnx', 'node "b" (Relu)', "'y'", 'node "a"');
    const overwrite = encode(relu({ node: [{ name: 'a', opType: 'Relu', input: ['x'], output: ['x'] }] }));
    expectError(() => readOnnx(overwrite, 'ssa.onnx'), 'bad-graph', 'node "a" (Relu)', "'x'");
  });

  test('nodes out of order are sorted; a cycle is an error', () => {
    const g = readOnnx(encode(relu({ node: [
      { name: 'second', opType: 'Relu', input: ['t'], output: ['y'] },
      { name: 'first', opType: 'Relu', input: ['x'], output: ['t'] },
    ] })), 'order.onnx');
    expect(g.nodes.map((n) => n.name)).toEqual(['first', 'second']);
    const cycle = encode(relu({ node: [
      { name: 'a', opType: 'Add', input: ['x', 'u'], output: ['t'] },
      { name: 'b', opType: 'Relu', input: ['t'], output: ['u'] },
      { name: 'c', opType: 'Relu', input: ['t'], output: ['y'] },
    ] }));
    expectError(() => readOnnx(cycle, 'cycle.onnx'), 'bad-graph', 'cycle.onnx', /node "a" \(Add\).*cycle/);
  });

  test('unnamed and duplicate node names get unique names', () => {
    const g = readOnnx(encode(relu({ node: [
      { opType: 'Relu', input: ['x'], output: ['t'] },
      { name: 'Relu_0', opType: 'Relu', input: ['t'], output: ['u'] },
      { name: 'Relu_0', opType: 'Relu', input: ['u'], output: ['y'] },
    ] })), 'names.onnx');
    expect(g.nodes.map((n) => n.name)).toEqual(['Relu_0', 'Relu_0_1', 'Relu_0_2']);
  });

  test('a node without an op type', () => {
    expectError(() => readOnnx(encode(relu({ node: [{ name: 'n', input: ['x'], output: ['y'] }] })), 'op.onnx'),
      'bad-graph', 'op.onnx', /node #0 has no op type/);
  });
});

describe('initializers and attributes', () => {
  const w = (t: onnx.ITensorProto) => ({ name: 'w', dims: [4], dataType: INT8, ...t });
  const addW = (t: onnx.ITensorProto) => encode(relu({
    node: [{ name: 'add', opType: 'Add', input: ['x', 'w'], output: ['y'] }],
    initializer: [w(t)],
  }));

  test('raw data of the wrong size', () => {
    expectError(() => readOnnx(addW({ rawData: new Uint8Array(3) }), 'w.onnx'), 'bad-graph', "w.onnx, initializer 'w'", /3 bytes.*needs 4/);
  });

  test('typed data of the wrong length, and a huge declared shape, without allocating it', () => {
    expectError(() => readOnnx(addW({ int32Data: [1, 2] }), 'w.onnx'), 'bad-graph', "initializer 'w'", /2 values.*needs 4/);
    expectError(() => readOnnx(addW({ dims: [2 ** 40, 2 ** 12], int32Data: [1] }), 'w.onnx'), 'bad-graph', "initializer 'w'");
  });

  test('an unsupported element type names the type', () => {
    expectError(() => readOnnx(addW({ dataType: 16, rawData: new Uint8Array(8) }), 'w.onnx'), 'dtype-mismatch', "initializer 'w'", /bfloat16/);
    expectError(() => readOnnx(addW({ dataType: 99, rawData: new Uint8Array(8) }), 'w.onnx'), 'dtype-mismatch', "initializer 'w'", /99/);
    expectError(() => readOnnx(addW({ dataType: 0 }), 'w.onnx'), 'dtype-mismatch', "initializer 'w'", /unset/);
  });

  test('external data', () => {
    const bytes = addW({ dataLocation: 1, externalData: [{ key: 'location', value: 'w.bin' }] });
    expectError(() => readOnnx(bytes, 'ext.onnx'), 'bad-file', "ext.onnx, initializer 'w'", /external/);
  });

  test('an initializer defined twice, and sparse initializers', () => {
    const twice = encode(relu({ node: [{ name: 'add', opType: 'Add', input: ['x', 'w'], output: ['y'] }],
      initializer: [w({ rawData: new Uint8Array(4) }), w({ rawData: new Uint8Array(4) })] }));
    expectError(() => readOnnx(twice, 'w.onnx'), 'bad-graph', 'w.onnx', /'w' is defined twice/);
    const sparse = encode(relu({ sparseInitializer: [{ dims: [4] }] }));
    expectError(() => readOnnx(sparse, 's.onnx'), 'bad-graph', 's.onnx', /sparse/);
  });

  test('int64 data beyond 2^53 reads exactly (INT64_MAX as Slice end)', () => {
    const max = { low: -1, high: 0x7fffffff }, min = { low: 0, high: -0x80000000 };
    const bytes = encode(relu({
      node: [{ name: 's', opType: 'Slice', input: ['x', 'w'], output: ['y'],
        attribute: [{ name: 'ends', type: 7, ints: [max as never, min as never, -3] }] }],
      initializer: [{ name: 'w', dims: [2], dataType: 7, int64Data: [max as never, min as never] }],
    }), [{ domain: '', version: 9 }]);
    const g = readOnnx(bytes, 'slice.onnx');
    expect([...(g.initializers.w.data as BigInt64Array)]).toEqual([2n ** 63n - 1n, -(2n ** 63n)]);
    expect(g.nodes[0].attrs.ends).toEqual({ kind: 'ints', value: [2 ** 63, -(2 ** 63), -3] });
    // ...and writes back as the same int64 values.
    const again = proto.ModelProto.decode(writeOnnx(g));
    expect(again.graph!.node![0].attribute![0].ints!.map(String)).toEqual(['9223372036854775807', '-9223372036854775808', '-3']);
  });

  test('attributes holding subgraphs or unknown kinds', () => {
    const withAttr = (a: onnx.IAttributeProto) => encode(relu({ node: [{ name: 'n', opType: 'If', input: ['x'], output: ['y'], attribute: [a] }] }));
    expectError(() => readOnnx(withAttr({ name: 'then_branch', type: 5, g: relu() }), 'if.onnx'), 'unsupported-op', 'if.onnx', 'node "n" (If)', /subgraph/);
    expectError(() => readOnnx(withAttr({ name: 'k', type: 0, i: 3 }), 'a.onnx'), 'bad-graph', 'a.onnx', 'node "n" (If)', /'k'.*unset/);
    expectError(() => readOnnx(withAttr({ type: 2, i: 3 }), 'a.onnx'), 'bad-graph', 'a.onnx', 'node "n" (If)', /no name/);
    expectError(() => readOnnx(withAttr({ name: 'value', type: 4, t: { dims: [2], dataType: INT8, rawData: new Uint8Array(1) } }), 'c.onnx'),
      'bad-graph', 'c.onnx, node "n" (If), attribute value', /needs 2/);
  });
});
