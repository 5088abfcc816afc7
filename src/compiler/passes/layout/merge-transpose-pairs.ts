// merge-transpose-pairs: a Transpose of a Transpose is one Transpose with the composed
// permutation (the identity when they cancel, which drop-identity-transposes then removes).
import { definePass } from '../define';
import { intsAttr } from '../params';
import { compose, permOf } from './perm';

export const mergeTransposePairs = definePass({
  name: 'merge-transpose-pairs',
  doc: 'Merges a Transpose of a Transpose into one Transpose with the composed permutation.',
  rewrite(ed) {
    for (const t2 of ed.each()) {
      if (t2.op !== 'Transpose') continue;
      const t1 = ed.producer(t2.inputs[0]);
      if (t1?.op !== 'Transpose') continue;
      const x = t1.inputs[0];
      const p1 = permOf(t1, ed.shape(x).length), p2 = permOf(t2, p1.length);
      ed.replace(t2, [{ ...t2, inputs: [x], attrs: { ...t2.attrs, perm: intsAttr(compose(p1, p2)) } }], [t1]);
    }
    if (ed.changed) ed.removeDead();
  },
});
