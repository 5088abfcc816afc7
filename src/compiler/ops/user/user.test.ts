// User operators end to end in the compiler: spec checks, the registry entry (attribute ranges,
// shape rules, semantics), binding and codegen of the student's kernel, tiling constraints.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { installUserOps } from '..';
import { DEFAULT_CONFIG, type Config } from '../../config';
import { readOnnx } from '../../onnx/read';
import { inferTypes } from '../../shapes/infer';
import { runPipeline } from '../../../pipeline/run';
import { nodeMilp } from '../../../pipeline/node/milp';
import type { Results } from '../../../pipeline/results';
import { record } from '../../../pipeline/results';
import type { PlaygroundErrorData } from '../../../common/errors';
import { checkUserOp } from './entry';
import { binaryView, kernelSignature, kernelSkeleton } from './kernel';
import { makeOpTest, opTestGraph } from './maketest';
import type { UserOp, UserOpSpec } from './spec';

const LAB = new URL('../../../pipeline/lab/', import.meta.url);
const leaky: UserOpSpec = JSON.parse(readFileSync(new URL('ileakyrelu.json', LAB), 'utf8'));
const scalar = readFileSync(new URL('scalar.c', LAB), 'utf8');
const op = (spec = leaky, kernel = scalar): UserOp => ({ spec, kernel });

afterEach(() => installUserOps([]));

async function compile(ops: UserOp[], model: { model: Uint8Array; inputs?: Uint8Array; outputs?: Uint8Array }, config: Partial<Config> = {}) {
  const results: Results = {};
  let error: PlaygroundErrorData | undefined;
  await runPipeline({ ...model, modelName: 'test.onnx', ops }, { ...DEFAULT_CONFIG, ...config }, (e) => {
    if (e.type === 'stage') record(results, e);
    if (e.type === 'error') error = e.error;
  }, { until: 'codegen', milp: nodeMilp });
  return { results, error };
}

describe('user op specs', () => {
  it('accepts the lab spec and names every problem of a bad one by field', () => {
    expect(checkUserOp(leaky)).toEqual([]);
    const bad: UserOpSpec = {
      ...leaky, op: '1x', shape: 'binary', semantics: 'x >= 0 ? x : (mul * x) >> shft',
      attrs: [{ name: 'mul', kind: 'int', min: 3, max: 1 }, { name: 'int', kind: 'int', default: 9, min: 0, max: 7 }],
      tiling: [{ axis: -1, multiple: 0 }],
    };
    expect(checkUserOp(bad).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "op: the op type '1x' must be an identifier (letters, digits, _; not starting with a digit)",
      'inputs: the binary shape rule takes 2 inputs, the spec lists 1',
      'attrs.0.max: max 1 is below min 3',
      "attrs.1.name: attribute name 'int' is a C keyword",
      'attrs.1.default: the default 9 is outside [0, 7]',
      "semantics: column 27: unknown name 'shft' (known: x, mul, int)",
      'tiling.0.multiple: multiple 0 must be an integer >= 1',
    ]);
  });

  it('refuses a user op that shadows a built-in one', () => {
    expect(() => installUserOps([op({ ...leaky, op: 'Relu' })])).toThrow(/Relu is a built-in op; a user op needs a name of its own/);
  });
});

describe('the registry entry', () => {
  it('parses attributes with their ranges: the lab parser refuses mul != 1 and shift outside [0, 8)', () => {
    installUserOps([op()]);
    for (const [attrs, msg] of [
      [{ mul: 1, shift: 8 }, "attribute 'shift' = 8 is outside the allowed range [0, 7] of iLeakyReLU"],
      [{ mul: 2, shift: 3 }, "attribute 'mul' = 2 is outside the allowed range [1, 1] of iLeakyReLU"],
    ] as const) {
      const g = opTestGraph(leaky, { shapes: [[4, 8]], attrs, seed: 1 });
      expect(() => inferTypes(g)).toThrow(`node "iLeakyReLU_0" (iLeakyReLU): ${msg}`);
    }
    expect(() => inferTypes(opTestGraph(leaky, { shapes: [[4, 8]], attrs: { mul: 1 }, seed: 1 }))).toThrow("required attribute 'shift' is missing");
  });

  it('computes the golden outputs from the semantics (the test maker)', () => {
    installUserOps([op()]);
    const t = makeOpTest(leaky, { shapes: [[2, 64]], attrs: { shift: 3 }, seed: 7 });
    const g = readOnnx(t.model, 'm.onnx');
    expect(g.nodes.map((n) => [n.op, n.attrs.shift])).toEqual([['iLeakyReLU', { kind: 'int', value: 3 }]]);
    expect(g.outputs[0].shape).toEqual([2, 64]);
  });

  it('names a shape rule that does not fit the inputs and an output beyond its dtype', () => {
    const add: UserOpSpec = { ...leaky, op: 'MyAdd', attrs: [], shape: 'binary', inputs: [{ name: 'a', dtype: 'int8' }, { name: 'b', dtype: 'int8' }], semantics: 'a + b' };
    installUserOps([op(add)]);
    expect(() => inferTypes(opTestGraph(add, { shapes: [[2, 3], [4]], attrs: {}, seed: 1 }))).toThrow(/node "MyAdd_0" \(MyAdd\).*do not broadcast/);
    expect(() => makeOpTest(add, { shapes: [[2, 3], [3]], attrs: {}, seed: 1 }))
      .toThrow(/node "MyAdd_0" \(MyAdd\): output 'y' holds -?\d+ at flat index \d+, outside int8 \[-128, 127\]/);
  });

  it('row templates read n and the row aggregates', () => {
    const mean: UserOpSpec = { ...leaky, op: 'RowMean', attrs: [], shape: 'reduce-last', inputs: [{ name: 'x', dtype: 'int8' }], output: { name: 'y', dtype: 'int8' }, semantics: 'rowsum / n' };
    const centre: UserOpSpec = { ...mean, op: 'Centre', shape: 'row-last', output: { name: 'y', dtype: 'int16' }, semantics: 'x - rowmax' };
    installUserOps([op(mean), op(centre)]);
    const g = inferTypes(opTestGraph(mean, { shapes: [[3, 5]], attrs: {}, seed: 1 }));
    expect(g.types.y.shape).toEqual([3, 1]);
    expect(() => makeOpTest(centre, { shapes: [[3, 5]], attrs: {}, seed: 1 })).not.toThrow();
  });
});

