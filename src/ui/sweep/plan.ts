// A sweep: one configuration parameter over a list of values, everything else as configured.
// What can be swept, how a list is written ("1..8", "8000, 16000, 32000", "on, off"), and the
// configuration of each point (checked like any configuration: a bad point is named, not run).
import type { Config } from '../../compiler/config';
import { configError } from '../config/drafts';

export type SweepParam = 'cores' | 'l1' | 'npu' | 'neurekaWmem' | 'doubleBuffer' | 'tiled';

export interface SweepParamInfo { id: SweepParam; label: string; kind: 'number' | 'switch'; example: string }

export const SWEEP_PARAMS: SweepParamInfo[] = [
  { id: 'cores', label: 'cores', kind: 'number', example: '1..8' },
  { id: 'l1', label: 'L1 bytes', kind: 'number', example: '8000, 16000, 32000, 64000' },
  { id: 'npu', label: 'N-EUREKA', kind: 'switch', example: 'off, on' },
  { id: 'neurekaWmem', label: 'weight memory', kind: 'switch', example: 'off, on' },
  { id: 'doubleBuffer', label: 'double buffering', kind: 'switch', example: 'off, on' },
  { id: 'tiled', label: 'tiling', kind: 'switch', example: 'off, on' },
];

export type SweepValue = number | boolean;

/** The values of a list as typed; an error names the item that is not one. */
export function parseValues(param: SweepParam, text: string): { values: SweepValue[] } | { error: string } {
  const info = SWEEP_PARAMS.find((p) => p.id === param)!;
  const items = text.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
  if (!items.length) return { error: `no values: write a list such as ${info.example}` };
  const values: SweepValue[] = [];
  for (const item of items) {
    if (info.kind === 'switch') {
      const v = /^(on|true|yes|1)$/i.test(item) ? true : /^(off|false|no|0)$/i.test(item) ? false : undefined;
      if (v === undefined) return { error: `'${item}' is not on or off` };
      values.push(v);
      continue;
    }
    const range = /^(\d+)\.\.(\d+)$/.exec(item);
    if (range) {
      const a = Number(range[1]), b = Number(range[2]);
      if (b < a) return { error: `the range '${item}' runs backwards` };
      if (b - a > 64) return { error: `the range '${item}' has more than 64 values` };
      for (let v = a; v <= b; v++) values.push(v);
      continue;
    }
    if (!/^\d+$/.test(item)) return { error: `'${item}' is not a whole number` };
    values.push(Number(item));
  }
  const unique = [...new Set(values)];
  if (unique.length > 64) return { error: `${unique.length} values: a sweep takes at most 64` };
  return { values: unique };
}

/** The configuration of one point: the parameter set to `value` on top of `base`. */
export function pointConfig(base: Config, param: SweepParam, value: SweepValue): Config {
  switch (param) {
    case 'cores': return { ...base, cores: value as number };
    case 'l1': return { ...base, l1: value as number };
    case 'npu': return { ...base, platform: value ? 'siracusa-neureka' : 'siracusa', neurekaWmem: value ? base.neurekaWmem : false };
    case 'neurekaWmem': return { ...base, ...(value ? { platform: 'siracusa-neureka' as const } : {}), neurekaWmem: value as boolean };
    case 'doubleBuffer': return { ...base, doubleBuffer: value as boolean };
    case 'tiled': return { ...base, tiled: value as boolean };
  }
}

/** Why a point's configuration cannot run, or null. */
export function pointError(config: Config): string | null {
  const e = configError(config);
  return e ? `${e.what}${e.hint ? ` (${e.hint})` : ''}` : null;
}

export const valueLabel = (v: SweepValue) => (typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v));
