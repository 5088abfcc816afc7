import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { dropOutputReshape } from './drop-output-reshape';

describe('drop-output-reshape', () => {
  it("writes the graph output in its producer's shape (same elements, same order, same name)", () => {
    const b = new GraphBuilder();
    const r = b.node('Relu', [b.input('x', [1, 2, 3])]);
    b.output(b.node('Flatten', [r], { axis: at.int(1) }, { outputs: ['y'] }));
    const { after } = checkPass(dropOutputReshape, b.build());
    expect(opsOf(after)).toEqual(['Relu']);
    expect(after.outputs).toEqual([{ name: 'y', dtype: 'float32', shape: [1, 2, 3] }]);
  });
});
