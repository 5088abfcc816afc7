import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { parseValues, pointConfig, pointError } from './plan';

describe('sweep plans', () => {
  it('reads lists, ranges and switches', () => {
    expect(parseValues('cores', '1..4')).toEqual({ values: [1, 2, 3, 4] });
    expect(parseValues('l1', '8000, 16000 16000,32000')).toEqual({ values: [8000, 16000, 32000] });
    expect(parseValues('npu', 'off, on')).toEqual({ values: [false, true] });
  });
  it('names the item that is not a value', () => {
    expect(parseValues('cores', '1, two')).toEqual({ error: "'two' is not a whole number" });
    expect(parseValues('cores', '8..1')).toEqual({ error: "the range '8..1' runs backwards" });
    expect(parseValues('npu', 'maybe')).toEqual({ error: "'maybe' is not on or off" });
    expect(parseValues('l1', ' ')).toMatchObject({ error: expect.stringContaining('no values') });
    expect(parseValues('cores', '1..100')).toMatchObject({ error: expect.stringContaining('more than 64') });
  });
  it('sets one parameter per point and checks the result like any configuration', () => {
    const base = { ...DEFAULT_CONFIG, platform: 'siracusa' as const };
    expect(pointConfig(base, 'cores', 2)).toEqual({ ...base, cores: 2 });
    expect(pointConfig(base, 'npu', true).platform).toBe('siracusa-neureka');
    expect(pointConfig({ ...base, platform: 'siracusa-neureka', neurekaWmem: true }, 'npu', false)).toMatchObject({ platform: 'siracusa', neurekaWmem: false });
    expect(pointConfig(base, 'neurekaWmem', true)).toMatchObject({ platform: 'siracusa-neureka', neurekaWmem: true });
    expect(pointError(pointConfig(base, 'cores', 2))).toBeNull();
    expect(pointError(pointConfig(base, 'cores', 9))).toMatch(/cores/);
    expect(pointError(pointConfig(base, 'l1', 10))).toMatch(/l1|L1/);
  });
});
