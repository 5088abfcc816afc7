import { describe, expect, it } from 'vitest';
import { PlaygroundError } from '../common/errors';
import { DEFAULT_CONFIG, limitsFor, validateConfig, type Config } from './config';

function refusal(c: Partial<Config>) {
  try {
    validateConfig({ ...DEFAULT_CONFIG, ...c });
  } catch (e) {
    if (e instanceof PlaygroundError) return e.data;
    throw e;
  }
  return undefined;
}

describe('validateConfig', () => {
  it("refuses an L1 Siracusa cannot hold: its L1 less the core stacks, in words for the CLI and the app", () => {
    for (const platform of ['siracusa', 'siracusa-neureka'] as const) {
      expect(refusal({ platform, l1: 250_000 })).toEqual({
        code: 'bad-config', where: 'l1',
        what: "L1 = 250000 B does not fit Siracusa's L1: 262144 B less 20480 B of core stacks leaves 241664 B",
        hint: 'use at most 241664 B',
      });
      expect(refusal({ platform, l1: 241_664 })).toBeUndefined();
      expect(refusal({ platform, l1: 241_665 })?.hint).toBe('use at most 241664 B');
    }
  });

  it('refuses an L2 larger than the SoC has', () => {
    expect(refusal({ l2: 3 * 1024 * 1024 })).toMatchObject({ where: 'l2', what: "L2 = 3145728 B does not fit Siracusa's L2 of 2097152 B", hint: 'use at most 2097152 B' });
  });

  it('keeps the range wording for values below the minimum or not whole', () => {
    expect(refusal({ l1: 100 })).toMatchObject({ where: 'l1', what: 'l1 = 100 is out of range', hint: 'use an integer from 1024 to 241664' });
    expect(refusal({ l1: 1.5e3 + 0.5 })).toMatchObject({ where: 'l1', hint: 'use an integer from 1024 to 241664' });
    expect(refusal({ cores: 9 })).toMatchObject({ where: 'cores', what: 'cores = 9 is out of range' });
  });

  it('Generic keeps its own limits', () => {
    expect(limitsFor('generic').l1).toEqual({ min: 1024, max: 262144 });
    expect(refusal({ platform: 'generic', l1: 250_000 })).toBeUndefined();
    expect(refusal({ platform: 'generic', l1: 300_000 })).toMatchObject({ where: 'l1', what: 'l1 = 300000 is out of range' });
  });

  it('names the platform with a weight memory', () => {
    expect(refusal({ neurekaWmem: true })).toMatchObject({ where: 'neurekaWmem', hint: "select platform 'siracusa-neureka' or turn the weight memory off" });
  });
});
