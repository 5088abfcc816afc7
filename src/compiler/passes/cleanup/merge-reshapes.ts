// merge-reshapes: a Reshape of a Reshape (or Flatten, Squeeze, Unsqueeze) is one Reshape to
// the final shape; a Reshape to the shape it already has goes.
import { sameShape } from '../../ops/core/tensor';
import { definePass } from '../define';
import { RESHAPES, reshapeNode } from '../layout/reshape';

export const mergeReshapes = definePass({
  name: 'merge-reshapes',
  doc: 'Collapses chains of Reshapes into one Reshape, and removes Reshapes that keep the shape.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!RESHAPES.includes(n.op)) continue;
      const p = ed.producer(n.inputs[0]);
      const x = p && RESHAPES.includes(p.op) ? p.inputs[0] : n.inputs[0];
      const y = ed.shape(n.outputs[0]);
      if (sameShape(ed.shape(x), y) && ed.bypass(n, x)) continue;
      if (x !== n.inputs[0]) ed.replace(n, [reshapeNode(ed, n.name, x, n.outputs[0], y)], [p!]);
    }
    if (ed.changed) ed.removeDead();
  },
});
