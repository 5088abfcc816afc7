// drop-identity: Identity nodes copy their input; readers read the input directly.
import { definePass } from '../define';

export const dropIdentity = definePass({
  name: 'drop-identity',
  doc: 'Removes Identity nodes: their readers read the original tensor (a graph output keeps its name).',
  rewrite(ed) {
    for (const n of ed.each()) if (n.op === 'Identity') ed.bypass(n);
  },
});
