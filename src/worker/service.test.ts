// The worker's load check: npz files that do not fit the graph fail the parse stage; the run stage.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import { readNpz, writeNpz } from '../compiler/npz';
import { nodeMilp } from '../pipeline/node/milp';
import type { PipelineEvent } from '../pipeline/events';
import { record, type Results } from '../pipeline/results';
import { nodeMachine } from '../sim/node';
import { MemoryObjectCache } from '../sim/run/builtin';
import { pipelineService } from './service';

const dir = new URL('../../public/models/adder/', import.meta.url);
const file = (f: string) => new Uint8Array(readFileSync(new URL(f, dir)));

async function load(outputs: Uint8Array) {
  const events: PipelineEvent[] = [];
  const ok = await pipelineService(nodeMilp).compile({ model: file('network.onnx'), modelName: 'network.onnx', inputs: file('inputs.npz'), outputs },
    DEFAULT_CONFIG, (e) => { events.push(e); }, { until: 'parse', checkNpz: true });
  return { ok, error: events.find((e) => e.type === 'error') };
}

describe('pipeline service load check', () => {
  it('passes files that fit, and fails the parse stage naming the file when they do not', async () => {
    expect(await load(file('outputs.npz'))).toEqual({ ok: true, error: undefined });
    const arrays = readNpz(file('outputs.npz'), 'outputs.npz');
    // Golden outputs may be flattened (compare.ts counts elements), but not shorter.
    const half = arrays[0]!.data.length / 2;
    const { ok, error } = await load(writeNpz([{ ...arrays[0]!, shape: [half], data: arrays[0]!.data.slice(0, half) }]));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ stage: 'parse', error: { code: 'bad-inputs', where: 'outputs.npz' } });
  });
});

describe('pipeline service lower results', () => {
  it('carry the element type each tensor really has (the ONNX file declares float32)', async () => {
    let types: Record<string, string>[] | undefined;
    await pipelineService(nodeMilp).compile({ model: file('network.onnx'), modelName: 'network.onnx', inputs: file('inputs.npz') },
      DEFAULT_CONFIG, (e) => { if (e.type === 'stage' && e.stage === 'lower') types = e.result.elementTypes; }, { until: 'lower' });
    expect(types?.[0]).toMatchObject({ a: 'int8', b: 'int8', sum: 'int16' });
    expect(Object.values(types!.at(-1)!)).not.toContain('float32');
  });
});

