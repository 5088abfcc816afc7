// Reading back what the tutorial stored, and what a share link gives it: exactly the expected
// shape or nothing (a fresh start). Typed answers compared with measurements within their
// tolerance.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { numberItem, parseAnswer, textItem, verdict, within } from './answers';
import { rec, layer } from './fixtures';
import { freshTutorial, isConfig, MAX_RUNS, parseProgress, parseRuns, parseStored, serialiseRuns, serialiseStored } from './progress';
import { STEP_IDS } from './steps';

describe('typed answers', () => {
  it('reads numbers as students type them', () => {
    expect(parseAnswer('5.2')).toBe(5.2);
    expect(parseAnswer(' 5.2x ')).toBe(5.2);
    expect(parseAnswer('5.2×')).toBe(5.2);
    expect(parseAnswer('5,2')).toBe(5.2);
    expect(parseAnswer('1,234,567')).toBe(1234567);
    expect(parseAnswer('1 234 567')).toBe(1234567);
    expect(parseAnswer('.5')).toBe(0.5);
    expect(parseAnswer('12%')).toBe(12);
    for (const bad of ['', 'five', '5.2.1', '1,23,4', '0x10', 'Infinity', '5 times', '<b>5</b>']) expect(parseAnswer(bad), bad).toBeUndefined();
  });

  it('compares within a relative or an absolute tolerance', () => {
    expect(within(5.09, 5, { rel: 0.02 })).toBe(true);
    expect(within(5.11, 5, { rel: 0.02 })).toBe(false);
    expect(within(12, 12, { abs: 0 })).toBe(true);
    expect(within(13, 12, { abs: 0 })).toBe(false);
    expect(within(13, 12, { rel: 0.01, abs: 1 })).toBe(true);
  });

  it('says missing until measured and answered, wrong without giving the value away', () => {
    expect(numberItem({}, 'q', 'Q', 5, { rel: 0.02 }, 'look').state).toBe('missing');
    expect(numberItem({ q: '5' }, 'q', 'Q', undefined, { rel: 0.02 }, 'look').state).toBe('missing');
    const wrong = numberItem({ q: '7' }, 'q', 'Q', 5.4321, { rel: 0.02 }, 'divide the Runtimes');
    expect(wrong).toMatchObject({ state: 'wrong', detail: 'divide the Runtimes' });
    expect(JSON.stringify(wrong)).not.toContain('5.4');
    expect(textItem({ q: ' Parallel ' }, 'q', 'Q', ['parallel'], 'compare').state).toBe('ok');
    expect(textItem({ q: 'dpg_conv()' }, 'q', 'Q', ['dpg_conv'], 'read').state).toBe('ok');
    expect(textItem({ q: 'decode' }, 'q', 'Q', ['parallel'], 'compare').state).toBe('wrong');
  });

  it('fails on a wrong answer, waits on anything missing, and gives the evidence only once passed', () => {
    const ok = { id: 'a', label: 'a', state: 'ok' as const };
    let asked = 0;
    const ev = () => { asked++; return ['because']; };
    expect(verdict([ok, { ...ok, state: 'missing' }], ev)).toEqual({ status: 'not-yet', items: expect.any(Array), evidence: [] });
    expect(verdict([{ ...ok, state: 'missing' }, { ...ok, state: 'wrong' }], ev).status).toBe('failed');
    expect(asked).toBe(0);
    expect(verdict([ok], ev)).toMatchObject({ status: 'passed', evidence: ['because'] });
  });
});

