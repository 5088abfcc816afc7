// Run records: a real profiled run of the Adder on the simulator summarised (its layers' cycles,
// phases and workers as the profile has them), and the queries the checks make of the records.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodegenResult } from '../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { nodeMilp } from '../../pipeline/node/milp';
import { runPipeline } from '../../pipeline/run';
import { nodeMachine } from '../../sim/node';
import { MemoryObjectCache, runBuiltin } from '../../sim/run/builtin';
import type { RunResult } from '../../sim/run/types';
import { rec } from './fixtures';
import { configDiff, effective, goodRuns, isGood, latestPair, ratio, sameExcept, summariseRun } from './runlog';

describe('summariseRun on a real run', () => {
  const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', cores: 8 };
  let run: RunResult;
  beforeAll(async () => {
    const dir = path.resolve(__dirname, '../../../public/models/adder');
    const f = (n: string) => new Uint8Array(readFileSync(path.join(dir, n)));
    let code!: CodegenResult;
    await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config,
      (e) => { if (e.type === 'stage' && e.stage === 'codegen') code = e.result; }, { milp: nodeMilp, until: 'codegen' });
    const machine = nodeMachine();
    run = await runBuiltin(code, config, { machine: () => machine, cache: new MemoryObjectCache(), profile: true });
  }, 180_000);

  it('keeps the Runtime, Errors and, per layer, the profile\'s cycles, phases, tiles and the workers\' time', () => {
    const r = summariseRun(7, 'adder', config, run, false);
    const p = run.profile!;
    expect(r).toMatchObject({ seq: 7, model: 'adder', config, edited: false, cycles: run.cycles, errors: 0, total: run.total, network: p.end - p.start });
    expect(isGood(r)).toBe(true);
    expect(r.layers.map((l) => l.node)).toEqual(p.layers.map((l) => l.node));
    const [l] = r.layers, [pl] = p.layers;
    expect(l!.cycles).toBe(pl!.cycles);
    expect(l!.phases).toEqual(pl!.phases);
    expect(l!.tiles).toBe(pl!.tiles.length);
    expect(l!.busy).toBe(pl!.cores.reduce((s, c) => s + c.cycles - c.idle, 0));
    expect(l!.idle).toBe(pl!.cores.reduce((s, c) => s + c.idle, 0));
    expect(l!.instructions).toBe(pl!.cores.reduce((s, c) => s + c.instructions, 0));
    expect(l!.busy).toBeGreaterThan(0);
    expect(l!.dmaBytes).toBeGreaterThan(0); // tiled: its tensors go through L1
    // Small: a record is stored in localStorage.
    expect(JSON.stringify(r).length).toBeLessThan(2000);
    expect(isGood(summariseRun(8, 'adder', config, run, true))).toBe(false);
  });
});

describe('queries', () => {
  it('compares configurations as the compile used them', () => {
    const untiled = { ...DEFAULT_CONFIG, tiled: false };
    expect(configDiff(untiled, { ...untiled, l1: 8000, doubleBuffer: true })).toEqual([]);
    expect(configDiff(DEFAULT_CONFIG, { ...DEFAULT_CONFIG, l1: 8000, doubleBuffer: true })).toEqual(['l1', 'doubleBuffer']);
    const generic = { ...DEFAULT_CONFIG, platform: 'generic' as const };
    expect(effective({ ...generic, cores: 3, l1: 9000 })).toEqual(generic);
    expect(sameExcept(DEFAULT_CONFIG, { ...DEFAULT_CONFIG, cores: 1 }, ['cores'])).toBe(true);
    expect(sameExcept(DEFAULT_CONFIG, { ...DEFAULT_CONFIG, cores: 1, l2: 500_000 }, ['cores'])).toBe(false);
  });

  it('finds the newest pair of good runs that differ only in the varied fields', () => {
    const a1 = rec('m', { cores: 1 }, 800), b1 = rec('m', { cores: 8 }, 200);
    const bad = rec('m', { cores: 8 }, 100, { errors: 1 });
    const other = rec('n', { cores: 8 }, 50);
    const a2 = rec('m', { cores: 1, l1: 8000 }, 1000), b2 = rec('m', { cores: 8, l1: 8000 }, 400);
    const one = (c: Config) => c.cores === 1, eight = (c: Config) => c.cores === 8;
    expect(goodRuns([a1, b1, bad, other], 'm')).toEqual([b1, a1]);
    expect(latestPair([a1, b1, bad, other], 'm', one, eight, ['cores'])).toEqual({ a: a1, b: b1 });
    const p = latestPair([a1, b1, a2, b2], 'm', one, eight, ['cores'])!;
    expect(p).toEqual({ a: a2, b: b2 });
    expect(ratio(p)).toBe(2.5);
    expect(latestPair([a1, b2], 'm', one, eight, ['cores'])).toBeNull();
    expect(latestPair([a1, b2], 'm', one, eight, ['cores', 'l1'])).toEqual({ a: a1, b: b2 });
  });
});
