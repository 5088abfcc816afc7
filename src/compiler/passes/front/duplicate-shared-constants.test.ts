import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, rqAttrs } from '../testing';
import { duplicateSharedConstants } from './duplicate-shared-constants';

describe('duplicate-shared-constants', () => {
  it("gives every node its own copy of a shared constant (the data array is shared)", () => {
    const b = new GraphBuilder();
    const x = b.input('x', [4]);
    const mul = b.init('mul', [], [3]), add = b.init('add', [], [0]);
    const r1 = b.node('RequantShift', [x, mul, add], rqAttrs(2));
    b.output(b.node('RequantShift', [r1, mul, add], rqAttrs(1)));
    const { after } = checkPass(duplicateSharedConstants, b.build());
    const [n1, n2] = after.nodes;
    expect(n1.inputs.slice(1)).toEqual(['mul', 'add']);
    expect(n2.inputs.slice(1)).toEqual(['mul_1', 'add_1']);
    expect(after.initializers.mul_1.data).toBe(after.initializers.mul.data);
  });
});
