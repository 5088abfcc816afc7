// skip-empty-concat: Concat inputs with no elements contribute nothing (a prefill run's empty KV
// cache); they are dropped, and a Concat left with one input is a copy, which goes too.
import { numel } from '../../ops/core/tensor';
import { definePass } from '../define';

export const skipEmptyConcat = definePass({
  name: 'skip-empty-concat',
  doc: 'Drops empty inputs of Concat (an empty KV cache); a Concat left with one input is removed.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'Concat') continue;
      const kept = n.inputs.filter((i) => i && numel(ed.shape(i)) > 0);
      if (kept.length === n.inputs.length || kept.length === 0) continue;
      if (kept.length === 1 && ed.bypass(n, kept[0])) continue;
      ed.update(n, { inputs: kept });
    }
  },
});
