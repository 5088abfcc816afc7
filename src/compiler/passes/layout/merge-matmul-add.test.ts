import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf } from '../testing';
import { mergeMatMulAdd } from './merge-matmul-add';

describe('merge-matmul-add', () => {
  it('merges a 2-D MatMul and a constant Add into a Gemm', () => {
    const b = new GraphBuilder();
    const m = b.node('MatMul', [b.input('x', [4, 6]), b.init('w', [6, 5])]);
    b.output(b.node('Add', [m, b.init('c', [4, 5])], {}, { outputs: ['y'] }));
    const { after } = checkPass(mergeMatMulAdd, b.build());
    expect(opsOf(after)).toEqual(['Gemm']);
    expect(after.nodes[0].outputs).toEqual(['y']);
  });

  it('leaves a batched MatMul alone', () => {
    const b = new GraphBuilder();
    const m = b.node('MatMul', [b.input('x', [1, 4, 6]), b.init('w', [6, 5])]);
    b.output(b.node('Add', [m, b.init('c', [5])]));
    expect(opsOf(checkPass(mergeMatMulAdd, b.build()).after)).toEqual(['MatMul', 'Add']);
  });
});
