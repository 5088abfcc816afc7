import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { mergeIntegerDiv } from './merge-integer-div';

describe('merge-integer-div', () => {
  it('fuses IntegerDiv and its requant into RQIntegerDiv', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [8]);
    const y = b.init('y', [8], [1, 2, 3, 4, 5, 6, 7, 8]);
    const d = b.node('IntegerDiv', [x, y], { Delta: at.int(64), eps: at.int(1), eta: at.int(8) });
    b.output(b.requant(d, 4));
    const { after, snapshot } = checkPass(mergeIntegerDiv, b.build());
    expect(opsOf(after)).toEqual(['RQIntegerDiv']);
    expect(snapshot.origin[after.nodes[0].name].sort()).toEqual(['IntegerDiv_0', 'RequantShift_2']);
  });
});
