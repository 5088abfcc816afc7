import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { fuseGemmRequant } from './fuse-gemm-requant';

describe('fuse-gemm-requant', () => {
  it("fuses Gemm (alpha, beta, transB, bias) with a per-row requant into RequantizedGemm", () => {
    const b = new GraphBuilder();
    const g = b.node('Gemm', [b.input('x', [4, 6]), b.init('w', [5, 6]), b.init('c', [4, 5])],
      { alpha: at.float(2), beta: at.float(3), transB: at.int(1) });
    b.output(b.requant(g, 9, { mulShape: [4, 1] }));
    const { after } = checkPass(fuseGemmRequant, b.build());
    expect(opsOf(after)).toEqual(['RequantizedGemm']);
    expect(after.nodes[0].attrs.transB).toEqual({ kind: 'int', value: 1 });
  });

  it('fuses a batched MatMul of two activations', () => {
    const b = new GraphBuilder();
    const m = b.node('MatMul', [b.input('a', [1, 2, 3, 4]), b.input('b', [1, 2, 4, 5])]);
    b.output(b.requant(m, 10));
    const { after } = checkPass(fuseGemmRequant, b.build());
    expect(opsOf(after)).toEqual(['RequantizedGemm']);
    expect(after.initializers[after.nodes[0].inputs[2]].shape).toEqual([]);
  });
});
