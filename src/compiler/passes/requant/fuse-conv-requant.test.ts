import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { fuseConvRequant } from './fuse-conv-requant';

describe('fuse-conv-requant', () => {
  it("fuses Conv + bias + per-channel requant into RequantizedConv with add' = add + bias*mul + 2^(s-1)", () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 3, 6, 6]);
    const c = b.node('Conv', [x, b.init('w', [4, 3, 3, 3]), b.init('bias', [4], [10, -20, 30, 0])],
      { pads: at.ints([1, 1, 1, 1]), strides: at.ints([2, 2]), kernel_shape: at.ints([3, 3]) });
    b.output(b.requant(c, 10, { mulShape: [4, 1, 1] }));
    const before = b.build();
    const { after } = checkPass(fuseConvRequant, before);
    expect(opsOf(after)).toEqual(['RequantizedConv']);
    const n = after.nodes[0];
    expect(n.attrs.shift).toEqual({ kind: 'int', value: 10 });
    const add = Array.from(after.initializers[n.inputs[3]].data as ArrayLike<number>, Number);
    const mul = Array.from(before.initializers['rq1_mul'].data as Float32Array);
    const add0 = Array.from(before.initializers['rq1_add'].data as Float32Array);
    expect(add).toEqual([10, -20, 30, 0].map((bv, i) => add0[i] + bv * mul[i] + 512));
  });

  it('fuses a 1-D conv whose requant parameters are [C, 1, 1] (per channel)', () => {
    const b = new GraphBuilder();
    const c = b.node('Conv', [b.input('x', [1, 2, 16]), b.init('w', [4, 2, 3])], { kernel_shape: at.ints([3]) });
    b.output(b.requant(c, 6, { mulShape: [4, 1, 1] }));
    expect(opsOf(checkPass(fuseConvRequant, b.build()).after)).toEqual(['RequantizedConv']);
  });
});
