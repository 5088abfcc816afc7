// merge-matmul-add: MatMul of 2-D operands followed by an Add of a constant becomes one Gemm
// with C = the constant (Deeploy's Generic kernels compute the bias inside the GEMM loop).
import { sameShape } from '../../ops/core/tensor';
import { definePass } from '../define';

export const mergeMatMulAdd = definePass({
  name: 'merge-matmul-add',
  doc: 'Merges a 2-D MatMul and the constant Add after it into a Gemm with bias C.',
  rewrite(ed) {
    for (const mm of ed.each()) {
      if (mm.op !== 'MatMul') continue;
      const [a, b] = mm.inputs;
      if (ed.shape(a).length !== 2 || ed.shape(b).length !== 2) continue;
      const add = ed.soleConsumer(mm.outputs[0]);
      if (add?.op !== 'Add') continue;
      const c = add.inputs[0] === mm.outputs[0] ? add.inputs[1] : add.inputs[0];
      if (!ed.isConst(c) || !sameShape(ed.shape(add.outputs[0]), ed.shape(mm.outputs[0]))) continue;
      ed.remove(add);
      ed.replace(mm, [{ name: mm.name, op: 'Gemm', domain: '', inputs: [a, b, c], outputs: [...add.outputs],
        attrs: { alpha: { kind: 'float', value: 1 }, beta: { kind: 'float', value: 1 }, transA: { kind: 'int', value: 0 }, transB: { kind: 'int', value: 0 } } }], [add]);
    }
  },
});
