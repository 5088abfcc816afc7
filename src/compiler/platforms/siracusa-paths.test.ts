// The kernel facts the tiler's cost model mirrors from the C kernels (which path a tile takes,
// how the cores share it), checked against the kernels' sources and on tiles worked out by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Node } from '../ir/graph';
import { transposeRule, type TileView } from '../tiling/rules';
import { CLUSTER, LUT8_MIN, RQ_GEMM_BLOCK } from './siracusa';

const kernelSource = (f: string) => readFileSync(new URL(`../kernels/${f}`, import.meta.url), 'utf8');
const define = (src: string, name: string) => Number(src.match(new RegExp(`#define ${name} (\\d+)`))?.[1]);
const view = (op: string, output: number[], attrs: Record<string, unknown> = {}): TileView => ({
  node: { name: 'n', op, inputs: ['x'], outputs: ['y'], attrs: {} } as unknown as Node, where: 'node n', attrs,
  inputs: [output], output, constant: () => undefined,
});
const tiling = CLUSTER.tiling!;

describe('the kernel paths the cost model prices', () => {
  it('uses the constants of the C kernels', () => {
    expect(LUT8_MIN).toBe(define(kernelSource('elementwise.c'), 'LUT8_MIN'));
    expect(RQ_GEMM_BLOCK).toEqual({ rows: define(kernelSource('gemm.c'), 'RB_M'), cols: define(kernelSource('gemm.c'), 'RB_N') });
  });

  it('prices requantized iHardswish on 8-bit input as a table once a core\'s share reaches LUT8_MIN', () => {
    const v = view('RequantizediHardswish', [1, 64, 256]);
    expect(tiling.costVariant!(v, 'RequantizediHardswish_s8_s8', [1, 64, 256], 8)).toBe('table'); // 2048 a core
    expect(tiling.costVariant!(v, 'RequantizediHardswish_s8_s8', [1, 13, 256], 8)).toBeUndefined(); // 416 a core
    expect(tiling.costVariant!(v, 'RequantizediHardswish_s8_s8', [1, 13, 256], 1)).toBe('table');
    expect(tiling.costVariant!(v, 'RequantizediHardswish_s16_s8', [1, 64, 256], 8)).toBeUndefined(); // no table for 16-bit input
  });

  it('gives a requantized gemm\'s busiest core its whole 2 x 4 blocks', () => {
    const share = (tile: number[], cores = 8) => tiling.coreShare!(view('RequantizedGemm', tile), 'RequantizedGemm_s8_s8_s8', tile, cores);
    expect(share([1, 64, 64])).toBeCloseTo(1 / 8, 12); // 512 blocks, 64 a core
    // 16 x 13: 8 x 4 = 32 blocks, 4 a core, 32 outputs of 208 (the last block column is one wide).
    expect(share([1, 16, 13])).toBeCloseTo(32 / 208, 12);
    expect(share([1, 1, 4])).toBe(1); // one block: one core does it all
    expect(share([4, 2, 4])).toBeCloseTo(1 / 4, 12); // 4 batches of one block: 4 cores busy
    expect(tiling.coreShare!(view('Add', [1, 16, 13]), 'Add_s8', [1, 16, 13], 8)).toBeUndefined();
    // and the tiler also tries tiles of whole blocks
    expect(tiling.preferredMultiples!(view('RequantizedGemm', [1, 64, 256]))).toEqual([1, 2, 4]);
    expect(tiling.preferredMultiples!(view('Add', [1, 64, 256]))).toEqual([1, 1, 1]);
  });
});

describe('a Transpose\'s kernel rows', () => {
  it('are blocks of the copy walk\'s two innermost dims, after merging', () => {
    // [1,16,64,4] -> [1,64,16,4]: blocks of 16 x 4; [1,64,16,4] -> [1,16,64,4]: 64 x 4.
    expect(transposeRule.rowElems!(view('Transpose', [1, 64, 16, 4], { perm: [0, 2, 1, 3] }), [1, 64, 16, 4])).toBe(64);
    expect(transposeRule.rowElems!(view('Transpose', [1, 16, 64, 4], { perm: [0, 2, 1, 3] }), [1, 16, 64, 4])).toBe(256);
    // [1,64,16,4] -> [1,16,4,64]: dims 16 and 4 are contiguous in the input, so they merge: 64 x 64.
    expect(transposeRule.rowElems!(view('Transpose', [1, 16, 4, 64], { perm: [0, 2, 3, 1] }), [1, 16, 4, 64])).toBe(4096);
    // An identity permutation is one contiguous run.
    expect(transposeRule.rowElems!(view('Transpose', [2, 3, 4], { perm: [0, 1, 2] }), [2, 3, 4])).toBe(24);
  });
});
