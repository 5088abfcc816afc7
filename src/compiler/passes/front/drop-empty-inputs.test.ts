import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { dropEmptyInputs } from './drop-empty-inputs';

describe('drop-empty-inputs', () => {
  it('turns an empty KV-cache input into an empty constant; the other inputs keep their order', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 2, 3, 4]);
    const cache = b.input('cache', [1, 2, 0, 4]);
    const y = b.input('y', [1]);
    const c = b.node('Concat', [cache, x], { axis: { kind: 'int', value: 2 } });
    b.output(b.node('Add', [c, y]));
    const { after } = checkPass(dropEmptyInputs, b.build());
    expect(after.inputs.map((v) => v.name)).toEqual(['x', 'y']);
    expect(after.initializers.cache.shape).toEqual([1, 2, 0, 4]);
    expect(opsOf(after)).toEqual(['Concat', 'Add']);
  });
});
