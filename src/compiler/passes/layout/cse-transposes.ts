// cse-transposes: Transposes (and Reshapes) of the same tensor with the same permutation
// (shape) compute the same thing; one is kept and the others' readers read it. In microLlama
// the RoPE matrix is transposed once instead of once per attention head projection.
import { definePass } from '../define';
import { permOf } from './perm';
import { RESHAPES } from './reshape';

export const cseTransposes = definePass({
  name: 'cse-transposes',
  doc: 'Merges identical Transposes and Reshapes of the same tensor into one.',
  rewrite(ed) {
    const seen = new Map<string, string>();
    for (const n of ed.each()) {
      let key: string;
      if (n.op === 'Transpose') key = `T|${n.inputs[0]}|${permOf(n, ed.shape(n.inputs[0]).length).join()}`;
      else if (RESHAPES.includes(n.op)) key = `R|${n.inputs[0]}|${ed.shape(n.outputs[0]).join()}`;
      else continue;
      const first = seen.get(key);
      if (first === undefined) { seen.set(key, n.outputs[0]); continue; }
      if (ed.isGraphOutput(n.outputs[0])) continue;
      ed.remove(n);
      ed.replaceUses(n.outputs[0], first);
    }
  },
});
