import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { foldTransposesIntoConstants } from './fold-transposes-into-constants';

describe('fold-transposes-into-constants', () => {
  it('stores the permuted constant (a chain of Transposes folds in one go)', () => {
    const b = new GraphBuilder();
    const t = b.node('Transpose', [b.init('w', [3, 2], [1, 2, 3, 4, 5, 6])], { perm: at.ints([1, 0]) });
    b.output(b.node('MatMul', [b.input('x', [1, 3]), b.node('Transpose', [t], { perm: at.ints([1, 0]) })]));
    b.output(b.node('Transpose', [b.input('y', [2, 3])], { perm: at.ints([1, 0]) })); // not a constant: stays
    const { after } = checkPass(foldTransposesIntoConstants, b.build());
    expect(opsOf(after)).toEqual(['MatMul', 'Transpose']);
    const w = after.initializers[after.nodes[0].inputs[1]];
    expect(w.shape).toEqual([3, 2]);
    expect(Array.from(w.data as ArrayLike<number>, Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
