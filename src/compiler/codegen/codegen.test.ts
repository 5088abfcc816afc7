// Codegen internals: parameter indexing and walks against the reference's broadcasting, the
// layer map, plain-data results, Generic's input offset, and typed errors naming the node.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config';
import { SHARED_TESTS } from '../../testing/corpus';
import { mulberry32 } from '../fuzz/prng';
import { bindNpzInputs } from '../interpret/npz-io';
import { lowerGraph } from '../lower/lower';
import { readNpz } from '../npz';
import { alignParam } from '../ops/core/requant';
import { broadcastIndex, numel, stridesOf } from '../ops/core/tensor';
import { readOnnx } from '../onnx/read';
import { inferTypes } from '../shapes/infer';
import { append } from './append';
import { broadcastWalk, paramIndex, simplify } from './layout';
import { testDataFor } from './test-data';
import { generateWithPlan } from '../../testing/tiled-harness';
import { at, GraphBuilder } from '../passes/testing';
import { SHARED_TESTS as SHARED_TESTS_NEED, missing } from '../../testing/requires';

const shared = fileURLToPath(SHARED_TESTS);

describe('paramIndex: a parameter laid over an output exactly as the reference does', () => {
  const cases: [number[], number[]][] = [
    [[], [1, 4, 5, 6]], [[4], [1, 5, 6, 4]], [[4, 1, 1], [1, 4, 5, 6]], [[4, 1], [2, 4, 7]], [[7], [2, 4, 7]],
    [[4, 7], [3, 4, 7]], [[4, 1, 1], [1, 4, 9]], [[3, 1, 7], [3, 4, 7]], [[1, 4, 1, 1], [2, 4, 3, 3]],
  ];
  it.each(cases)('%j over %j', (p, x) => {
    const rng = mulberry32(numel(p) + x.length);
    const values = Float64Array.from({ length: numel(p) }, () => Math.floor(rng() * 1000) - 500);
    const expected = alignParam({ shape: p, data: values }, x, 'mul', 'test');
    const ix = paramIndex(values, p, x, 'mul', 'test');
    const got = Array.from({ length: numel(x) }, (_, i) => ix.values[ix.count === 1 ? 0 : Math.floor(i / ix.inner) % ix.count]);
    expect(got).toEqual(Array.from(expected));
  });
});

describe('walks', () => {
  it('broadcast walks visit what numpy broadcasting reads, also after merging dims', () => {
    const out = [2, 3, 4, 5];
    for (const b of [[5], [3, 1, 1], [2, 3, 4, 5], [4, 1], []]) {
      const w = simplify(broadcastWalk(out, [out, b]));
      const idx = broadcastIndex(b, out);
      const st = w.shape.map((_, d) => w.shape.slice(d + 1).reduce((a, c) => a * c, 1));
      for (let i = 0; i < numel(out); i++) {
        const coords = w.shape.map((n, d) => Math.floor(i / st[d]) % n);
        expect(coords.reduce((s, c, d) => s + c * w.strides[2][d], 0)).toBe(idx[i]);
        expect(coords.reduce((s, c, d) => s + c * w.strides[0][d], 0)).toBe(i);
      }
    }
  });

  it('contiguous copies collapse to one dimension', () => {
    expect(simplify({ shape: [2, 3, 4], strides: [stridesOf([2, 3, 4]), stridesOf([2, 3, 4])] })).toEqual({ shape: [24], strides: [[1], [1]] });
  });
});

const miniMobileNet = join(shared, 'Models/miniMobileNetv2');

/** A folder's program from an untiled plan: every layer forks in place on its home buffers. */
function compileFolder(dir: string, platform: 'generic' | 'siracusa' | 'siracusa-neureka', cores = 8) {
  const graph = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
  const inputs = bindNpzInputs(graph, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz').inputs;
  const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform, cores }, { inputs, check: 'none' });
  const data = testDataFor(graph, lower, inputs, readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz'));
  return { lower, code: () => generateWithPlan(lower, data, { cores, tiled: false }) };
}

