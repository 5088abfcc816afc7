import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { mergeReshapes } from './merge-reshapes';

describe('merge-reshapes', () => {
  it('collapses a Reshape chain and removes a Reshape back to the same shape', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 6]);
    const r1 = b.node('Reshape', [x, b.init('s1', [3], [2, 3, 2], 'int64')]);
    const f = b.node('Flatten', [r1], { axis: at.int(1) });
    b.output(b.node('Relu', [f]));
    const r2 = b.node('Reshape', [b.node('Relu', [x]), b.init('s2', [4], [1, 1, 2, 6], 'int64')]);
    b.output(b.node('Reshape', [r2, b.init('s3', [2], [2, 6], 'int64')]));
    const { after } = checkPass(mergeReshapes, b.build());
    expect(opsOf(after)).toEqual(['Relu', 'Relu']);
  });
});
