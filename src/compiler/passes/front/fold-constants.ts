// fold-constants: a node whose inputs are all constants is evaluated now (with the reference
// semantics) and replaced by its result; Constant nodes become initializers.
import { put } from '../../../common/own';
import { fail } from '../../../common/errors';
import type { Node } from '../../ir/graph';
import { opFor } from '../../ops';
import type { IntTensor } from '../../ops/core/tensor';
import { readAttrs, whereNode } from '../../ops/types';
import { definePass } from '../define';
import type { Editor } from '../editor';

function inputsIfConstant(ed: Editor, n: Node, shapesOnly: boolean): (IntTensor | undefined)[] | undefined {
  const out: (IntTensor | undefined)[] = [];
  for (const i of n.inputs) {
    if (!i) { out.push(undefined); continue; }
    const c = ed.constant(i) ?? (shapesOnly && ed.type(i) ? { shape: ed.shape(i), data: new Float64Array(0) } : undefined);
    if (!c) return undefined;
    out.push(c);
  }
  return out;
}

export const foldConstants = definePass({
  name: 'fold-constants',
  doc: 'Evaluates nodes whose inputs are all constant (Constant nodes, shape arithmetic) and stores the results as constants.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.outputs.some((o) => !o || ed.isGraphOutput(o))) continue;
      const entry = opFor(n);
      if (entry.foldable === false) continue;
      const value = n.attrs.value;
      if (n.op === 'Constant' && value?.kind === 'tensor') {
        put(ed.initializers, n.outputs[0], { ...value.value, name: n.outputs[0] });
        ed.remove(n);
        continue;
      }
      const ins = inputsIfConstant(ed, n, !!entry.readsShapesOnly);
      if (!ins) continue;
      const where = whereNode(n);
      const types = n.outputs.map((o) => ed.type(o) ?? fail('internal', `no type for '${o}'`, where));
      let outs: IntTensor[];
      try {
        const opset = ed.src.opsets.find((o) => (o.domain === 'ai.onnx' ? '' : o.domain) === n.domain)?.version ?? 1;
        outs = entry.eval({ node: n, where, attrs: readAttrs(n, entry.attrs, where), inputs: ins, outputs: types, opset });
      } catch {
        continue; // not foldable here (e.g. a float constant): it runs at inference time
      }
      n.outputs.forEach((o, i) => ed.addConstNamed(o, outs[i], types[i].dtype));
      ed.remove(n);
    }
  },
});