describe.skipIf(missing(SHARED_TESTS_NEED))('generated program', () => {
  it('is plain data, maps every node of the final graph to its lines, and forks in graph order', async () => {
    const { lower, code } = compileFolder(miniMobileNet, 'siracusa');
    const r = await code();
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    const final = lower.snapshots.at(-1)!.graph;
    expect(r.layers.map((l) => l.node)).toEqual(final.nodes.map((n) => n.name));
    const net = r.files.find((f) => f.path === 'Network.c')!.content.split('\n');
    for (const l of r.layers) {
      expect(l.ranges.length).toBeGreaterThan(0);
      for (const g of l.ranges) expect(net.slice(g.from - 1, g.to).join('\n')).toContain(l.node);
    }
    const runs = net.filter((x) => x.includes('hal_fork(')).map((x) => /\/\* (\S+) \*\//.exec(x)?.[1]).filter(Boolean);
    expect(runs).toEqual(final.nodes.filter((n) => !lower.bindings[n.name].kernel.endsWith('_alias')).map((n) => n.name));
    expect(r.layers.find((l) => l.kernel.startsWith('RequantizedConv2d_HWC'))!.calls).toEqual(['dpg_rq_conv_hwc']);
    expect(r.totalOutputs).toBe(10);
  });

  it("Generic keeps uint8 camera data shifted to int8 and the first conv's kernel adds 128 back", async () => {
    const r = await compileFolder(join(shared, 'Kernels/Integer/Conv/PW_2D'), 'generic').code();
    const inputs = r.files.find((f) => f.path === 'testinputs.h')!.content;
    expect(inputs).toMatch(/static const int8_t testInput0\[/);
    expect(inputs).toContain('stored = real value - 128');
    expect(r.files.find((f) => f.path === 'Network.c')!.content).toMatch(/dpg_conv\(DPG_AT\(dpg_\w+, \d+\), DPG_S8, 128,/);
  });

  it('N-EUREKA layers are programmed from a 1-core fork: registers, weight bits, commit, wait', async () => {
    const { code, lower } = compileFolder(miniMobileNet, 'siracusa-neureka');
    const r = await code();
    const npu = r.layers.filter((l) => l.engine === 'neureka');
    expect(npu.length).toBe(Object.values(lower.bindings).filter((b) => b.engine === 'neureka').length);
    expect(npu.length).toBeGreaterThan(0);
    const net = r.files.find((f) => f.path === 'Network.c')!.content.split('\n');
    for (const l of npu) {
      const text = l.ranges.map((g) => net.slice(g.from - 1, g.to).join('\n')).join('\n');
      expect(text).toMatch(/hal_fork\(1, L\d+_0, NULL\);/);
      expect(text).toMatch(/hal_neureka_write\(NEUREKA_MODE, NEUREKA_MODE_(1X1|3X3|3X3_DW)\);[\s\S]*hal_neureka_write\(NEUREKA_WEIGHT_BITS, [1-8]\);[\s\S]*hal_neureka_commit\(\);\s*hal_neureka_wait\(\);/);
    }
  });

  it('golden outputs are stored in the narrowest type holding them', async () => {
    const r = await compileFolder(miniMobileNet, 'siracusa').code();
    expect(r.files.find((f) => f.path === 'testoutputs.h')!.content).toMatch(/static const int8_t testOutput0\[10\] = \{/);
  });

  it('golden outputs of the wrong size are a bad-inputs error naming outputs.npz', async () => {
    const graph = inferTypes(readOnnx(readFileSync(join(miniMobileNet, 'network.onnx')), 'network.onnx'));
    const { lower } = compileFolder(miniMobileNet, 'generic');
    const data = testDataFor(graph, lower);
    const golden = [{ ...data.golden[0], shape: [3], data: new Float64Array(3) }];
    await expect(generateWithPlan(lower, { ...data, golden }, { cores: 1 })).rejects.toThrow(/outputs\.npz.*3 elements/);
  });
});

describe('tile tables', () => {
  it('a layer cut into more tiles than L2 can list is refused, naming the tile count (found by the fuzzer)', async () => {
    // 128 -> 128 channels at L1 = 1 KiB: 51,200 tiles; their boxes alone would be 5 MB of L2 (and 150,000 lines of C).
    const b = new GraphBuilder();
    const x = b.input('x', [1, 128, 8, 100]);
    b.output(b.node('Conv', [x, b.init('w', [128, 128, 1, 1], [-100, 100])], { kernel_shape: at.ints([1, 1]) }));
    const graph = b.build();
    const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa' }, { check: 'none' });
    await expect(generateWithPlan(lower, testDataFor(graph, lower), { l1: 1024, doubleBuffer: true }))
      .rejects.toThrow(/^node "Conv_0" \(Conv\): its 51200 tiles need 5017600 B of DMA tables, more than the 2097152 B of L2/);
  });

  it('append takes more lines than a call takes arguments', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => `line ${i}`);
    const into = append(['first'], many, ['last']);
    expect(into.length).toBe(500_002);
    expect(into[1]).toBe('line 0');
    expect(into.at(-1)).toBe('last');
  });
});

describe('layer attributes', () => {
  it('N-EUREKA takes a 1x1 convolution whatever its dilations (found by the fuzzer)', async () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 8, 6, 6]);
    const c = b.node('Conv', [x, b.init('w', [8, 8, 1, 1], [-100, 100])], { kernel_shape: at.ints([1, 1]), dilations: at.ints([1, 31]) });
    b.output(b.requant(c, 12, { mulShape: [8, 1, 1] }));
    const graph = b.build();
    const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa-neureka' }, { check: 'none' });
    expect(Object.values(lower.bindings).map((x) => x.kernel)).toContain('NeurekaPwConv1x1_s8_s8');
    const code = await generateWithPlan(lower, testDataFor(graph, lower), {});
    expect(code.layers.some((l) => l.engine === 'neureka')).toBe(true);
  });

  it('an attribute beyond int32 is a limit error naming the node and the attribute (found by the fuzzer)', async () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 16]);
    const hs = b.node('iHardswish', [x], { one_over_six: at.int(2 ** 32), three: at.int(3), six: at.int(6) });
    b.output(b.requant(hs, 31, { mul: [1, 1], add: [0, 0] }));
    const graph = b.build();
    const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa' }, { check: 'none' });
    expect(lower.failures).toEqual([]);
    await expect(generateWithPlan(lower, testDataFor(graph, lower), { tiled: false }))
      .rejects.toThrow(/^node "\w+" \(RequantizediHardswish\): attribute one_over_six = 4294967296 does not fit the kernel's 32-bit parameter/);
  });
});
