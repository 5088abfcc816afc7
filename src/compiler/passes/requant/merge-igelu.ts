// merge-igelu: iGELU followed by its requant becomes one RequantizediGELU node
// (inputs [x, mul, add]; the fused op adds the rounding 2^(s-1) itself).
import { definePass } from '../define';
import { requantOutAttrs } from '../params';
import { fuseWithRequant } from './fuse';

export const mergeIGelu = definePass({
  name: 'merge-igelu',
  doc: 'Fuses iGELU and the RequantShift after it into RequantizediGELU.',
  rewrite(ed) {
    fuseWithRequant(ed, ['iGELU'], (op, rq) => ({
      name: op.name, op: 'RequantizediGELU', domain: op.domain,
      inputs: [op.inputs[0], rq.node.inputs[1], rq.node.inputs[2]],
      attrs: { b: op.attrs.b, one: op.attrs.one, ...requantOutAttrs(rq) },
    }));
  },
});
