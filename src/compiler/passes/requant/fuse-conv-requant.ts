// fuse-conv-requant: Conv (+ bias) followed by its requant becomes one RequantizedConv:
// inputs [x, W, mul, add'] with add' = add + bias*mul + 2^(s-1) (the rounding folded into the
// add, as Deeploy's kernels expect), attribute shift = s.
import type { Attr } from '../../ir/graph';
import { definePass } from '../define';
import { aligned, combine, half, requantOutAttrs, squeezeLeading } from '../params';
import { fuseWithRequant } from './fuse';

const CONV_ATTRS = ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides', 'channels_first'];

export const fuseConvRequant = definePass({
  name: 'fuse-conv-requant',
  doc: "Fuses Conv (and its bias) with the RequantShift after it into RequantizedConv (add' = add + bias*mul + 2^(s-1)).",
  rewrite(ed) {
    fuseWithRequant(ed, ['Conv'], (conv, rq) => {
      const y = ed.shape(conv.outputs[0]);
      const bias = conv.inputs[2] ? ed.constant(conv.inputs[2]) : undefined;
      if (conv.inputs[2] && !bias) return undefined;
      const h = half(rq.shift);
      // The bias is per output channel (axis 1): line it up like a per-channel parameter.
      const params = bias ? [rq.add, rq.mul, { shape: [bias.data.length, ...y.slice(2).map(() => 1)], data: bias.data }] : [rq.add];
      const add = combine(y, params, (a, m = 0, b = 0) => a + b * m + h);
      if (!add) return undefined;
      const attrs: Record<string, Attr> = {};
      for (const k of CONV_ATTRS) if (conv.attrs[k]) attrs[k] = conv.attrs[k];
      return {
        name: conv.name, op: 'RequantizedConv', domain: '',
        inputs: [conv.inputs[0], conv.inputs[1],
          ed.addConst(`${conv.name}_mul`, squeezeLeading(aligned(rq.mul, y)), ed.dtype(rq.node.inputs[1])),
          ed.addConst(`${conv.name}_add`, add, ed.dtype(rq.node.inputs[2]))],
        attrs: { ...attrs, ...requantOutAttrs(rq) },
      };
    });
  },
});