describe('the kernel', () => {
  it('has the signature codegen calls, and a skeleton that splits the work per core', () => {
    expect(kernelSignature(leaky)).toBe('void iLeakyReLU_s8_s8(const int8_t *x, int8_t *y, uint32_t size, int32_t mul, int32_t shift)');
    expect(kernelSkeleton(leaky)).toContain('dpg_chunk(size, &lo, &hi);');
  });

  it('views a binary broadcast as rows x cols with element strides', () => {
    expect(binaryView([4, 8], [4, 8], [8], 'w')).toEqual({ rows: 4, cols: 8, strides: [8, 1, 0, 1] });
    expect(binaryView([4, 8], [4, 1], [1], 'w')).toEqual({ rows: 4, cols: 8, strides: [1, 0, 0, 0] });
    expect(binaryView([2, 3, 4], [2, 3, 4], [2, 3, 4], 'w')).toEqual({ rows: 1, cols: 24, strides: [24, 1, 24, 1] });
    expect(() => binaryView([2, 3, 4], [2, 1, 4], [2, 3, 4], 'node "x"')).toThrow(/3 alternating runs/);
  });

  it('is bound on the cluster and called between write guards; its file is part of the program', async () => {
    installUserOps([op()]);
    const t = makeOpTest(leaky, { shapes: [[1, 16, 64, 64]], attrs: { mul: 1, shift: 3 }, seed: 1 });
    const { results, error } = await compile([op()], t, { tiled: false });
    expect(error).toBeUndefined();
    const code = results.codegen!;
    expect(code.files.find((f) => f.path === 'iLeakyReLU.c')?.content).toBe(scalar);
    const net = code.files.find((f) => f.path === 'Network.c')!.content;
    expect(net).toContain('hal_guard_begin(0, DPG_AT(dpg_l2, 65536), 65536);\n  iLeakyReLU_s8_s8(DPG_AT(dpg_l2, 0), DPG_AT(dpg_l2, 65536), 65536, 1, 3);\n}');
    expect(code.layers[0]).toMatchObject({ kernel: 'iLeakyReLU_s8_s8', engine: 'cluster', calls: ['iLeakyReLU_s8_s8'] });
  });

  it('a model without the installed op says which op is missing', async () => {
    installUserOps([op()]);
    const t = makeOpTest(leaky, { shapes: [[8]], attrs: { shift: 3 }, seed: 1 });
    const { error } = await compile([], t);
    expect(error?.what).toMatch(/op iLeakyReLU is not supported/);
  });
});

describe('tiling constraints', () => {
  const tileOf = async (spec: UserOpSpec, shape: number[], l1: number) => {
    installUserOps([op(spec)]);
    const t = makeOpTest(spec, { shapes: [shape], attrs: { shift: 3 }, seed: 1 });
    const { results, error } = await compile([op(spec)], t, { tiled: true, l1 });
    expect(error).toBeUndefined();
    return results.tile!.tilings[0].tile;
  };
  it('multiples and minimum sizes narrow the tiles the MILP chooses from', async () => {
    // 1500 int8 values per row and 2 buffers in 1024 B of L1: rows are cut.
    expect(await tileOf(leaky, [4, 1500], 1024)).toEqual([1, 500]);
    expect(await tileOf({ ...leaky, tiling: [{ axis: -1, multiple: 16 }] }, [4, 1500], 1024)).toEqual([1, 512]);
    expect(await tileOf({ ...leaky, tiling: [{ axis: 0, min: 2 }] }, [4, 1500], 1024)).toEqual([2, 250]);
    expect(await tileOf(leaky, [1, 16, 64, 64], 32768)).toEqual([1, 4, 64, 64]);
    expect(await tileOf({ ...leaky, tiling: [{ axis: 1, min: 8 }] }, [1, 16, 64, 64], 32768)).toEqual([1, 8, 32, 64]);
  });
});
