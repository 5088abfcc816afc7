import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { compose, movesNoData } from './perm';
import { mergeTransposePairs } from './merge-transpose-pairs';

describe('merge-transpose-pairs', () => {
  it('composes permutations', () => {
    expect(compose([0, 2, 3, 1], [0, 3, 1, 2])).toEqual([0, 1, 2, 3]);
    expect(compose([0, 2, 3, 1], [0, 1, 3, 2])).toEqual([0, 2, 1, 3]);
    expect(movesNoData([1, 1, 1, 64], [0, 3, 1, 2])).toBe(true);
    expect(movesNoData([1, 2, 1, 64], [0, 3, 1, 2])).toBe(false);
  });

  it('merges a chain of three Transposes into one', () => {
    const b = new GraphBuilder();
    const t1 = b.node('Transpose', [b.input('x', [2, 3, 4])], { perm: at.ints([1, 0, 2]) });
    const t2 = b.node('Transpose', [t1], { perm: at.ints([0, 2, 1]) });
    b.output(b.node('Transpose', [t2], { perm: at.ints([2, 1, 0]) }));
    const { after } = checkPass(mergeTransposePairs, b.build());
    expect(opsOf(after)).toEqual(['Transpose']);
    expect(after.nodes[0].inputs).toEqual(['x']);
  });

  it('keeps the first Transpose when others read it', () => {
    const b = new GraphBuilder();
    const t1 = b.node('Transpose', [b.input('x', [2, 3])], { perm: at.ints([1, 0]) });
    b.output(b.node('Transpose', [t1], { perm: at.ints([1, 0]) }));
    b.output(t1);
    expect(opsOf(checkPass(mergeTransposePairs, b.build()).after)).toEqual(['Transpose', 'Transpose']);
  });
});
