// const-add-into-requant: Add(x, c) with a constant c, read only by a requant, disappears into
// the requant's add: RQ(x + c; mul, add) = RQ(x; mul, add + c*mul), exactly (a bias after a
// MatMul becomes part of the requant, and later of RequantizedGemm's C').
import { sameShape } from '../../ops/core/tensor';
import { definePass } from '../define';
import { combine, readRequant } from '../params';

export const constAddIntoRequant = definePass({
  name: 'const-add-into-requant',
  doc: "Folds an Add of a constant (a bias) into the RequantShift that reads it: add' = add + c*mul.",
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'Add') continue;
      const k = ed.isConst(n.inputs[1]) ? 1 : ed.isConst(n.inputs[0]) ? 0 : -1;
      if (k < 0 || ed.isConst(n.inputs[1 - k])) continue;
      const x = n.inputs[1 - k], c = ed.constant(n.inputs[k]);
      const rq = readRequant(ed, ed.soleConsumer(n.outputs[0]));
      if (!c || !rq) continue;
      const y = ed.shape(n.outputs[0]);
      if (!sameShape(ed.shape(x), y)) continue; // the constant must not broadcast x to a bigger shape
      const add = combine(y, [rq.add, c, rq.mul], (a, cv, m) => a + cv * m);
      if (!add) continue;
      const addName = ed.addConst(`${rq.node.name}_add`, add, ed.dtype(rq.node.inputs[2]));
      ed.remove(n);
      ed.replace(rq.node, [{ ...rq.node, inputs: [x, rq.node.inputs[1], addName] }], [n]);
    }
  },
});
