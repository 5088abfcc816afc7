import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { constAddIntoRequant } from './const-add-into-requant';

describe('const-add-into-requant', () => {
  it("folds a bias Add (either operand order) into the requant: add' = add + c*mul", () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 4, 8]);
    const m = b.node('MatMul', [x, b.init('w', [8, 8])]);
    const s = b.node('Add', [b.init('bias', [8], [-50, 50]), m]);
    b.output(b.requant(s, 8));
    const { after } = checkPass(constAddIntoRequant, b.build());
    expect(opsOf(after)).toEqual(['MatMul', 'RequantShift']);
    expect(after.initializers[after.nodes[1].inputs[2]].shape).toEqual([8]);
  });

  it('keeps an Add whose constant would broadcast x to a bigger shape', () => {
    const b = new GraphBuilder();
    const s = b.node('Add', [b.input('x', [1, 8]), b.init('c', [4, 8])]);
    b.output(b.requant(s, 8));
    expect(opsOf(checkPass(constAddIntoRequant, b.build()).after)).toEqual(['Add', 'RequantShift']);
  });
});
