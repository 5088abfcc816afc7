import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { dropIdentity } from './drop-identity';

describe('drop-identity', () => {
  it('removes Identity on an input, on an output and in the middle; outputs keep their names', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 4]), y = b.input('y', [1, 4]);
    const i1 = b.node('Identity', [x]);
    const s = b.node('Add', [i1, y]);
    const i2 = b.node('Identity', [s], {}, { outputs: ['out'] });
    b.output(i2);
    const { after, snapshot } = checkPass(dropIdentity, b.build());
    expect(opsOf(after)).toEqual(['Add']);
    expect(after.outputs.map((o) => o.name)).toEqual(['out']);
    expect(after.nodes[0].inputs).toEqual(['x', 'y']);
    expect(snapshot.removed.sort()).toEqual(['Identity_0', 'Identity_2']);
  });

  it('keeps an Identity from a graph input straight to a graph output', () => {
    const b = new GraphBuilder();
    b.output(b.node('Identity', [b.input('x', [2])]));
    expect(opsOf(checkPass(dropIdentity, b.build()).after)).toEqual(['Identity']);
  });
});
