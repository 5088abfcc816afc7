// split-transposes-per-consumer: a Transpose read by several nodes is copied once per reader,
// so each copy can cancel against its reader's own Transpose or be squashed independently.
import { definePass } from '../define';

export const splitTransposesPerConsumer = definePass({
  name: 'split-transposes-per-consumer',
  doc: 'Copies a Transpose read by several nodes once per reader, so each copy can cancel or move on its own.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'Transpose') continue;
      const out = n.outputs[0];
      const readers = ed.consumers(out);
      if (readers.length + (ed.isGraphOutput(out) ? 1 : 0) < 2) continue;
      for (const r of readers.slice(ed.isGraphOutput(out) ? 0 : 1)) {
        const t = ed.tensor(out, ed.type(out)!);
        ed.insert({ ...n, name: ed.ctx.fresh(n.name), outputs: [t] }, [n], n);
        ed.update(r, { inputs: r.inputs.map((i) => (i === out ? t : i)) });
      }
    }
  },
});
