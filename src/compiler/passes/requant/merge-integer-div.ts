// merge-integer-div: IntegerDiv followed by its requant becomes one RQIntegerDiv node
// (inputs [A, B, mul, add]), which computes exactly the pair.
import { definePass } from '../define';
import { requantOutAttrs } from '../params';
import { fuseWithRequant } from './fuse';

export const mergeIntegerDiv = definePass({
  name: 'merge-integer-div',
  doc: 'Fuses IntegerDiv and the RequantShift after it into RQIntegerDiv.',
  rewrite(ed) {
    fuseWithRequant(ed, ['IntegerDiv'], (div, rq) => ({
      name: div.name, op: 'RQIntegerDiv', domain: div.domain,
      inputs: [div.inputs[0], div.inputs[1], rq.node.inputs[1], rq.node.inputs[2]],
      attrs: { Delta: div.attrs.Delta, eps: div.attrs.eps, eta: div.attrs.eta, ...requantOutAttrs(rq) },
    }));
  },
});
