// drop-output-reshape: a Reshape that produces a graph output moves no data; the output is
// written directly in the Reshape's input shape. Element order and count stay the same, so the
// outputs still compare with outputs.npz element by element ("Errors: E out of T").
import { definePass } from '../define';
import { RESHAPES } from '../layout/reshape';

export const dropOutputReshape = definePass({
  name: 'drop-output-reshape',
  doc: 'Removes a Reshape that produces a graph output (same elements, same order); the output keeps its name.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!RESHAPES.includes(n.op) || !ed.isGraphOutput(n.outputs[0])) continue;
      const x = n.inputs[0], shape = ed.shape(x);
      if (ed.uses(n.outputs[0]) !== 1 || !ed.bypass(n)) continue;
      ed.outputs = ed.outputs.map((o) => (o.name === n.outputs[0] ? { ...o, shape: [...shape] } : o));
    }
  },
});
