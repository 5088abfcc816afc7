// normalize-gemm: Siracusa's RequantizedGemm kernel takes A as [M, K] and B as [N, K]
// (transA = 0, transB = 1). Other flags are normalised by transposing the operand: constant
// weights are transposed now, activations get a Transpose node (which later passes may cancel).
import { definePass } from '../define';
import { intAttr } from '../params';
import { swapLastTwo, transposed } from './perm';

export const normalizeGemm = definePass({
  name: 'normalize-gemm',
  doc: 'Normalises RequantizedGemm to transA = 0, transB = 1 by transposing its operands (constants directly, activations by Transpose nodes).',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'RequantizedGemm') continue;
      const transA = n.attrs.transA?.kind === 'int' ? n.attrs.transA.value : 0;
      const transB = n.attrs.transB?.kind === 'int' ? n.attrs.transB.value : 0;
      const ra = ed.shape(n.inputs[0]).length, rb = ed.shape(n.inputs[1]).length;
      const fixA = transA !== 0 && ra >= 2, fixB = transB === 0 && rb >= 2;
      if (!fixA && !fixB) continue;
      const a = fixA ? transposed(ed, n.inputs[0], swapLastTwo(ra), n) : n.inputs[0];
      const b = fixB ? transposed(ed, n.inputs[1], swapLastTwo(rb), n) : n.inputs[1];
      ed.update(ed.node(n.name)!, {
        inputs: [a, b, ...n.inputs.slice(2)],
        attrs: { ...n.attrs, transA: intAttr(fixA ? 0 : transA), transB: intAttr(fixB ? 1 : transB) },
      });
    }
  },
});
