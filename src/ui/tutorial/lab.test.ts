// The lab table's rules: which kernel is SIMD, which run fills which row, and the stored log.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { LAB_STEPS } from '../../pipeline/lab';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import { kernelKind, labConfig, labStepOf, parseLab, serialiseLab } from './lab';

const LAB = path.resolve(__dirname, '../../pipeline/lab');
const spec = JSON.parse(readFileSync(path.join(LAB, 'ileakyrelu.json'), 'utf8')) as UserOpSpec;
const scalar: UserOp = { spec, kernel: readFileSync(path.join(LAB, 'scalar.c'), 'utf8') };
const simd: UserOp = { spec: { ...spec, tiling: [{ axis: -1, multiple: 16 }] }, kernel: readFileSync(path.join(LAB, 'simd.c'), 'utf8') };

describe('the lab table', () => {
  it('tells a packed kernel from a scalar one by what its code uses, not its comments', () => {
    expect(kernelKind('for (i = 0; i < n; i++) y[i] = x[i] >= 0 ? x[i] : (mul * x[i]) >> shift;')).toBe('scalar');
    expect(kernelKind('/* v4s and __builtin_pulp_max4 come later */ y[i] = x[i];')).toBe('scalar');
    expect(kernelKind('typedef signed char v4s __attribute__((vector_size(4)));')).toBe('simd');
    expect(kernelKind('uint32_t w = dpg_load4(p);')).toBe('simd');
    expect(kernelKind(scalar.kernel)).toBe('scalar');
    expect(kernelKind(simd.kernel)).toBe('simd');
    expect(kernelKind(readFileSync(path.join(LAB, 'simd-vectors.c'), 'utf8'))).toBe('simd');
  });

  it('fills a row from a run whose configuration and kernel kind match it', () => {
    for (const s of LAB_STEPS) expect(labStepOf(labConfig(s), s.kernel === 'simd' ? simd : scalar), s.id).toBe(s.id);
    const untiled1 = labConfig(LAB_STEPS[0]!);
    // Untiled: the L1 budget is not used, so it does not matter.
    expect(labStepOf({ ...untiled1, l1: 1000 }, scalar)).toBe(LAB_STEPS[0]!.id);
    expect(labStepOf({ ...untiled1, cores: 4 }, scalar)).toBeUndefined();
    expect(labStepOf({ ...untiled1 }, simd)).toBeUndefined();
    expect(labStepOf({ ...DEFAULT_CONFIG, platform: 'generic' }, scalar)).toBeUndefined();
    expect(labStepOf({ ...labConfig(LAB_STEPS[2]!), doubleBuffer: true }, scalar)).toBeUndefined();
    // The SIMD step adds the tiling rule: a SIMD kernel without it fills no row.
    expect(labStepOf(labConfig(LAB_STEPS[3]!), { ...simd, spec })).toBeUndefined();
    // A scalar kernel with the rule still counts as the tiled step.
    expect(labStepOf(labConfig(LAB_STEPS[2]!), { ...scalar, spec: simd.spec })).toBe(LAB_STEPS[2]!.id);
  });

  it('keeps its rows across reloads and refuses a malformed log', () => {
    const log = { [LAB_STEPS[0]!.id]: { seq: 1, cycles: 2_000_000, errors: 0, total: 65536, op: 'iLeakyReLU', model: 'iLeakyReLU_test/network.onnx' } };
    expect(parseLab(serialiseLab(log))).toEqual(log);
    expect(parseLab('{"v":1,"rows":{"nope":{}}}')).toEqual({});
    expect(parseLab('not json')).toEqual({});
    expect(parseLab(JSON.stringify({ v: 1, rows: { [LAB_STEPS[0]!.id]: { ...log[LAB_STEPS[0]!.id], cycles: 'many' } } }))).toEqual({});
  });
});
