// fold-transposes-into-constants: a Transpose of a constant is computed now; the constant is
// stored in the permuted layout.
import { transposeData } from '../../ops/core/tensor';
import { definePass } from '../define';
import { permOf } from './perm';

export const foldTransposesIntoConstants = definePass({
  name: 'fold-transposes-into-constants',
  doc: 'Replaces Transposes of constants by the permuted constants.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'Transpose' || ed.isGraphOutput(n.outputs[0])) continue;
      const c = ed.constant(n.inputs[0]);
      if (!c) continue;
      const t = ed.addConst(`${n.inputs[0]}_T`, transposeData(c, permOf(n, c.shape.length)), ed.dtype(n.inputs[0]));
      ed.remove(n);
      ed.replaceUses(n.outputs[0], t);
    }
  },
});
