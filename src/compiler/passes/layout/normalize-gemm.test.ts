import { describe, expect, it } from 'vitest';
import { checkPasses, GraphBuilder, opsOf } from '../testing';
import { fuseGemmRequant } from '../requant/fuse-gemm-requant';
import { normalizeGemm } from './normalize-gemm';

describe('normalize-gemm', () => {
  it('transposes constant weights directly (transB 0 -> 1) and activations through a Transpose', () => {
    const b = new GraphBuilder();
    const w = b.requant(b.node('MatMul', [b.input('x', [1, 3, 8]), b.init('w', [8, 5])]), 8);
    b.output(b.requant(b.node('MatMul', [b.input('q', [2, 3, 4]), b.input('k', [2, 4, 6])]), 8));
    b.output(w);
    const { after } = checkPasses([fuseGemmRequant, normalizeGemm], b.build());
    expect(opsOf(after)).toEqual(['RequantizedGemm', 'Transpose', 'RequantizedGemm']);
    for (const n of after.nodes.filter((x) => x.op === 'RequantizedGemm')) {
      expect(n.attrs.transA).toEqual({ kind: 'int', value: 0 });
      expect(n.attrs.transB).toEqual({ kind: 'int', value: 1 });
    }
    expect(after.initializers[after.nodes[0].inputs[1]].shape).toEqual([5, 8]);
    expect(after.nodes[1].attrs.perm).toEqual({ kind: 'ints', value: [0, 2, 1] });
  });
});
