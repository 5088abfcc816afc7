// drop-singleton-reduce-mean: a mean over axes of size 1 is the value itself; the node becomes
// a Reshape (or disappears when the shape does not change).
import { numel, sameShape } from '../../ops/core/tensor';
import { definePass } from '../define';
import { reshapeNode } from '../layout/reshape';

export const dropSingletonReduceMean = definePass({
  name: 'drop-singleton-reduce-mean',
  doc: 'Replaces ReduceMean/IntegerMean over axes of size 1 by a Reshape (or nothing).',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'ReduceMean' && n.op !== 'IntegerMean') continue;
      const x = ed.shape(n.inputs[0]), y = ed.shape(n.outputs[0]);
      if (numel(x) !== numel(y) || numel(x) === 0) continue;
      if (sameShape(x, y) && ed.bypass(n)) continue;
      ed.replace(n, [reshapeNode(ed, n.name, n.inputs[0], n.outputs[0], y)]);
    }
  },
});
