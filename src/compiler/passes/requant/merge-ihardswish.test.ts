import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { mergeIHardswish } from './merge-ihardswish';

const hs = { one_over_six: at.int(42), three: at.int(168), six: at.int(337) };

describe('merge-ihardswish', () => {
  it('fuses iHardswish and a scalar requant into RequantizediHardswish (mul/add become attributes)', () => {
    const b = new GraphBuilder();
    const h = b.node('iHardswish', [b.input('x', [1, 64])], hs);
    b.output(b.requant(h, 16, { mul: [5, 9] }));
    const { after } = checkPass(mergeIHardswish, b.build());
    expect(opsOf(after)).toEqual(['RequantizediHardswish']);
    expect(after.nodes[0].attrs.mul.kind).toBe('int');
  });

  it('leaves a per-channel requant alone', () => {
    const b = new GraphBuilder();
    const h = b.node('iHardswish', [b.input('x', [1, 4])], hs);
    b.output(b.requant(h, 16, { mulShape: [4] }));
    expect(opsOf(checkPass(mergeIHardswish, b.build()).after)).toEqual(['iHardswish', 'RequantShift']);
  });
});
