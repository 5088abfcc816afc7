import { describe, expect, it } from 'vitest';
import { checkPasses, GraphBuilder, opsOf } from '../testing';
import { fuseGemmRequant } from '../requant/fuse-gemm-requant';
import { normalizeGemm } from './normalize-gemm';
import { gemmToPointwiseConv } from './gemm-to-pointwise-conv';

describe('gemm-to-pointwise-conv', () => {
  it('turns a linear layer with constant weights into a 1x1 NHWC RequantizedConv wrapped in Reshapes', () => {
    const b = new GraphBuilder();
    const m = b.node('MatMul', [b.input('x', [1, 6, 8]), b.init('w', [8, 5])]);
    b.output(b.requant(m, 8));
    const { after } = checkPasses([fuseGemmRequant, normalizeGemm, gemmToPointwiseConv], b.build());
    expect(opsOf(after)).toEqual(['Reshape', 'RequantizedConv', 'Reshape']);
    const conv = after.nodes[1];
    expect(after.initializers[conv.inputs[1]].shape).toEqual([5, 1, 1, 8]);
    expect(after.types[conv.inputs[0]].shape).toEqual([1, 1, 6, 8]);
    expect(conv.attrs.channels_first).toEqual({ kind: 'int', value: 0 });
  });

  it('leaves a product of two activations alone', () => {
    const b = new GraphBuilder();
    b.output(b.requant(b.node('MatMul', [b.input('a', [2, 3, 4]), b.input('c', [2, 4, 5])]), 8));
    expect(opsOf(checkPasses([fuseGemmRequant, normalizeGemm, gemmToPointwiseConv], b.build()).after)).toEqual(['Transpose', 'RequantizedGemm']);
  });
});
