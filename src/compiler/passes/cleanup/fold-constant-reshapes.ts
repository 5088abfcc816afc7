// fold-constant-reshapes: a Reshape (Flatten, Squeeze, Unsqueeze) of a constant is stored as
// the constant in its new shape.
import { definePass } from '../define';
import { RESHAPES } from '../layout/reshape';

export const foldConstantReshapes = definePass({
  name: 'fold-constant-reshapes',
  doc: 'Replaces Reshapes of constants by the reshaped constants.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!RESHAPES.includes(n.op) || ed.isGraphOutput(n.outputs[0])) continue;
      const c = ed.constant(n.inputs[0]);
      if (!c) continue;
      const t = ed.addConst(`${n.inputs[0]}_reshaped`, { shape: ed.shape(n.outputs[0]), data: c.data }, ed.dtype(n.inputs[0]));
      ed.remove(n);
      ed.replaceUses(n.outputs[0], t);
    }
  },
});
