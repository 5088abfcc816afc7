import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { ignoredBecause, summarizeConfig } from './applies';
import { draftProblem, draftsBlocker, settle } from './drafts';

const siracusa = DEFAULT_CONFIG;
const generic = { ...DEFAULT_CONFIG, platform: 'generic' as const };

describe('config drafts', () => {
  it('apply a valid value and keep an invalid one as a draft with validateConfig\'s reason', () => {
    expect(settle(siracusa, { l1: '32000' })).toEqual({ config: { ...siracusa, l1: 32000 }, drafts: {} });
    const s = settle(siracusa, { l1: '250000' });
    expect(s.config).toBe(siracusa);
    expect(draftProblem(s.config, s.drafts, 'l1')).toContain('at most 241664');
    expect(draftsBlocker(s.config, s.drafts)).toContain('L1 size: L1 = 250000 B does not fit');
    expect(draftProblem(siracusa, { l1: 'abc' }, 'l1')).toBe('L1 size must be a whole number');
    expect(draftProblem(siracusa, { l1: '-5' }, 'l1')).toContain('use an integer from 1024');
    expect(draftsBlocker(siracusa, {})).toBeNull();
  });
  it('drop drafts of fields the platform ignores', () => {
    expect(settle(generic, { l1: 'abc', cores: '9' })).toEqual({ config: generic, drafts: {} });
  });
});

describe('ignored controls', () => {
  it('are named with the reason, and the summary says what really happens', () => {
    for (const c of ['cores', 'tiled', 'l1', 'l2', 'doubleBuffer', 'defaultMemLevel', 'profileTiling'] as const)
      expect(ignoredBecause(generic, c)).toBe('not used by Generic');
    expect(ignoredBecause(siracusa, 'cores')).toBeNull();
    expect(ignoredBecause({ ...siracusa, tiled: false }, 'l1')).toBe('only used when tiled');
    expect(summarizeConfig(generic)).toBe('generic · 1 core · untiled · one flat memory');
    expect(summarizeConfig(siracusa)).toContain('8 cores · tiled · L1 64000 B');
  });
});