// The run stage in the worker: the builtin toolchain on the simulator, edits, compile errors
// that leave the worker working, cancel that keeps it, and Generic skipped with its reason.
describe('pipeline service run stage', () => {
  const machine = nodeMachine();
  const service = pipelineService(nodeMilp, () => machine);
  const input = () => ({ model: file('network.onnx'), modelName: 'network.onnx', inputs: file('inputs.npz'), outputs: file('outputs.npz') });
  const siracusa = { ...DEFAULT_CONFIG, platform: 'siracusa' as const };

  async function compile(config: Config = siracusa, opts = {}) {
    const events: PipelineEvent[] = [];
    const ok = await service.compile(input(), config, (e) => { events.push(e); }, opts);
    return { ok, events, results: results(events) };
  }
  function results(events: PipelineEvent[]): Results {
    const r: Results = {};
    for (const e of events) if (e.type === 'stage') record(r, e);
    return r;
  }
  const errorOf = (events: PipelineEvent[]) => events.find((e) => e.type === 'error');

  it('skips the run of Generic code, saying why', async () => {
    const { ok, events } = await compile({ ...DEFAULT_CONFIG, platform: 'generic' });
    expect(ok).toBe(true);
    expect(events.find((e) => e.type === 'skipped')).toMatchObject({ stage: 'run', reason: expect.stringMatching(/no Siracusa runtime.*--cc host/) });
  });

  it('builds and runs the program: progress while compiling, linking and simulating, then Errors: 0', async () => {
    const { ok, events, results: r } = await compile();
    expect(errorOf(events)).toBeUndefined();
    expect(ok).toBe(true);
    expect(r.run).toMatchObject({ compiler: 'builtin', errors: 0, total: 2048 });
    const messages = events.filter((e) => e.type === 'progress' && e.stage === 'run').map((e) => e.type === 'progress' ? e.message : '');
    expect(messages.some((m) => /^compiling \S+ \(\d+\/\d+\)$/.test(m) || m.startsWith('linking'))).toBe(true);
    expect(messages).toContain('simulating');
  }, 120_000);

  it('a compile error fails the run stage at its line, and the worker runs the next edit', async () => {
    const { results: first } = await compile();
    const code = first.codegen!;
    const net = code.files.find((f) => f.path === 'Network.c')!.content;
    const broken = net.replace('void RunNetwork(void) {', 'void RunNetwork(void) {\n  int x = ;');
    const line = broken.split('\n').findIndex((l) => l.includes('int x = ;')) + 1;
    const bad: PipelineEvent[] = [];
    expect(await service.run(code, siracusa, (e) => { bad.push(e); }, { edits: { 'Network.c': broken } })).toBe(false);
    expect(errorOf(bad)).toMatchObject({ stage: 'run', error: { code: 'bad-file', where: `Network.c:${line}:11` } });
    const good: PipelineEvent[] = [];
    expect(await service.run(code, siracusa, (e) => { good.push(e); })).toBe(true);
    expect(results(good).run).toMatchObject({ errors: 0 });
    // Everything came from the worker's cache.
    expect(results(good).run!.sim!.build!.compiled).toBe(0);
  }, 120_000);

  it('prebuilds the shared units while idle: the first run then compiles only the generated files', async () => {
    const idle = pipelineService(nodeMilp, () => machine, { prebuildWhenIdle: true, idleMs: 10, cache: new MemoryObjectCache() });
    // The service starts prebuilding by itself once idle: asking again joins that work.
    await new Promise((r) => setTimeout(r, 50));
    const compiled = await idle.prebuild();
    expect(compiled).toBeGreaterThan(5);
    expect(await idle.prebuild()).toBe(0);
    const events: PipelineEvent[] = [];
    expect(await idle.compile(input(), siracusa, (e) => { events.push(e); })).toBe(true);
    const r = results(events);
    const generated = r.codegen!.files.filter((f) => f.path.endsWith('.c')).length;
    expect(r.run!.sim!.build).toMatchObject({ compiled: generated, cached: compiled });
    expect(r.run).toMatchObject({ errors: 0 });
  }, 240_000);

  it('a call stops the idle prebuild between units', async () => {
    const idle = pipelineService(nodeMilp, () => machine, { prebuildWhenIdle: true, idleMs: 0, cache: new MemoryObjectCache() });
    await new Promise((r) => setTimeout(r, 20));
    const events: PipelineEvent[] = [];
    expect(await idle.compile(input(), siracusa, (e) => { events.push(e); })).toBe(true);
    // The compile did not wait for a whole prebuild: it compiled most shared units itself.
    expect(results(events).run!.sim!.build!.compiled).toBeGreaterThan(5);
  }, 240_000);

  it('cancel stops an endless loop; the worker then runs again', async () => {
    const { results: first } = await compile();
    const code = first.codegen!;
    const net = code.files.find((f) => f.path === 'Network.c')!.content;
    const endless = net.replace('void RunNetwork(void) {', 'void RunNetwork(void) {\n  for (volatile int i = 0; ; i++) {}');
    const events: PipelineEvent[] = [];
    const t0 = performance.now();
    const ok = await service.run(code, siracusa, (e) => {
      events.push(e);
      if (e.type === 'progress' && e.message.startsWith('simulating: ')) service.cancel();
    }, { edits: { 'Network.c': endless } });
    expect(ok).toBe(false);
    expect(errorOf(events)).toMatchObject({ stage: 'run', error: { code: 'cancelled' } });
    expect(performance.now() - t0).toBeLessThan(60_000);
    const limit: PipelineEvent[] = [];
    expect(await service.run(code, siracusa, (e) => { limit.push(e); }, { edits: { 'Network.c': endless }, maxCycles: 2e6 })).toBe(false);
    expect(errorOf(limit)).toMatchObject({ stage: 'run', error: { code: 'limit' } });
  }, 120_000);
});
