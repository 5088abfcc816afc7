// squash-transposes-around-add: an elementwise op whose two inputs are both Transposes with the
// same permutation (and same shape) computes the same on the untransposed inputs, followed by
// one Transpose: op(T(a), T(b)) = T(op(a, b)). Two Transposes become one, which can then cancel
// against the next layer's (RequantizedAdd between two NHWC convs, the residual of MobileNetV2).
import { sameShape } from '../../ops/core/tensor';
import { definePass } from '../define';
import { permOf, transposeNode } from './perm';

const ELEMENTWISE = ['RequantizedAdd', 'Add', 'Sub', 'Mul'];

export const squashTransposesAroundAdd = definePass({
  name: 'squash-transposes-around-add',
  doc: 'Moves identical Transposes on both inputs of RequantizedAdd (or Add/Sub/Mul) to its output: two Transposes become one.',
  fixpoint: true,
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!ELEMENTWISE.includes(n.op) || n.inputs.length !== 2) continue;
      const [ta, tb] = n.inputs.map((i) => ed.producer(i));
      if (ta?.op !== 'Transpose' || tb?.op !== 'Transpose') continue;
      if (ed.soleConsumer(ta.outputs[0]) !== n || ed.soleConsumer(tb.outputs[0]) !== n) continue;
      const a = ta.inputs[0], b = tb.inputs[0];
      const pa = permOf(ta, ed.shape(a).length), pb = permOf(tb, ed.shape(b).length);
      if (pa.join() !== pb.join() || !sameShape(ed.shape(a), ed.shape(b))) continue;
      const y = n.outputs[0];
      const inner = ed.tensor(`${y}_pre`, { dtype: ed.dtype(y), shape: ed.shape(a) });
      ed.remove(ta);
      if (tb !== ta) ed.remove(tb);
      ed.replace(n, [{ ...n, inputs: [a, b], outputs: [inner] }, { ...transposeNode(ed, inner, y, pa), name: ed.ctx.fresh(ta.name) }], ta === tb ? [ta] : [ta, tb]);
    }
  },
});
