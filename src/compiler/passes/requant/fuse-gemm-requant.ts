// fuse-gemm-requant: Gemm or MatMul followed by its requant becomes one RequantizedGemm:
// inputs [A, B, C', mul'] with C' = beta*C*mul + add + 2^(s-1) (no C: add + 2^(s-1)) and
// mul' = alpha*mul; batched MatMuls stay batched.
import { readAttrs, whereNode } from '../../ops/types';
import { Gemm } from '../../ops/matmul';
import { definePass } from '../define';
import { aligned, combine, half, intAttr, requantOutAttrs, squeezeLeading } from '../params';
import { fuseWithRequant } from './fuse';

export const fuseGemmRequant = definePass({
  name: 'fuse-gemm-requant',
  doc: "Fuses Gemm/MatMul with the RequantShift after it into RequantizedGemm (C' = C*mul + add + 2^(s-1)).",
  rewrite(ed) {
    fuseWithRequant(ed, ['Gemm', 'MatMul'], (op, rq) => {
      const y = ed.shape(op.outputs[0]);
      const g = op.op === 'Gemm' ? readAttrs(op, Gemm.attrs, whereNode(op)) : { alpha: 1, beta: 1, transA: 0, transB: 0 };
      if (!Number.isInteger(g.alpha) || !Number.isInteger(g.beta)) return undefined;
      const c = op.inputs[2] ? ed.constant(op.inputs[2]) : undefined;
      if (op.inputs[2] && !c) return undefined;
      const h = half(rq.shift);
      const cPrime = c ? combine(y, [rq.add, rq.mul, c], (a, m, cv) => g.beta * cv * m + a + h) : combine(y, [rq.add], (a) => a + h);
      const mul = combine(y, [rq.mul], (m) => m * g.alpha);
      if (!cPrime || !mul) return undefined;
      return {
        name: op.name, op: 'RequantizedGemm', domain: '',
        inputs: [op.inputs[0], op.inputs[1],
          ed.addConst(`${op.name}_C`, cPrime, ed.dtype(rq.node.inputs[2])),
          ed.addConst(`${op.name}_mul`, squeezeLeading(aligned(mul, y)), ed.dtype(rq.node.inputs[1]))],
        attrs: { transA: intAttr(g.transA), transB: intAttr(g.transB), ...requantOutAttrs(rq) },
      };
    });
  },
});
