import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { dropSingletonReduceMean } from './drop-singleton-reduce-mean';

describe('drop-singleton-reduce-mean', () => {
  it('turns a mean over a size-1 axis into a Reshape, and leaves real means alone', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 1, 3]);
    b.output(b.node('ReduceMean', [x], { axes: at.ints([1]), keepdims: at.int(0) }));
    b.output(b.node('ReduceMean', [x], { axes: at.ints([2]), keepdims: at.int(0) }));
    const { after } = checkPass(dropSingletonReduceMean, b.build());
    expect(opsOf(after)).toEqual(['Reshape', 'ReduceMean']);
  });
});
