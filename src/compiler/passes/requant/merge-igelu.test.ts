import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { mergeIGelu } from './merge-igelu';

describe('merge-igelu', () => {
  it('fuses iGELU and its requant into RequantizediGELU', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 8]);
    const g = b.node('iGELU', [x], { b: at.int(-64), one: at.int(1024) });
    b.output(b.requant(g, 12, { mulShape: [8] }));
    const { after } = checkPass(mergeIGelu, b.build());
    expect(opsOf(after)).toEqual(['RequantizediGELU']);
    expect(after.nodes[0].inputs).toHaveLength(3);
  });
});
