// split-requant-per-consumer: a RequantShift read by several nodes, one of them an Add or a
// Concat, is copied once per reader, so each Add can absorb its own input requant (and each
// Concat input keep its own) in the fusions that follow. A requant that its producer will
// absorb (a Conv, Gemm, MatMul, Add or activation right before it) is left whole: the fused
// op's output is already requantized, and the Add reads it as is.
import { definePass } from '../define';
import { readRequant } from '../params';

/** Ops that fuse with the requant after them (see the fuse-* and merge-* passes). */
const FUSES_WITH_NEXT_REQUANT = ['Conv', 'Gemm', 'MatMul', 'Add', 'iHardswish', 'iGELU', 'IntegerDiv', 'TrueIntegerDiv'];

export const splitRequantPerConsumer = definePass({
  name: 'split-requant-per-consumer',
  doc: 'Copies a requant read by several nodes (one of them an Add or Concat) once per reader, so each can absorb its own; requants their producer absorbs stay whole.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!readRequant(ed, n)) continue;
      const out = n.outputs[0];
      const readers = ed.consumers(out);
      if (readers.length < 2 || !readers.some((r) => r.op === 'Add' || r.op === 'Concat')) continue;
      const p = ed.producer(n.inputs[0]);
      if (p && FUSES_WITH_NEXT_REQUANT.includes(p.op) && ed.soleConsumer(n.inputs[0]) === n) continue;
      for (const r of readers.slice(ed.isGraphOutput(out) ? 0 : 1)) {
        const t = ed.tensor(out, ed.type(out)!);
        const copy = { ...n, name: ed.ctx.fresh(n.name), outputs: [t] };
        ed.insert(copy, [n], n);
        ed.update(r, { inputs: r.inputs.map((i) => (i === out ? t : i)) });
      }
    }
  },
});
