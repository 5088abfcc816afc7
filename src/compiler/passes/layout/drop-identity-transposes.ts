// drop-identity-transposes: a Transpose with the identity permutation goes; one that only moves
// axes of size 1 moves no data and becomes a Reshape (which costs nothing: a buffer alias).
import { definePass } from '../define';
import { isIdentity, movesNoData, permOf } from './perm';
import { reshapeNode } from './reshape';

export const dropIdentityTransposes = definePass({
  name: 'drop-identity-transposes',
  doc: 'Removes identity Transposes; a Transpose that only moves size-1 axes becomes a Reshape.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'Transpose') continue;
      const shape = ed.shape(n.inputs[0]);
      const p = permOf(n, shape.length);
      if (isIdentity(p) && ed.bypass(n)) continue;
      if (!isIdentity(p) && movesNoData(shape, p)) ed.replace(n, [reshapeNode(ed, n.name, n.inputs[0], n.outputs[0], p.map((i) => shape[i]))]);
    }
  },
});
