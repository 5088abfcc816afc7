import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { fuseAddRequants } from './fuse-add-requants';

describe('fuse-add-requants', () => {
  it('absorbs the scalar requants on both inputs and on the output', () => {
    const b = new GraphBuilder();
    const a = b.requant(b.input('a', [1, 8]), 4), c = b.requant(b.input('c', [1, 8]), 5);
    b.output(b.requant(b.node('Add', [a, c]), 3));
    const { after, snapshot } = checkPass(fuseAddRequants, b.build(), { lo: -3000, hi: 3000 });
    expect(opsOf(after)).toEqual(['RequantizedAdd']);
    expect(after.nodes[0].inputs).toEqual(['a', 'c']);
    expect(snapshot.origin[after.nodes[0].name]).toHaveLength(4);
  });

  it('uses an identity part for an int8 input that has no requant of its own (read by others too)', () => {
    const b = new GraphBuilder();
    const a = b.requant(b.input('a', [4]), 4);
    const c = b.requant(b.input('c', [4]), 4);
    b.output(b.requant(b.node('Add', [a, c]), 2));
    b.output(b.node('Mul', [a, c]));
    const { after } = checkPass(fuseAddRequants, b.build(), { lo: -3000, hi: 3000 });
    expect(opsOf(after)).toEqual(['RequantShift', 'RequantShift', 'RequantizedAdd', 'Mul']);
    expect(after.nodes[2].attrs.rqs1_mul).toEqual({ kind: 'int', value: 1 });
  });

  it('leaves an Add whose input may exceed 8 bits and has no requant', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [4]);
    b.output(b.requant(b.node('Add', [b.node('Add', [x, x]), x]), 2));
    expect(opsOf(checkPass(fuseAddRequants, b.build()).after)).toEqual(['Add', 'Add', 'RequantShift']);
  });
});
