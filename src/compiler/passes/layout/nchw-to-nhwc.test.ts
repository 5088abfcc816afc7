import { describe, expect, it } from 'vitest';
import { checkPasses, GraphBuilder, opsOf, at } from '../testing';
import { fuseConvRequant } from '../requant/fuse-conv-requant';
import { nchwToNhwc } from './nchw-to-nhwc';

describe('nchw-to-nhwc', () => {
  it('wraps RequantizedConv, MaxPool and Pad in Transposes, sets channels_first = 0, permutes weights and parameters', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 3, 8, 8]);
    const c = b.requant(b.node('Conv', [x, b.init('w', [4, 3, 3, 3])], { pads: at.ints([1, 1, 1, 1]) }), 8, { mulShape: [4, 1, 1] });
    const p = b.node('MaxPool', [c], { kernel_shape: at.ints([2, 2]), strides: at.ints([2, 2]) });
    b.output(b.node('Pad', [p], { pads: at.ints([0, 0, 1, 0, 0, 0, 0, 2]) }));
    const { after } = checkPasses([fuseConvRequant, nchwToNhwc], b.build());
    expect(opsOf(after)).toEqual(['Transpose', 'RequantizedConv', 'Transpose', 'Transpose', 'MaxPool', 'Transpose', 'Transpose', 'Pad', 'Transpose']);
    const conv = after.nodes[1];
    expect(conv.attrs.channels_first).toEqual({ kind: 'int', value: 0 });
    expect(after.initializers[conv.inputs[1]].shape).toEqual([4, 3, 3, 3]);
    expect(after.initializers[conv.inputs[2]].shape).toEqual([4]);
    expect(after.types[conv.outputs[0]].shape).toEqual([1, 8, 8, 4]);
  });

  it('handles 1-D and depthwise convs (depthwise stays channels-last too)', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 4, 10]);
    b.output(b.node('Conv', [x, b.init('w', [4, 1, 3])], { group: at.int(4), pads: at.ints([1, 1]) }));
    const { after } = checkPasses([nchwToNhwc], b.build());
    expect(opsOf(after)).toEqual(['Transpose', 'Conv', 'Transpose']);
    expect(after.nodes[0].attrs.perm).toEqual({ kind: 'ints', value: [0, 2, 1] });
  });
});
