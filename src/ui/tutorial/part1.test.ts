// Part I's checks on the app states a student reaches: the built-in models loaded and compiled by
// the real pipeline (with the element types the worker adds), the graph and code panes' state set
// as clicks would set it. Each check passes with the right answers, fails with wrong ones, and
// says "not yet" while the asked-for pane state is missing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { nodeMilp } from '../../pipeline/node/milp';
import type { StageName } from '../../pipeline/results';
import { runPipeline } from '../../pipeline/run';
import { elementTypes } from '../../worker/element-types';
import { INITIAL_CODE_STATE } from '../panes/code/state';
import { relate } from '../panes/graph/lineage';
import { INITIAL_GRAPH_STATE } from '../panes/graph/state';
import { applyStageEvent, freshStages } from '../stageViews';
import { world } from './fixtures';
import { FUSION } from './steps/part1';
import { stepById } from './steps';
import type { AppView, CheckResult, Step } from './types';

const MODELS = path.resolve(__dirname, '../../../public/models');

/** The app's state after loading `model` and compiling it with `config` up to stage `until` ('parse': loaded only). */
async function compiledView(model: string, config: Partial<Config>, until: StageName): Promise<AppView> {
  const f = (n: string) => new Uint8Array(readFileSync(path.join(MODELS, model, n)));
  const full = { ...DEFAULT_CONFIG, ...config };
  let stages = freshStages();
  await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, full, (e) => {
    // As the worker does: the lowering's result carries each tensor's real element type.
    stages = applyStageEvent(stages, e.type === 'stage' && e.stage === 'lower' ? { ...e, result: { ...e.result, elementTypes: elementTypes(e.result) } } : e);
  }, { milp: nodeMilp, until });
  return {
    model: { name: 'network.onnx', bytes: new Uint8Array(), builtinId: model }, config: full, compiledConfig: until === 'parse' ? null : full,
    stages, graph: INITIAL_GRAPH_STATE, code: INITIAL_CODE_STATE, runBaseline: null, runEdits: null,
  };
}

const step = (id: string): Step => stepById(id)!;
const states = (r: CheckResult) => Object.fromEntries(r.items.map((i) => [i.id, i.state]));
const select = (app: AppView, snapshot: number, node: string): AppView => ({ ...app, graph: { ...app.graph, selection: { snapshot, node } } });

describe('graph-add', () => {
  let loaded: AppView, compiled: AppView;
  beforeAll(async () => {
    loaded = await compiledView('adder', { platform: 'generic' }, 'parse');
    compiled = await compiledView('adder', { platform: 'generic' }, 'lower');
  }, 60_000);
  const s = step('graph-add');

  it('waits for the compile and the selection of the Add', () => {
    const before = s.check(world(select(loaded, 0, 'add')), { elements: '2048', bits: '16' });
    expect(before.status).toBe('not-yet');
    expect(states(before)).toMatchObject({ model: 'ok', compiled: 'missing', selected: 'ok', elements: 'missing' });
    expect(states(s.check(world(compiled), {}))).toMatchObject({ compiled: 'ok', selected: 'missing' });
    // Another model loaded.
    expect(states(s.check(world({ ...compiled, model: { ...compiled.model!, builtinId: 'mini-resnet' } }), {})).model).toBe('missing');
  });

  it('passes with the output\'s size and its real element type: int8 + int8 needs 16 bits, not the declared float32', () => {
    const app = select(compiled, 0, 'add');
    const r = s.check(world(app), { elements: '2048', bits: '16' });
    expect(r.status).toBe('passed');
    expect(r.evidence.join(' ')).toMatch(/int16 \[1, 8, 16, 16\], 2,048 values/);
    expect(s.check(world(app), { elements: '2048', bits: '32' }).status).toBe('failed');
    expect(s.check(world(app), { elements: '2,048', bits: '16 ' }).status).toBe('passed');
    expect(s.check(world(app), { elements: '1024', bits: '16' }).status).toBe('failed');
    // The graph pane behind another tab.
    expect(s.check(world(app, { visible: { graph: false } }), { elements: '2048', bits: '16' }).status).toBe('not-yet');
  });
});

