// extract-padding: Deeploy's Generic conv and pooling kernels take no padding; a Conv or
// MaxPool with pads reads an explicit Pad node instead. Conv pads with 0; MaxPool pads with the
// smallest value its input can hold (from the value ranges), so the padding never wins a max,
// exactly like ONNX's padding (which is skipped).
import type { Attr, Node } from '../../ir/graph';
import { readAttrs, whereNode } from '../../ops/types';
import { Conv, MaxPool } from '../../ops/conv';
import { windowGeometry } from '../../ops/core/window';
import { definePass } from '../define';
import type { Editor } from '../editor';
import { intsAttr } from '../params';
import { valueRanges } from '../ranges';

/** The explicit [begin..., end...] spatial pads of a Conv/MaxPool (auto_pad resolved). */
function spatialPads(ed: Editor, n: Node): number[] {
  const where = whereNode(n);
  const a = readAttrs(n, n.op === 'Conv' ? Conv.attrs : MaxPool.attrs, where) as Record<string, unknown>;
  const x = ed.shape(n.inputs[0]);
  const k = (a.kernel_shape as number[] | undefined) ?? ed.shape(n.inputs[1]).slice(2);
  const r = x.length - 2;
  const win = windowGeometry(x.slice(2), k, a as never, where);
  const begin = win.padBegin.slice(3 - r);
  // End pads: what makes the padded extent give the same output size.
  const y = ed.shape(n.outputs[0]).slice(2);
  const end = begin.map((b, i) => {
    const need = (y[i] - 1) * win.strides[3 - r + i] + (k[i] - 1) * win.dil[3 - r + i] + 1;
    return Math.max(0, need - x[2 + i] - b);
  });
  return [...begin, ...end];
}

export const extractPadding = definePass({
  name: 'extract-padding',
  doc: 'Moves the padding of Conv and MaxPool into explicit Pad nodes (0 for Conv, the input minimum for MaxPool).',
  rewrite(ed) {
    const ranges = valueRanges(ed.src);
    for (const n of ed.each()) {
      if (n.op !== 'Conv' && n.op !== 'MaxPool') continue;
      if (n.attrs.channels_first?.kind === 'int' && n.attrs.channels_first.value === 0) continue;
      const pads = spatialPads(ed, n);
      if (pads.every((p) => p === 0)) continue;
      let value = 0;
      if (n.op === 'MaxPool') {
        value = ranges.get(n.inputs[0])?.[0] ?? -Infinity;
        if (!Number.isFinite(value)) continue; // unknown range: keep the pooling's own padding
        if (n.attrs.ceil_mode?.kind === 'int' && n.attrs.ceil_mode.value) continue;
      }
      const x = n.inputs[0], xs = ed.shape(x), r = xs.length - 2;
      const full = [0, 0, ...pads.slice(0, r), 0, 0, ...pads.slice(r)];
      const padded = ed.tensor(`${x}_padded`, { dtype: ed.dtype(x), shape: xs.map((d, i) => d + full[i] + full[i + xs.length]) });
      // Opset 11 moved pads and the value from attributes to inputs.
      const opset = ed.src.opsets.find((o) => o.domain === '' || o.domain === 'ai.onnx')?.version ?? 1;
      const padAttrs: Record<string, Attr> = { mode: { kind: 'string', value: 'constant' } };
      const padInputs = [x];
      if (opset >= 11) {
        padInputs.push(ed.addConst(`${n.name}_pads`, { shape: [full.length], data: Float64Array.from(full) }, 'int64'),
          ed.addConst(`${n.name}_pad_value`, { shape: [], data: Float64Array.of(value) }, ed.dtype(x)));
      } else Object.assign(padAttrs, { pads: intsAttr(full), value: { kind: 'float', value } });
      const pad: Node = { name: ed.ctx.fresh(`${n.name}_pad`), op: 'Pad', domain: '', inputs: padInputs, outputs: [padded], attrs: padAttrs };
      const attrs: Record<string, Attr> = { ...n.attrs, pads: intsAttr(new Array<number>(2 * r).fill(0)) };
      delete attrs.auto_pad;
      ed.replace(n, [pad, { ...n, inputs: [padded, ...n.inputs.slice(1)], attrs }]);
    }
  },
});
