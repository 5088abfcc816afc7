// The runs the tutorial has seen: each finished compile of the app summarised into a RunRecord
// (its configuration, Runtime, Errors, and per layer where the cycles went), and the queries the
// checks ask of them: the latest good run matching a condition, and pairs of runs whose
// configurations differ only in the fields a step varies. Pure.
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { LAYER_PHASES } from '../../sim/profile/types';
import type { RunResult } from '../../sim/run/types';
import { ignoredBecause } from '../config/applies';
import type { LayerFacts, RunRecord } from './types';

/** Summarises a finished run of `model` with `config`. */
export function summariseRun(seq: number, model: string, config: Config, result: RunResult, edited: boolean): RunRecord {
  const p = result.profile;
  const layers: LayerFacts[] = (p?.layers ?? []).map((l) => {
    let busy = 0, instructions = 0, l2 = 0, idle = 0;
    // A job's cycles include its waits at barriers inside it; busy is the rest.
    for (const c of l.cores) { busy += c.cycles - c.idle; instructions += c.instructions; l2 += c.stalls.l2; idle += c.idle; }
    return {
      node: l.node, op: l.op, engine: l.engine, cycles: l.cycles, phases: { ...l.phases }, tiles: l.tiles.length,
      npu: l.npuCycles, dmaBytes: l.dmaBytes, busy, instructions, l2, idle,
    };
  });
  return {
    seq, model, config: { ...config }, edited, layers,
    ...(result.cycles !== undefined ? { cycles: result.cycles } : {}),
    ...(result.errors !== undefined ? { errors: result.errors } : {}),
    ...(result.total !== undefined ? { total: result.total } : {}),
    ...(p ? { network: p.end - p.start } : {}),
  };
}

/** A run that counts: built from the generated code, it printed its Runtime and no output differed. */
export function isGood(r: RunRecord): boolean {
  return !r.failed && !r.edited && r.errors === 0 && r.cycles !== undefined && r.cycles > 0;
}

const CONFIG_KEYS: (keyof Config)[] = ['platform', 'cores', 'tiled', 'l1', 'l2', 'defaultMemLevel', 'doubleBuffer', 'neurekaWmem', 'profileTiling'];

/** The configuration as the compile used it: fields the platform or the mode ignores set to their defaults. */
export function effective(c: Config): Config {
  const out = { ...c };
  for (const k of ['cores', 'tiled', 'l1', 'l2', 'defaultMemLevel', 'doubleBuffer', 'profileTiling'] as const)
    if (ignoredBecause(c, k) !== null) (out as Record<string, unknown>)[k] = DEFAULT_CONFIG[k];
  return out;
}

/** The fields in which two configurations differ (fields neither compile used do not count). */
export function configDiff(a: Config, b: Config): (keyof Config)[] {
  const x = effective(a), y = effective(b);
  return CONFIG_KEYS.filter((k) => x[k] !== y[k]);
}

/** Equal but for (some of) `fields`. */
export function sameExcept(a: Config, b: Config, fields: readonly (keyof Config)[]): boolean {
  return configDiff(a, b).every((k) => fields.includes(k));
}

/** Good runs of `model` meeting `when`, newest first. */
export function goodRuns(runs: readonly RunRecord[], model: string, when: (c: Config) => boolean = () => true): RunRecord[] {
  return runs.filter((r) => r.model === model && isGood(r) && when(r.config)).reverse();
}

export interface Pair { a: RunRecord; b: RunRecord }

/**
 * The newest pair of good runs of `model`: `b` meeting `bWhen`, `a` meeting `aWhen` with a
 * configuration equal to b's but for `varied` (the newest such a).
 */
export function latestPair(runs: readonly RunRecord[], model: string, aWhen: (c: Config) => boolean, bWhen: (c: Config) => boolean,
  varied: readonly (keyof Config)[]): Pair | null {
  for (const b of goodRuns(runs, model, bWhen)) {
    const a = goodRuns(runs, model, aWhen).find((x) => x !== b && sameExcept(x.config, b.config, varied));
    if (a) return { a, b };
  }
  return null;
}

/** Cycles of `a` over cycles of `b`: how many times faster b ran. */
export const ratio = (p: Pair) => p.a.cycles! / p.b.cycles!;

/** Sums a layer field over the layers meeting `when`. */
export function sumLayers(r: RunRecord, f: (l: LayerFacts) => number, when: (l: LayerFacts) => boolean = () => true): number {
  let s = 0;
  for (const l of r.layers) if (when(l)) s += f(l);
  return s;
}

export const dmaPhases = (l: LayerFacts) => l.phases['dma-in'] + l.phases['dma-wait'] + l.phases['dma-out'];

/** Per node in both runs: cycles in a over cycles in b, for the layers of b meeting `when`. */
export function layerRatios(a: RunRecord, b: RunRecord, when: (l: LayerFacts) => boolean = () => true): { node: string; a: number; b: number }[] {
  const inA = new Map(a.layers.map((l) => [l.node, l.cycles]));
  return b.layers.filter((l) => when(l) && (inA.get(l.node) ?? 0) > 0 && l.cycles > 0).map((l) => ({ node: l.node, a: inA.get(l.node)!, b: l.cycles }));
}

// Reading records back from storage: anything that is not exactly this shape is refused.

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NAME = /^[\w./@+-]{1,200}$/;

function isLayer(v: unknown): v is LayerFacts {
  if (!isObj(v) || !isObj(v.phases)) return false;
  const ph = v.phases;
  return typeof v.node === 'string' && v.node.length <= 200 && typeof v.op === 'string' && v.op.length <= 100
    && typeof v.engine === 'string' && v.engine.length <= 40
    && LAYER_PHASES.every((k) => isNum(ph[k])) && Object.keys(ph).length === LAYER_PHASES.length
    && ['cycles', 'tiles', 'npu', 'dmaBytes', 'busy', 'instructions', 'l2', 'idle'].every((k) => isNum(v[k]));
}

/** A stored record, if it has exactly the expected shape; `validConfig` checks its configuration. */
export function isRunRecord(v: unknown, validConfig: (c: unknown) => c is Config): v is RunRecord {
  if (!isObj(v)) return false;
  const opt = (k: string) => v[k] === undefined || isNum(v[k]);
  const failed = v.failed;
  return isNum(v.seq) && typeof v.model === 'string' && NAME.test(v.model) && validConfig(v.config) && typeof v.edited === 'boolean'
    && opt('cycles') && opt('errors') && opt('total') && opt('network')
    && Array.isArray(v.layers) && v.layers.length <= 5000 && v.layers.every(isLayer)
    && (failed === undefined || (isObj(failed) && typeof failed.stage === 'string' && typeof failed.what === 'string' && failed.what.length <= 2000));
}
