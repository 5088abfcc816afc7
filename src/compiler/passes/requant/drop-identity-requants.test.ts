import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, rqAttrs } from '../testing';
import { dropIdentityRequants } from './drop-identity-requants';

describe('drop-identity-requants', () => {
  it('drops a unity requant (mul = 2^s, add = 0) after a Transpose of int8 data, also when it writes a graph output', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 3]);
    const r = b.requant(x, 8);
    const t = b.node('Transpose', [r], { perm: { kind: 'ints', value: [1, 0] } });
    b.output(b.node('RequantShift', [t, b.init('m', [], [256]), b.init('a', [], [0])], rqAttrs(8), { outputs: ['kv'] }));
    const { after } = checkPass(dropIdentityRequants, b.build(), { lo: -1000, hi: 1000 });
    expect(opsOf(after)).toEqual(['RequantShift', 'Transpose']);
    expect(after.nodes[1].outputs).toEqual(['kv']);
  });

  it('keeps a unity requant that clips (its input may leave the int8 range) or that rounds', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [4]);
    const s = b.node('Add', [x, x]);
    const u = b.node('RequantShift', [s, b.init('m', [], [256]), b.init('a', [], [0])], rqAttrs(8));
    b.output(b.node('RequantShift', [u, b.init('m2', [], [256]), b.init('a2', [], [200])], rqAttrs(8)));
    const { after } = checkPass(dropIdentityRequants, b.build());
    expect(opsOf(after)).toEqual(['Add', 'RequantShift', 'RequantShift']);
  });
});
