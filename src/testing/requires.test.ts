import { afterEach, describe, expect, it, vi } from 'vitest';
import { missing, type Need } from './requires';

const absent: Need = { what: 'frobnicator-9', install: 'apt-get install frobnicator-9', present: () => false };
const here: Need = { what: 'sh', install: 'apt-get install dash', present: () => true };

describe('missing', () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI; else process.env.CI = ci;
    vi.restoreAllMocks();
  });

  it('is false when everything is present', () => {
    process.env.CI = 'true';
    expect(missing(here, [here])).toBe(false);
  });

  it('outside CI: true (skip), with a line naming the tool and its package', () => {
    delete process.env.CI;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(missing(here, absent)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('frobnicator-9 is missing (apt-get install frobnicator-9)'));
  });

  it('under CI=true: throws, naming the tool and its package', () => {
    process.env.CI = 'true';
    expect(() => missing([here, absent])).toThrow(/CI=true: frobnicator-9 is missing \(apt-get install frobnicator-9\)/);
  });
});
