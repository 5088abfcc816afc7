import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { splitTransposesPerConsumer } from './split-transposes-per-consumer';

describe('split-transposes-per-consumer', () => {
  it('gives every reader its own Transpose', () => {
    const b = new GraphBuilder();
    const t = b.node('Transpose', [b.input('x', [2, 3])], { perm: at.ints([1, 0]) });
    b.output(b.node('Relu', [t]));
    b.output(b.node('Relu', [t]));
    b.output(t);
    const { after } = checkPass(splitTransposesPerConsumer, b.build());
    expect(opsOf(after)).toEqual(['Transpose', 'Transpose', 'Transpose', 'Relu', 'Relu']);
    const inputs = after.nodes.filter((n) => n.op === 'Relu').map((n) => n.inputs[0]);
    expect(new Set([...inputs, after.outputs[2].name]).size).toBe(3);
  });
});
