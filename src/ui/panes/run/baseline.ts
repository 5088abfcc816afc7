// Comparing runs: a run pinned as the baseline keeps only what a comparison needs (its Runtime,
// each layer's cycles, the configuration and model it ran with), so later runs show their
// speedup against it. Plain data kept in the store; the rules here are pure.
import type { Config } from '../../../compiler/config';
import type { RunResult } from '../../../sim/run/types';

export interface RunBaseline {
  /** The pinned run's Runtime (the cycles the program printed; the profile's run when it printed none). */
  cycles: number;
  /** Final graph node -> controller cycles in the layer. */
  layers: Record<string, number>;
  /** The configuration it ran with (the store's compiledConfig), when known. */
  config: Config | null;
  /** The model it ran (built-in id or file name). */
  model: string;
}

/** What pinning `result` keeps; null when it measured no cycles to compare with. */
export function pinBaseline(result: RunResult, config: Config | null, model: string): RunBaseline | null {
  const p = result.profile;
  const cycles = result.cycles ?? (p ? p.end - p.start : undefined);
  if (cycles === undefined || !(cycles > 0)) return null;
  const layers: Record<string, number> = {};
  for (const l of p?.layers ?? []) layers[l.node] = l.cycles;
  return { cycles, layers, config: config ? { ...config } : null, model };
}

/** Baseline cycles over current cycles: above 1 the current run is faster. */
export function speedup(baseline: number, current: number): number | undefined {
  return baseline > 0 && current > 0 ? baseline / current : undefined;
}

const SHOWN: { key: keyof Config; name: string; show: (v: Config[keyof Config]) => string }[] = [
  { key: 'platform', name: 'platform', show: String },
  { key: 'cores', name: 'cores', show: String },
  { key: 'tiled', name: 'tiled', show: (v) => (v ? 'on' : 'off') },
  { key: 'l1', name: 'L1', show: (v) => `${v} B` },
  { key: 'l2', name: 'L2', show: (v) => `${v} B` },
  { key: 'defaultMemLevel', name: 'home level', show: String },
  { key: 'doubleBuffer', name: 'double buffering', show: (v) => (v ? 'on' : 'off') },
  { key: 'neurekaWmem', name: 'weight memory', show: (v) => (v ? 'on' : 'off') },
  { key: 'profileTiling', name: 'profileTiling', show: (v) => (v === null ? 'off' : String(v)) },
];

/** The settings that differ between the baseline's configuration and the current one, "cores 8 → 1". */
export function configChanges(base: Config | null, now: Config | null, baseModel?: string, model?: string): string[] {
  const out: string[] = [];
  if (baseModel !== undefined && model !== undefined && baseModel !== model) out.push(`model ${baseModel} → ${model}`);
  if (!base || !now) return out;
  for (const f of SHOWN) if (base[f.key] !== now[f.key]) out.push(`${f.name} ${f.show(base[f.key])} → ${f.show(now[f.key])}`);
  return out;
}

/** A configuration in a few words, for the baseline's label. */
export function configSummary(c: Config | null): string {
  if (!c) return 'configuration unknown';
  return `${c.platform}, ${c.cores} core${c.cores === 1 ? '' : 's'}, L1 ${c.l1} B${c.tiled ? '' : ', untiled'}${c.neurekaWmem ? ', weight memory' : ''}`;
}
