// drop-empty-bias: a Conv or Gemm bias with no elements, or only zeros, adds nothing; the input
// is dropped so the kernel without bias is bound.
import { definePass } from '../define';

export const dropEmptyBias = definePass({
  name: 'drop-empty-bias',
  doc: 'Removes Conv/Gemm bias inputs that are empty or all zeros.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if ((n.op !== 'Conv' && n.op !== 'Gemm') || !n.inputs[2]) continue;
      const b = ed.constant(n.inputs[2]);
      if (!b || b.data.some((v) => v !== 0)) continue;
      ed.update(n, { inputs: n.inputs.slice(0, 2) });
    }
  },
});
