import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../pipeline/results';
import { checkFailure } from './stageChecks';
import { anyMismatch, applyStageEvent, cancelStages, freshStages } from './stageViews';

describe('stage views', () => {
  it('follow the events of a run', () => {
    let v = freshStages();
    expect(Object.values(v).every((s) => s.status === 'pending')).toBe(true);
    v = applyStageEvent(v, { type: 'progress', stage: 'parse', fraction: 0, message: 'parse…' });
    expect(v.parse.status).toBe('running');
    const parsed = { graph: { name: 'g', nodes: [], inputs: [], outputs: [], initializers: {} }, stats: { nodes: 0, ops: {}, inputs: 0, outputs: 0, constantBytes: 0 } } as unknown as ParseResult;
    v = applyStageEvent(v, { type: 'stage', stage: 'parse', result: parsed });
    v = applyStageEvent(v, { type: 'progress', stage: 'parse', fraction: 1, message: 'parse done' });
    expect(v.parse).toMatchObject({ status: 'done', result: parsed });
    v = applyStageEvent(v, { type: 'skipped', stage: 'reference', reason: 'not yet' });
    expect(v.reference).toEqual({ status: 'skipped', reason: 'not yet' });
    v = applyStageEvent(v, { type: 'error', stage: 'lower', error: { code: 'unsupported-op', what: 'no Foo' } });
    expect(v.lower.status).toBe('error');
    expect(v.lower.error?.what).toBe('no Foo');
    expect(applyStageEvent(v, { type: 'done', ok: false, ms: 1 })).toBe(v);
  });
  it('mark a stage whose check failed as a mismatch, not done', () => {
    const comparison = { errors: 2, total: 10, perOutput: [], firstMismatches: [{ output: 0, name: 'y', index: 3, coords: [3], got: 1, expected: 2 }] };
    let v = applyStageEvent(freshStages(), { type: 'stage', stage: 'reference', result: { outputs: [], comparison, unusedInputs: [], ms: 1 } });
    v = applyStageEvent(v, { type: 'progress', stage: 'reference', fraction: 1, message: 'reference done' });
    expect(v.reference.status).toBe('mismatch');
    expect(anyMismatch(v)).toBe(true);
    expect(checkFailure('reference', v.reference.result)).toMatchObject({ summary: '2 of 10 outputs differ', first: [{ tensor: 'y', index: 3, expected: 2, got: 1 }] });
    const run = { target: 'host' as const, compiler: 'cc', stdout: '', exitCode: 1, errors: 1, total: 4 };
    expect(applyStageEvent(v, { type: 'stage', stage: 'run', result: run }).run.status).toBe('mismatch');
    expect(anyMismatch(applyStageEvent(freshStages(), { type: 'stage', stage: 'run', result: { ...run, errors: 0 } }))).toBe(false);
  });
  it("name the program's mismatches by the graph's outputs and coordinates", () => {
    const run = { target: 'host' as const, compiler: 'cc', stdout: '', exitCode: 1, errors: 1, total: 48, mismatches: [{ output: 1, index: 13, expected: 5, got: 6 }] };
    const outputs = [{ name: 'a', dtype: 'int8' as const, shape: [4] }, { name: 'b', dtype: 'int8' as const, shape: [1, 4, 11] }];
    expect(checkFailure('run', run, outputs)?.first).toEqual([{ tensor: 'b', index: 13, coords: [0, 1, 2], expected: 5, got: 6 }]);
    expect(checkFailure('run', run)?.first).toEqual([{ tensor: 'output 1', index: 13, coords: [13], expected: 5, got: 6 }]);
  });
  it('mark the running stage cancelled', () => {
    const v = applyStageEvent(freshStages(), { type: 'progress', stage: 'tile', fraction: 0.5, message: '' });
    const c = cancelStages(v);
    expect(c.tile.status).toBe('cancelled');
    expect(c.parse.status).toBe('pending');
  });
});
