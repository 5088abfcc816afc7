// duplicate-shared-constants: a constant read by several nodes gets one copy per node, so later
// passes can re-lay out or fold one node's weights and requant parameters without touching
// another's (quantlib shares e.g. one requant 'add' among hundreds of RequantShifts).
import { own, put } from '../../../common/own';
import { definePass } from '../define';

export const duplicateSharedConstants = definePass({
  name: 'duplicate-shared-constants',
  doc: 'Gives every node its own copy of each constant it reads (shared weights and requant parameters are split).',
  rewrite(ed) {
    for (const name of Object.keys(ed.initializers)) {
      if (!ed.isConst(name) || ed.isGraphOutput(name)) continue;
      const readers = ed.consumers(name);
      for (const n of readers.slice(1)) {
        const init = own(ed.initializers, name);
        const copy = ed.ctx.fresh(name);
        put(ed.initializers, copy, { ...init, name: copy }); // the data array is shared: constants are immutable
        ed.update(n, { inputs: n.inputs.map((i) => (i === name ? copy : i)) });
      }
    }
  },
});
