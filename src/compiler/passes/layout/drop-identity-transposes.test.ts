import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { dropIdentityTransposes } from './drop-identity-transposes';

describe('drop-identity-transposes', () => {
  it('removes identity permutations and turns size-1 moves into Reshapes', () => {
    const b = new GraphBuilder();
    const t = b.node('Transpose', [b.input('x', [1, 1, 1, 8])], { perm: at.ints([0, 1, 2, 3]) });
    b.output(b.node('Transpose', [t], { perm: at.ints([0, 3, 1, 2]) }));
    const { after } = checkPass(dropIdentityTransposes, b.build());
    expect(opsOf(after)).toEqual(['Reshape']);
    expect(after.types[after.nodes[0].outputs[0]].shape).toEqual([1, 8, 1, 1]);
  });
});
