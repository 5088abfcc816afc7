import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder } from '../testing';
import { dropEmptyBias } from './drop-empty-bias';

describe('drop-empty-bias', () => {
  it('removes an all-zero Conv bias and keeps a real one', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 2, 4, 4]);
    b.output(b.node('Conv', [x, b.init('w', [3, 2, 1, 1]), b.init('zero', [3], [0, 0, 0])]));
    b.output(b.node('Conv', [x, b.init('w2', [3, 2, 1, 1]), b.init('b', [3], [0, 1, 0])]));
    const { after } = checkPass(dropEmptyBias, b.build());
    expect(after.nodes.map((n) => n.inputs.length)).toEqual([2, 3]);
  });
});
