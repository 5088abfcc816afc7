import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { splitRequantPerConsumer } from './split-requant-per-consumer';

describe('split-requant-per-consumer', () => {
  it('copies a requant read by an Add and another node, one copy per reader', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [4]);
    const r = b.requant(b.node('Relu', [x]), 4);
    b.output(b.node('Add', [r, x]));
    b.output(b.node('Mul', [r, x]));
    const before = b.build();
    const { after, snapshot } = checkPass(splitRequantPerConsumer, before);
    expect(opsOf(after)).toEqual(['Relu', 'RequantShift', 'RequantShift', 'Add', 'Mul']);
    const [add, mul] = after.nodes.slice(3);
    expect(add.inputs[0]).not.toBe(mul.inputs[0]);
    expect(snapshot.origin[after.nodes[1].name]).toEqual([before.nodes[1].name]);
  });

  it('leaves a requant whole when the op before it will absorb it', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 4]);
    const r = b.requant(b.node('MatMul', [x, b.init('w', [4, 4])]), 4);
    b.output(b.node('Add', [r, x]));
    b.output(b.node('Mul', [r, x]));
    expect(opsOf(checkPass(splitRequantPerConsumer, b.build()).after)).toEqual(['MatMul', 'RequantShift', 'Add', 'Mul']);
  });
});