describe('graph-cnn and graph-transformer', () => {
  let cnn: AppView, transformer: AppView;
  beforeAll(async () => {
    cnn = await compiledView('mini-mobilenetv2', { platform: 'generic' }, 'parse');
    transformer = await compiledView('transformer-block', { platform: 'generic' }, 'parse');
  }, 60_000);

  it('counts Conv and RequantShift nodes of the CNN, with a Conv selected', () => {
    const s = step('graph-cnn');
    const conv = cnn.stages.parse.result!.graph.nodes.find((n) => n.op === 'Conv')!;
    const requant = cnn.stages.parse.result!.graph.nodes.find((n) => n.op === 'RequantShift')!;
    expect(s.check(world(select(cnn, 0, requant.name)), { convs: '10', requants: '17' }).status).toBe('not-yet');
    const r = s.check(world(select(cnn, 0, conv.name)), { convs: '10', requants: '17' });
    expect(r.status).toBe('passed');
    expect(r.evidence[0]).toMatch(/Conv ×10/);
    expect(s.check(world(select(cnn, 0, conv.name)), { convs: '10', requants: '10' }).status).toBe('failed');
  });

  it('counts the transformer\'s MatMuls and its attention scores (4 heads x 16 x 16)', () => {
    const s = step('graph-transformer');
    const softmax = transformer.stages.parse.result!.graph.nodes.find((n) => /softmax/i.test(n.op))!;
    const r = s.check(world(select(transformer, 0, softmax.name)), { matmuls: '8', scores: '1024' });
    expect(r.status).toBe('passed');
    expect(r.evidence[0]).toMatch(/4 heads × 16 queries × 16 keys/);
    expect(s.check(world(select(transformer, 0, softmax.name)), { matmuls: '8', scores: '256' }).status).toBe('failed');
    expect(s.check(world(transformer), { matmuls: '8', scores: '1024' }).status).toBe('not-yet');
  });
});

describe('generic-code', () => {
  let app: AppView;
  beforeAll(async () => { app = await compiledView('mini-mobilenetv2', { platform: 'generic' }, 'codegen'); }, 60_000);
  const s = step('generic-code');

  it('matches a selected node to its lines in Network.c and the kernel function it calls', () => {
    const code = app.stages.codegen.result!;
    const conv = code.layers.find((l) => l.op === 'Conv')!;
    const [def, call] = conv.ranges.filter((r) => r.file === 'Network.c');
    const last = app.stages.lower.result!.snapshots.length - 1;
    const selected = select(app, last, conv.node);
    for (const line of [def!.from, def!.to, call!.from])
      expect(s.check(world(selected), { line: String(line), call: conv.calls[0]! }).status, `line ${line}`).toBe('passed');
    expect(s.check(world(selected), { line: String(def!.from - 1), call: conv.calls[0]! }).status).toBe('failed');
    expect(s.check(world(selected), { line: String(def!.from), call: 'dpg_gemm' }).status).toBe('failed');
    // A node selected in the input graph (named as the file names it) stands for what it became.
    const [original] = relate(app.stages.lower.result!.snapshots, last, [conv.node], 0);
    expect(original).toBeDefined();
    expect(s.check(world(select(app, 0, original!)), { line: String(call!.from), call: conv.calls[0]! }).status).toBe('passed');
  });

  it('needs Network.c shown, a Generic compile and a selected node', () => {
    const conv = app.stages.codegen.result!.layers.find((l) => l.op === 'Conv')!;
    const selected = select(app, 0, conv.node);
    expect(states(s.check(world({ ...selected, code: { ...selected.code, file: 'Network_weights.c' } }), {})).file).toBe('missing');
    expect(states(s.check(world(selected, { visible: { code: false } }), {})).file).toBe('missing');
    expect(states(s.check(world(app), {})).selected).toBe('missing');
    // The configuration changed since the compile: the code shown is stale.
    expect(states(s.check(world({ ...selected, config: { ...selected.config, platform: 'siracusa' } }), {})).compiled).toBe('missing');
  });
});

describe('siracusa-passes', () => {
  let app: AppView;
  beforeAll(async () => { app = await compiledView('mini-mobilenetv2', { platform: 'siracusa' }, 'lower'); }, 60_000);
  const s = step('siracusa-passes');

  it(`passes with ${FUSION} on the right, its fused convs counted and the Transposes left`, () => {
    const snaps = app.stages.lower.result!.snapshots;
    const at = snaps.findIndex((x) => x.pass === FUSION);
    const shown = { ...app, graph: { ...app.graph, right: at, overview: false } };
    const r = s.check(world(shown), { fused: '10', transposes: '2' });
    expect(r.status).toBe('passed');
    expect(r.evidence[0]).toMatch(new RegExp(`${FUSION}: -10 Conv, -10 RequantShift, \\+10 RequantizedConv`));
    expect(r.evidence[0]).toMatch(/nchw-to-nhwc: \+20 Transpose/);
    expect(s.check(world(shown), { fused: '10', transposes: '20' }).status).toBe('failed');
    // Right after a compile the pane shows the input against the final graph.
    expect(states(s.check(world({ ...app, graph: { ...app.graph, overview: true } }), { fused: '10', transposes: '2' })).pass).toBe('missing');
    expect(states(s.check(world({ ...app, graph: { ...app.graph, right: at + 1, overview: false } }), {})).pass).toBe('missing');
  });
});
