// Part III's checks on chosen states: the operator in the store, the lab table's rows, the tile
// plan of the last compile. (The e2e test, e2e/operator.e2e.ts, does the lab for real.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import type { TilePlan } from '../../compiler/tiling/types';
import { LAB_STEPS } from '../../pipeline/lab';
import { INITIAL_CODE_STATE } from '../panes/code/state';
import { INITIAL_GRAPH_STATE } from '../panes/graph/state';
import { freshStages } from '../stageViews';
import { world } from './fixtures';
import type { LabLog } from './lab';
import { stepById } from './steps';
import type { AppView, CheckResult } from './types';

const LAB = path.resolve(__dirname, '../../pipeline/lab');
const spec = JSON.parse(readFileSync(path.join(LAB, 'ileakyrelu.json'), 'utf8')) as UserOpSpec;
const scalar: UserOp = { spec, kernel: readFileSync(path.join(LAB, 'scalar.c'), 'utf8') };
const simd: UserOp = { spec: { ...spec, tiling: [{ axis: -1, multiple: 16 }] }, kernel: readFileSync(path.join(LAB, 'simd.c'), 'utf8') };

function app(ops: UserOp[], more: Partial<AppView> = {}): AppView {
  return {
    model: null, config: DEFAULT_CONFIG, compiledConfig: null, stages: freshStages(), graph: INITIAL_GRAPH_STATE, code: INITIAL_CODE_STATE,
    runBaseline: null, runEdits: null, ops, compiledOps: null, ...more,
  };
}

const ids = LAB_STEPS.map((s) => s.id);
const log = (cycles: number[]): LabLog => Object.fromEntries(cycles.map((c, i) => [ids[i]!, { seq: i + 1, cycles: c, errors: 0, total: 65536, op: 'iLeakyReLU', model: 'iLeakyReLU_test/network.onnx' }]));
const states = (r: CheckResult) => Object.fromEntries(r.items.map((i) => [i.id, i.state]));
const check = (id: string, a: AppView, lab: LabLog, answers: Record<string, string> = {}) => stepById(id)!.check(world(a, { lab }), answers);

describe('tutorial Part III', () => {
  it('checks the parser\'s ranges on the applied op', () => {
    expect(states(check('op-parser', app([scalar]), {}))).toMatchObject({ mul: 'ok', shift: 'ok' });
    const wide: UserOp = { ...scalar, spec: { ...spec, attrs: spec.attrs.map((a) => ({ ...a, max: 100 })) } };
    expect(states(check('op-parser', app([wide]), {}))).toMatchObject({ mul: 'missing', shift: 'missing' });
  });

  it('tells a scalar kernel from a SIMD one', () => {
    expect(states(check('op-scalar', app([scalar]), {})).kernel).toBe('ok');
    expect(states(check('op-simd', app([simd]), {})).kernel).toBe('ok');
    expect(states(check('op-simd', app([scalar]), {})).kernel).toBe('missing');
  });

  it('asks for the measured speedups and passes the table with the four rows', () => {
    const lab = log([2_000_000, 300_000, 100_000, 40_000]);
    expect(check('op-cores', app([scalar]), lab, { speedup: '6.67' }).status).toBe('passed');
    expect(check('op-cores', app([scalar]), lab, { speedup: '8' }).status).toBe('failed');
    expect(check('op-simd', app([simd]), lab, { speedup: '2.5x' }).status).toBe('passed');
    const table = check('op-table', app([simd]), lab, { total: '50' });
    expect(table.status).toBe('passed');
    expect(table.evidence.join('\n')).toContain('GVSoC');
    expect(check('op-table', app([simd]), log([2_000_000, 300_000, 100_000]), { total: '50' }).status).toBe('not-yet');
  });

  it('reads the tile shape of the op\'s layer from a fresh compile with the rule', () => {
    const config = { ...DEFAULT_CONFIG, l1: 32768 };
    const stages = freshStages();
    const plan = { tilings: [{ node: 'iLeakyReLU_0', op: 'iLeakyReLU', tile: [1, 2, 16, 64], tiles: 32 }] } as unknown as TilePlan;
    const ops = [simd];
    const a = app(ops, { config, compiledConfig: config, compiledOps: ops, stages: { ...stages, tile: { status: 'done', result: plan } } as AppView['stages'] });
    expect(check('op-rule', a, {}, { tile: '1x2x16x64' }).status).toBe('passed');
    expect(check('op-rule', a, {}, { tile: '1x1x64x64' }).status).toBe('failed');
    // Applied since the compile: the plan is of other ops.
    expect(states(check('op-rule', { ...a, ops: [{ ...simd }] }, {})).compiled).toBe('missing');
  });
});
