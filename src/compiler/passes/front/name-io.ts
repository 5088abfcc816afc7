// name-io: graph inputs become input_0, input_1, ... and outputs output_0, ... (by position,
// as inputs.npz / outputs.npz map to them), so the generated code's I/O buffers have stable names.
import { definePass } from '../define';
import { tensorNames } from './sanitize-names';

export const nameIo = definePass({
  name: 'name-io',
  doc: 'Names the graph inputs input_i and outputs output_i, by position (as the .npz arrays map to them).',
  rewrite(ed) {
    const map = new Map<string, string>();
    const inputNames = new Set(ed.inputs.map((v) => v.name));
    ed.inputs.forEach((v, i) => map.set(v.name, `input_${i}`));
    ed.outputs.forEach((v, i) => {
      // A tensor that is both an input and an output, or an output listed twice, keeps its name.
      if (inputNames.has(v.name) || ed.outputs.filter((o) => o.name === v.name).length > 1) return;
      map.set(v.name, `output_${i}`);
    });
    for (const [from, to] of [...map]) if (from === to) map.delete(from);
    // Other tensors already called input_i / output_i step aside.
    const targets = new Set(map.values());
    const names = new Set(tensorNames(ed));
    for (const t of names) {
      if (!targets.has(t) || map.has(t)) continue;
      let s = `${t}_`;
      for (let k = 1; names.has(s) || targets.has(s); k++) s = `${t}_${k}`;
      map.set(t, s);
    }
    ed.renameTensors(map);
  },
});