describe('progress', () => {
  it('accepts exactly {step, passed} with known, distinct steps, kept in tutorial order', () => {
    expect(parseProgress({ step: 'cores', passed: ['graph-cnn', 'graph-add'] })).toEqual({ step: 'cores', passed: ['graph-add', 'graph-cnn'] });
    expect(parseProgress({ step: STEP_IDS.at(-1), passed: [...STEP_IDS] })).toEqual({ step: STEP_IDS.at(-1), passed: [...STEP_IDS] });
  });

  it('refuses anything else', () => {
    const bad: unknown[] = [
      null, 'cores', 42, [], { step: 'nope', passed: [] }, { step: 'cores' }, { step: 'cores', passed: 'graph-add' },
      { step: 'cores', passed: ['graph-add', 'graph-add'] }, { step: 'cores', passed: ['<script>alert(1)</script>'] },
      { step: 'cores', passed: [], extra: 1 }, { step: 'cores', passed: [{ id: 'graph-add' }] },
      { step: 'cores', passed: Array(1000).fill('graph-add') }, JSON.parse('{"step":"cores","passed":[],"__proto__":{"x":1}}'),
      { step: ['cores'], passed: [] },
    ];
    for (const v of bad) expect(parseProgress(v), JSON.stringify(v)).toBeNull();
  });

  it('reads back what it stored, and anything malformed as a fresh start', () => {
    const t = { open: true, step: 'tiling', passed: ['graph-add'], answers: { cores: { speedup: '5.7' }, 'graph-add': { bits: '16' } } };
    expect(parseStored(serialiseStored(t))).toEqual(t);
    const fresh = freshTutorial();
    const broken = [
      null, '', '{', 'null', '[]', '{"v":2}', JSON.stringify({ ...JSON.parse(serialiseStored(t)), v: 2 }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), step: 'gone' }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), open: 'yes' }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), answers: { cores: { nope: '1' } } }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), answers: { cores: { speedup: 5.7 } } }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), answers: { cores: { speedup: 'x'.repeat(101) } } }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), answers: { nope: {} } }),
      JSON.stringify({ ...JSON.parse(serialiseStored(t)), more: 1 }),
    ];
    for (const text of broken) expect(parseStored(text), String(text)).toEqual(fresh);
  });
});

describe('stored runs', () => {
  it('reads back the runs, and none when any record is malformed', () => {
    const runs = [rec('adder', {}, 1000, { layers: [layer('add', 'cluster', 900)] }), rec('adder', { l2: 100_000 }, 0, { cycles: undefined, failed: { stage: 'tile', what: 'too small' } })];
    expect(parseRuns(serialiseRuns(runs))).toEqual(runs);
    const stored = JSON.parse(serialiseRuns(runs)) as { runs: Record<string, unknown>[] };
    const variants: unknown[] = [
      { ...stored.runs[0], cycles: 'many' },
      { ...stored.runs[0], model: '<img src=x onerror=alert(1)>' },
      { ...stored.runs[0], config: { ...DEFAULT_CONFIG, cores: 99 } },
      { ...stored.runs[0], config: { ...DEFAULT_CONFIG, evil: true } },
      { ...stored.runs[0], layers: [{ node: 'x' }] },
      { ...stored.runs[0], failed: { stage: 'tile', what: 'x'.repeat(3000) } },
      { ...stored.runs[0], edited: 'no' },
    ];
    for (const v of variants) expect(parseRuns(JSON.stringify({ v: 1, runs: [v] })), JSON.stringify(v).slice(0, 80)).toEqual([]);
    expect(parseRuns(JSON.stringify({ v: 1, runs: Array(MAX_RUNS + 1).fill(stored.runs[0]) }))).toEqual([]);
    expect(parseRuns('{"v":1}')).toEqual([]);
    expect(parseRuns('not json')).toEqual([]);
    // Only the newest are kept.
    const many = Array.from({ length: MAX_RUNS + 5 }, (_, i) => rec('adder', {}, 1000 + i));
    expect(parseRuns(serialiseRuns(many)).map((r) => r.cycles)).toEqual(many.slice(-MAX_RUNS).map((r) => r.cycles));
  });

  it('accepts a configuration only with Config\'s fields, types and ranges', () => {
    expect(isConfig(DEFAULT_CONFIG)).toBe(true);
    expect(isConfig({ ...DEFAULT_CONFIG, tiled: 1 })).toBe(false);
    expect(isConfig({ ...DEFAULT_CONFIG, l1: 250_000 })).toBe(false);
    expect(isConfig({ ...DEFAULT_CONFIG, platform: 'gpu' })).toBe(false);
    const { l2: _l2, ...missing } = DEFAULT_CONFIG;
    expect(isConfig(missing)).toBe(false);
  });
});
