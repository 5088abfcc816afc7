import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDataFor } from '../../../compiler/codegen/test-data';
import { generateWithPlan } from '../../../testing/tiled-harness';
import type { CodegenResult, LayerCode } from '../../../compiler/codegen/types';
import { SHARED_TESTS } from '../../../testing/corpus';
import { bindNpzInputs } from '../../../compiler/interpret/npz-io';
import { lowerGraph } from '../../../compiler/lower/lower';
import { readNpz } from '../../../compiler/npz';
import { readOnnx } from '../../../compiler/onnx/read';
import { inferTypes } from '../../../compiler/shapes/infer';
import { DEFAULT_CONFIG } from '../../../compiler/config';
import { braceBlocks, defaultFolds } from './folds';
import { anyVisible, codeOf, finalNodes, nodeAtLine, rangesIn } from './layers';
import { SHARED_TESTS as SHARED_TESTS_NEED, missing } from '../../../testing/requires';

const layer = (node: string, ranges: [string, number, number][]): LayerCode =>
  ({ node, op: 'Op', kernel: 'k', engine: 'cluster', calls: [], ranges: ranges.map(([file, from, to]) => ({ file, from, to })) });

const LAYERS = [
  layer('conv', [['Network.c', 10, 20], ['Network.c', 50, 50]]),
  layer('relu', [['Network.c', 22, 26], ['Network.c', 51, 51]]),
  layer('inner', [['Network.c', 12, 13]]),
  layer('npu', [['Other.c', 3, 9]]),
];

describe('node <-> range lookup', () => {
  it('lists a file\'s ranges in file order', () => {
    expect(rangesIn(LAYERS, 'Network.c').map((r) => `${r.node}:${r.from}`)).toEqual(
      ['conv:10', 'inner:12', 'relu:22', 'conv:50', 'relu:51']);
    expect(rangesIn(LAYERS, 'main.c')).toEqual([]);
  });

  it('finds the node of a line: the narrowest range holding it, none between layers', () => {
    const r = rangesIn(LAYERS, 'Network.c');
    expect(nodeAtLine(r, 10)).toBe('conv');
    expect(nodeAtLine(r, 20)).toBe('conv');
    expect(nodeAtLine(r, 12)).toBe('inner');
    expect(nodeAtLine(r, 21)).toBeNull();
    expect(nodeAtLine(r, 51)).toBe('relu');
    expect(nodeAtLine(r, 1)).toBeNull();
  });

  it('shows a node in the file shown now when it has code there, else in its first range\'s file', () => {
    expect(codeOf(LAYERS, ['relu'], 'main.c')).toEqual({
      file: 'Network.c', ranges: [{ node: 'relu', from: 22, to: 26 }, { node: 'relu', from: 51, to: 51 }],
    });
    expect(codeOf(LAYERS, ['npu', 'conv'], 'Other.c')!.file).toBe('Other.c');
    expect(codeOf(LAYERS, ['npu', 'conv'], 'Network.c')!.ranges.map((r) => r.node)).toEqual(['conv', 'conv']);
    expect(codeOf(LAYERS, ['nothing'], 'Network.c')).toBeNull();
  });

  it('tells whether ranges are on screen', () => {
    expect(anyVisible([{ from: 10, to: 20 }], [{ from: 18, to: 40 }])).toBe(true);
    expect(anyVisible([{ from: 10, to: 20 }], [{ from: 21, to: 40 }])).toBe(false);
    expect(anyVisible([{ from: 10, to: 20 }, { from: 50, to: 50 }], [{ from: 1, to: 9 }, { from: 45, to: 60 }])).toBe(true);
  });
});

const mobilenet = join(fileURLToPath(SHARED_TESTS), 'Models/miniMobileNetv2');

describe.skipIf(missing(SHARED_TESTS_NEED))('on miniMobileNetv2 compiled for Siracusa', () => {
  const read = (f: string) => new Uint8Array(readFileSync(join(mobilenet, f)));
  const graph = inferTypes(readOnnx(read('network.onnx'), 'network.onnx'));
  const inputs = bindNpzInputs(graph, readNpz(read('inputs.npz'), 'inputs.npz'), 'inputs.npz').inputs;
  const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa' }, { inputs, check: 'none' });
  let code: CodegenResult;
  beforeAll(async () => {
    code = await generateWithPlan(lower, testDataFor(graph, lower, inputs, readNpz(read('outputs.npz'), 'outputs.npz')), { cores: 8 });
  });
  const snaps = lower.snapshots;
  const last = snaps.length - 1;

  it('every line of a layer\'s ranges leads back to that layer', () => {
    for (const f of code.files) {
      const ranges = rangesIn(code.layers, f.path);
      for (const r of ranges) for (let line = r.from; line <= r.to; line++) expect(nodeAtLine(ranges, line)).toBe(r.node);
    }
    expect(rangesIn(code.layers, 'Network.c').length).toBeGreaterThanOrEqual(code.layers.length);
  });

  it('a Conv of the parsed graph leads to the code of the RequantizedConv it became', () => {
    const conv = snaps[0]!.graph.nodes.find((n) => n.op === 'Conv')!;
    const nodes = finalNodes(snaps, { snapshot: 0, node: conv.name });
    const ops = nodes.map((n) => snaps[last]!.graph.nodes.find((x) => x.name === n)!.op);
    expect(ops).toContain('RequantizedConv');
    const where = codeOf(code.layers, nodes, null)!;
    expect(where.file).toBe('Network.c');
    const text = code.files.find((f) => f.path === 'Network.c')!.content.split('\n');
    // (with the Transpose the layout pass made from it)
    expect(where.ranges.map((r) => text.slice(r.from - 1, r.to).join('\n')).join('\n')).toMatch(/dpg_rq_conv/);
    // A final node stands for itself; no selection, or a stale one, for nothing.
    expect(finalNodes(snaps, { snapshot: last, node: nodes[0]! })).toEqual([nodes[0]]);
    expect(finalNodes(snaps, null)).toEqual([]);
    expect(finalNodes(snaps, { snapshot: last + 5, node: 'x' })).toEqual([]);
    expect(finalNodes(snaps, { snapshot: last, node: 'a node of another model' })).toEqual([]);
  });

  it('folds the weights file down to its declarations', () => {
    const w = code.files.find((f) => f.kind === 'weights' && f.path.endsWith('.c'))!;
    const text = w.content.split('\n');
    const folds = defaultFolds(braceBlocks(w.content));
    // The constants sit in the arena's initializer (their planned offsets), the parameters in arrays.
    expect(folds.some((f) => /^HAL_L2 struct dpg_l2_layout dpg_l2 = \{$/.test(text[f.start - 1]))).toBe(true);
    for (const f of folds) {
      expect(text[f.start - 1]).toMatch(/(\[\d+\]|dpg_\w+) = \{$/);
      expect(text[f.end]).toBe('};');
    }
    // Nothing in Network.c is folded at first: the layers' code stays in sight.
    expect(defaultFolds(braceBlocks(code.files.find((f) => f.path === 'Network.c')!.content))).toEqual([]);
  });
});
