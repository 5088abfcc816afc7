import { describe, expect, it } from 'vitest';
import { checkPasses, GraphBuilder, opsOf, at } from '../testing';
import { typeInputs } from '../front/type-inputs';
import { extractPadding } from './extract-padding';

describe('extract-padding', () => {
  it('moves Conv padding (with strides) into a Pad node', () => {
    const b = new GraphBuilder();
    b.output(b.node('Conv', [b.input('x', [1, 2, 7, 7]), b.init('w', [3, 2, 3, 3])], { pads: at.ints([1, 2, 1, 0]), strides: at.ints([2, 2]) }));
    const { after } = checkPasses([extractPadding], b.build());
    expect(opsOf(after)).toEqual(['Pad', 'Conv']);
    expect(after.nodes[1].attrs.pads).toEqual({ kind: 'ints', value: [0, 0, 0, 0] });
  });

  it('pads a MaxPool with the smallest value its (typed) input holds', () => {
    const b = new GraphBuilder();
    b.output(b.node('MaxPool', [b.input('x', [1, 2, 5, 5])], { kernel_shape: at.ints([3, 3]), pads: at.ints([1, 1, 1, 1]) }));
    const { after } = checkPasses([typeInputs, extractPadding], b.build());
    expect(opsOf(after)).toEqual(['Pad', 'MaxPool']);
    // Opset 13: pads and the pad value are inputs.
    expect(Array.from(after.initializers[after.nodes[0].inputs[2]].data as ArrayLike<number>, Number)).toEqual([-128]);
  });
});
