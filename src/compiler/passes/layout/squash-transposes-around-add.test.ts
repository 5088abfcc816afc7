import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { squashTransposesAroundAdd } from './squash-transposes-around-add';

describe('squash-transposes-around-add', () => {
  it('moves identical input Transposes of an elementwise op to its output', () => {
    const b = new GraphBuilder();
    const perm = { perm: at.ints([0, 3, 1, 2]) };
    const a = b.node('Transpose', [b.input('a', [1, 2, 2, 3])], perm);
    const c = b.node('Transpose', [b.input('c', [1, 2, 2, 3])], perm);
    b.output(b.node('Add', [a, c], {}, { outputs: ['y'] }));
    const { after } = checkPass(squashTransposesAroundAdd, b.build());
    expect(opsOf(after)).toEqual(['Add', 'Transpose']);
    expect(after.nodes[1].outputs).toEqual(['y']);
  });

  it('leaves different permutations alone', () => {
    const b = new GraphBuilder();
    const a = b.node('Transpose', [b.input('a', [2, 2, 2])], { perm: at.ints([0, 2, 1]) });
    const c = b.node('Transpose', [b.input('c', [2, 2, 2])], { perm: at.ints([1, 0, 2]) });
    b.output(b.node('Add', [a, c]));
    expect(opsOf(checkPass(squashTransposesAroundAdd, b.build()).after)).toEqual(['Transpose', 'Transpose', 'Add']);
  });
});
