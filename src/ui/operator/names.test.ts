import { describe, expect, it } from 'vitest';
import { kernelPath } from '../../compiler/ops/user/kernel';
import { EMPTY_SPEC } from './state';
import { INT_TYPES } from '../../compiler/passes/ranges';
import { kernelFile, OP_DTYPES } from './names';

describe('the main bundle\'s names of user ops', () => {
  it('are the compiler\'s', () => {
    expect([...OP_DTYPES]).toEqual([...INT_TYPES]);
    for (const op of ['iLeakyReLU', 'x', 'My_Op2']) expect(kernelFile({ op })).toBe(kernelPath({ ...EMPTY_SPEC, op }));
  });
});
