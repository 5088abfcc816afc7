// The run profile (issue #14): recording it costs the simulated program nothing (the same cycles,
// instructions, stalls and output with and without), and what it records holds together: the
// layers' phases add up to the layers' cycles and to Runtime within 1 %, a tiled layer has the
// plan's tiles, every worker that ran has spans, the spans of a lane never overlap, the heat
// covers every retired instruction.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CodegenResult } from '../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import type { TilePlan } from '../../compiler/tiling/types';
import { nodeMilp } from '../../pipeline/node/milp';
import { runPipeline } from '../../pipeline/run';
import { nodeMachine } from '../node';
import { MemoryObjectCache, runBuiltin } from '../run/builtin';
import type { RunResult } from '../run/types';
import { LAYER_PHASES, PHASES } from './types';

const MODELS = new URL('../../../public/models/', import.meta.url);

async function compiled(model: string, config: Config): Promise<{ code: CodegenResult; plan: TilePlan }> {
  const f = (n: string) => new Uint8Array(readFileSync(new URL(`${model}/${n}`, MODELS)));
  let code: CodegenResult | undefined, plan: TilePlan | undefined;
  await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config, (e) => {
    if (e.type === 'stage' && e.stage === 'codegen') code = e.result;
    if (e.type === 'stage' && e.stage === 'tile') plan = e.result;
  }, { milp: nodeMilp, until: 'codegen' });
  return { code: code!, plan: plan! };
}

const machine = nodeMachine();
const cache = new MemoryObjectCache();
const run = (code: CodegenResult, config: Config, profile: boolean) => runBuiltin(code, config, { machine: () => machine, cache, profile });

const CASES: { model: string; label: string; config: Partial<Config> }[] = [
  { model: 'mini-mobilenetv2', label: 'tiled, L1 8000, double-buffered', config: { tiled: true, l1: 8000, doubleBuffer: true } },
  { model: 'mini-mobilenetv2', label: 'untiled, 1 core', config: { tiled: false, cores: 1 } },
  { model: 'mini-resnet', label: 'N-EUREKA, tiled, weight memory', config: { platform: 'siracusa-neureka', tiled: true, neurekaWmem: true } },
  { model: 'adder', label: 'home level L3, tiled', config: { tiled: true, defaultMemLevel: 'L3' } },
];

function checkProfile(r: RunResult, plan: TilePlan) {
  const p = r.profile!;
  expect(p.dropped).toBe(0);
  // Phases add up: per layer exactly, over the network to Runtime within 1 %.
  for (const l of p.layers) expect(LAYER_PHASES.reduce((s, k) => s + l.phases[k], 0), l.node).toBe(l.cycles);
  const net = p.runNetwork + p.layers.reduce((s, l) => s + l.cycles, 0);
  expect(Math.abs(net - r.cycles!) / r.cycles!).toBeLessThan(0.01);
  // A tiled layer that ran has the plan's tiles.
  if (plan.tiled) {
    for (const t of plan.tilings) {
      const l = p.layers.find((x) => x.node === t.node)!;
      if (l.cycles > 0) expect(l.tiles.length, t.node).toBe(t.tiles);
    }
  }
  // Lanes: the controller, every worker that ran, the engines; spans sorted per lane without overlap.
  const ran = r.sim!.cores.slice(0, 8).filter((c) => c.instructions > 200).map((c) => `core ${c.core}`);
  for (const name of ran) expect(p.lanes.map((l) => l.name), name).toContain(name);
  const s = p.spans;
  for (let i = 1; i < s.count; i++) {
    if (s.lane[i] !== s.lane[i - 1]) continue;
    expect(s.start[i]).toBeGreaterThanOrEqual(s.end[i - 1]);
  }
  for (let i = 0; i < s.count; i++) expect(s.end[i]).toBeGreaterThan(s.start[i]);
  const lanesWithSpans = new Set(s.lane);
  for (const l of p.lanes) expect(lanesWithSpans.has(l.id), l.name).toBe(true);
  expect(new Set(Array.from(s.phase, (k) => PHASES[k]))).toContain('kernel');
  // The heat: every retired instruction took at least its one cycle somewhere in it.
  const heat = p.heat.cycles.reduce((a, b) => a + b, 0);
  const retired = r.sim!.instructions;
  expect(heat).toBeGreaterThanOrEqual(retired);
  expect(p.lines[0].cycles).toBeGreaterThan(0);
}

describe('the run profile', () => {
  for (const c of CASES) {
    it(`${c.model}, ${c.label}: the same cycles with and without, and the breakdown adds up`, async () => {
      const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', ...c.config };
      const { code, plan } = await compiled(c.model, config);
      const plain = await run(code, config, false);
      const profiled = await run(code, config, true);
      expect(plain.errors).toBe(0);
      expect(plain.profile).toBeUndefined();
      // Profiling costs the program nothing: cycles, instructions, stalls, DMA and output identical.
      expect(profiled.stdout).toBe(plain.stdout);
      expect(profiled.cycles).toBe(plain.cycles);
      const strip = (x: RunResult) => x.sim!.cores.map(({ stalls: { pipeline, bank, l2, periph }, ...rest }) => ({ ...rest, pipeline, bank, l2, periph }));
      expect(strip(profiled)).toEqual(strip(plain));
      expect(profiled.sim!.dma).toEqual(plain.sim!.dma);
      expect(profiled.sim!.neureka).toEqual(plain.sim!.neureka);
      checkProfile(profiled, plan);
    }, 240_000);
  }
});
