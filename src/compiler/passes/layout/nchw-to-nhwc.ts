// nchw-to-nhwc: Siracusa's conv, pooling and padding kernels work on channels-last data
// (PULP-NN, N-EUREKA). Each Conv / RequantizedConv / MaxPool / Pad gets channels_first = 0, a
// Transpose to NHWC on its input and one back to NCHW on its output (the clean-up passes cancel
// the pairs between consecutive layers); conv weights are permuted to [Co, kh, kw, Ci/g] and
// per-channel requant parameters follow the channel axis to the end.
//
// Deeploy keeps depthwise convs' input in CHW (its depthwise kernel reads CHW and writes HWC),
// which leaves a Transpose before every depthwise conv; here depthwise convs are HWC throughout
// like the others, so those Transposes cancel too (miniMobileNetv2: 2 Transposes instead of 5).
import type { Node } from '../../ir/graph';
import { definePass } from '../define';
import type { Editor } from '../editor';
import { aligned, intAttr } from '../params';
import { permuteParam, toChannelsFirst, toChannelsLast, transposed, transposeNode } from './perm';

const LAYOUT_OPS = ['Conv', 'RequantizedConv', 'MaxPool', 'Pad'];

function convert(ed: Editor, n: Node): void {
  const x = n.inputs[0], y = n.outputs[0];
  const r = ed.shape(x).length;
  const last = toChannelsLast(r), first = toChannelsFirst(r);
  const inputs = [...n.inputs];
  inputs[0] = transposed(ed, x, last, n, `${x}_nhwc`);
  if (n.op === 'Conv' || n.op === 'RequantizedConv') inputs[1] = transposed(ed, n.inputs[1], last, n, `${n.inputs[1]}_hwc`);
  if (n.op === 'RequantizedConv') {
    const ys = ed.shape(y);
    for (const k of [2, 3]) {
      const p = ed.constant(n.inputs[k])!;
      inputs[k] = ed.addConst(`${n.inputs[k]}_hwc`, permuteParam(aligned(p, ys), r, last), ed.dtype(n.inputs[k]));
    }
  }
  const yt = ed.type(y)!;
  const yNhwc = ed.tensor(`${y}_nhwc`, { dtype: yt.dtype, shape: last.map((i) => yt.shape[i]) });
  const back = transposeNode(ed, yNhwc, y, first);
  ed.replace(ed.node(n.name)!, [{ ...n, inputs, outputs: [yNhwc], attrs: { ...n.attrs, channels_first: intAttr(0) } }, back]);
}

export const nchwToNhwc = definePass({
  name: 'nchw-to-nhwc',
  doc: 'Moves Conv, RequantizedConv, MaxPool and Pad to channels-last (NHWC) with Transposes around them; conv weights become [Co, kh, kw, Ci].',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (!LAYOUT_OPS.includes(n.op)) continue;
      const cf = n.attrs.channels_first;
      if (cf && cf.kind === 'int' && cf.value === 0) continue;
      const r = ed.shape(n.inputs[0]).length;
      if (r < 3) continue;
      if (n.op === 'RequantizedConv' && !(ed.isConst(n.inputs[2]) && ed.isConst(n.inputs[3]))) continue;
      convert(ed, n);
    }
  },
});
