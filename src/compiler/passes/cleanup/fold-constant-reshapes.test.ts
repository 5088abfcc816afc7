import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { foldConstantReshapes } from './fold-constant-reshapes';

describe('fold-constant-reshapes', () => {
  it('stores a reshaped constant', () => {
    const b = new GraphBuilder();
    const w = b.node('Reshape', [b.init('w', [6], [1, 2, 3, 4, 5, 6]), b.init('s', [2], [3, 2], 'int64')]);
    b.output(b.node('MatMul', [b.input('x', [1, 3]), w]));
    const { after } = checkPass(foldConstantReshapes, b.build());
    expect(opsOf(after)).toEqual(['MatMul']);
    expect(after.initializers[after.nodes[0].inputs[1]].shape).toEqual([3, 2]);
  });
});
