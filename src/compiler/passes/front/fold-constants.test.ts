import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { foldConstants } from './fold-constants';

describe('fold-constants', () => {
  it('turns Constant nodes into initializers and evaluates constant subgraphs', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 3]);
    const w = b.node('Constant', [], { value: { kind: 'tensor', value: { name: '', dtype: 'float32', shape: [3, 2], data: Float32Array.from([1, 2, 3, 4, 5, 6]) } } });
    const wt = b.node('Transpose', [w], { perm: { kind: 'ints', value: [1, 0] } });
    const s = b.init('s', [2], [2, 3], 'int64');
    const y = b.node('Mul', [x, b.node('Reshape', [wt, b.init('shape', [2], [2, 3], 'int64')])]);
    b.output(b.node('Reshape', [y, s]));
    const { after } = checkPass(foldConstants, b.build());
    expect(opsOf(after)).toEqual(['Mul', 'Reshape']);
    const folded = after.initializers[after.nodes[0].inputs[1]];
    expect(Array.from(folded.data as Float32Array)).toEqual([1, 3, 5, 2, 4, 6]);
    expect(folded.shape).toEqual([2, 3]);
  });

  it('leaves nodes producing graph outputs alone', () => {
    const b = new GraphBuilder();
    b.output(b.node('Constant', [], { value_ints: { kind: 'ints', value: [1, 2] } }));
    expect(opsOf(checkPass(foldConstants, { ...b.build(), inputs: [] }, { seeds: [1] }).after)).toEqual(['Constant']);
  });
});
