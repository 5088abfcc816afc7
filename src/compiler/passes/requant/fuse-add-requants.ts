// fuse-add-requants: an Add whose result is requantized becomes RequantizedAdd, absorbing the
// scalar requants on its inputs (when the Add is their only reader) and on its output:
// y = RQout(RQ1(a) + RQ2(b)). An input without a requant gets an identity part (mul 1, shift 0)
// when its values already fit 8 bits, so the 8-bit kernel's input clip changes nothing.
import type { Attr, Node } from '../../ir/graph';
import { definePass } from '../define';
import type { Editor } from '../editor';
import { half, readRequant, scalarValue, type Requant } from '../params';
import { valueRanges, type Range } from '../ranges';

interface Part { mul: number; add: number; shift: number; nLevels: number; signed: boolean }

function scalarPart(rq: Requant): Part | undefined {
  const mul = scalarValue(rq.mul), add = scalarValue(rq.add);
  if (mul === undefined || add === undefined) return undefined;
  return { mul, add: add + half(rq.shift), shift: rq.shift, nLevels: rq.nLevels, signed: rq.signed };
}

function identityPart(r: Range | undefined): Part | undefined {
  if (!r) return undefined;
  if (r[0] >= -128 && r[1] <= 127) return { mul: 1, add: 0, shift: 0, nLevels: 256, signed: true };
  if (r[0] >= 0 && r[1] <= 255) return { mul: 1, add: 0, shift: 0, nLevels: 256, signed: false };
  return undefined;
}

function partAttrs(key: string, p: Part): Record<string, Attr> {
  const i = (value: number): Attr => ({ kind: 'int', value });
  return { [`${key}_mul`]: i(p.mul), [`${key}_add`]: i(p.add), [`${key}_shift`]: i(p.shift),
    [`${key}_n_levels`]: i(p.nLevels), [`${key}_signed`]: i(p.signed ? 1 : 0) };
}

/** The part for one input: its own requant absorbed, or an identity part; and the tensor to read. */
function inputPart(ed: Editor, add: Node, t: string, ranges: Map<string, Range>): { part: Part; read: string; absorbed?: Node } | undefined {
  const rq = readRequant(ed, ed.producer(t));
  if (rq && ed.soleConsumer(t) === add) {
    const part = scalarPart(rq);
    if (part) return { part, read: rq.node.inputs[0], absorbed: rq.node };
  }
  const part = identityPart(ranges.get(t));
  return part && { part, read: t };
}

export const fuseAddRequants = definePass({
  name: 'fuse-add-requants',
  doc: 'Fuses an Add with the scalar requants on its inputs and output into RequantizedAdd.',
  rewrite(ed) {
    const ranges = valueRanges(ed.src);
    for (const add of ed.each()) {
      if (add.op !== 'Add' || add.inputs.some((i) => ed.isConst(i))) continue;
      const out = readRequant(ed, ed.soleConsumer(add.outputs[0]));
      const outPart = out && scalarPart(out);
      if (!out || !outPart) continue;
      const a = inputPart(ed, add, add.inputs[0], ranges);
      const b = add.inputs[1] === add.inputs[0] ? a : inputPart(ed, add, add.inputs[1], ranges);
      if (!a || !b) continue;
      const absorbed = [...new Set([a.absorbed, b.absorbed, out.node].filter((n): n is Node => !!n))];
      for (const n of absorbed) ed.remove(n);
      ed.replace(add, [{
        name: add.name, op: 'RequantizedAdd', domain: '', inputs: [a.read, b.read], outputs: [...out.node.outputs],
        attrs: { ...partAttrs('rqs1', a.part), ...partAttrs('rqs2', b.part), ...partAttrs('rqsOut', outPart) },
      }], absorbed);
    }
  },
});
