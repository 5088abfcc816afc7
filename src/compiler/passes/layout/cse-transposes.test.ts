import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { cseTransposes } from './cse-transposes';

describe('cse-transposes', () => {
  it('keeps one of several identical Transposes of the same tensor', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 3]), rope = b.input('rope', [3, 3]);
    const t1 = b.node('Transpose', [rope], { perm: at.ints([1, 0]) });
    const t2 = b.node('Transpose', [rope], { perm: at.ints([1, 0]) });
    b.output(b.node('MatMul', [x, t1]));
    b.output(b.node('MatMul', [x, t2]));
    const { after } = checkPass(cseTransposes, b.build());
    expect(opsOf(after)).toEqual(['Transpose', 'MatMul', 'MatMul']);
    expect(after.nodes[2].inputs[1]).toBe(after.nodes[0].outputs[0]);
  });
});
