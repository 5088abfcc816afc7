import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../compiler/config';
import type { RunResult } from '../../../sim/run/types';
import { configChanges, configSummary, pinBaseline, speedup } from './baseline';
import { makeProfile } from '../../../sim/profile/fixture';

const result = (over: Partial<RunResult>): RunResult => ({ target: 'simulator', compiler: 'builtin', stdout: '', exitCode: 0, ...over });

describe('pinBaseline', () => {
  it('keeps the Runtime, each layer\'s cycles and a copy of the configuration', () => {
    const profile = makeProfile({ layers: 3 });
    const config = { ...DEFAULT_CONFIG, cores: 4 };
    const b = pinBaseline(result({ cycles: 123_456, profile }), config, 'microllama')!;
    expect(b.cycles).toBe(123_456);
    expect(b.layers).toEqual(Object.fromEntries(profile.layers.map((l) => [l.node, l.cycles])));
    expect(b.config).toEqual(config);
    expect(b.config).not.toBe(config);
    expect(b.model).toBe('microllama');
  });

  it('falls back to the profile\'s run without a printed Runtime, and pins nothing without cycles', () => {
    const profile = makeProfile({ layers: 2 });
    expect(pinBaseline(result({ profile }), null, 'm')!.cycles).toBe(profile.end - profile.start);
    expect(pinBaseline(result({ cycles: 10 }), null, 'm')).toEqual({ cycles: 10, layers: {}, config: null, model: 'm' });
    expect(pinBaseline(result({}), null, 'm')).toBeNull();
    expect(pinBaseline(result({ cycles: 0 }), null, 'm')).toBeNull();
  });
});

describe('speedup and configuration changes', () => {
  it('is baseline over current', () => {
    expect(speedup(800, 100)).toBe(8);
    expect(speedup(100, 0)).toBeUndefined();
  });

  it('names what changed, model first', () => {
    const a = DEFAULT_CONFIG;
    const b = { ...DEFAULT_CONFIG, cores: 1, l1: 8000, doubleBuffer: true };
    expect(configChanges(a, b)).toEqual(['cores 8 → 1', 'L1 64000 B → 8000 B', 'double buffering off → on']);
    expect(configChanges(a, a, 'x', 'y')).toEqual(['model x → y']);
    expect(configChanges(null, b)).toEqual([]);
    expect(configSummary(b)).toBe(`${b.platform}, 1 core, L1 8000 B`);
    expect(configSummary(null)).toBe('configuration unknown');
  });
});
