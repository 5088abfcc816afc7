// gemm-to-pointwise-conv (N-EUREKA): a linear layer is a 1x1 convolution. A RequantizedGemm
// with constant weights B [N, K] (transB = 1) becomes a 1x1 RequantizedConv in NHWC over the
// rows of A seen as pixels: A [..., M, K] -> Reshape [1, 1, P, K] -> conv with W [N, 1, 1, K]
// -> Reshape back to [..., M, N]. Per-column (or scalar) requant parameters become per-channel.
import type { Node } from '../../ir/graph';
import { numel } from '../../ops/core/tensor';
import { definePass } from '../define';
import { aligned, intAttr, intsAttr, squeezeLeading } from '../params';
import { reshapeNode } from './reshape';

/** The output requant attributes a fused node carries (shift or div, levels, signedness). */
function requantAttrsOf(n: Node): Node['attrs'] {
  const out: Node['attrs'] = {};
  for (const k of ['shift', 'div', 'n_levels', 'n_levels_out', 'signed']) if (n.attrs[k]) out[k] = n.attrs[k];
  return out;
}

const int = (n: Node, k: string) => (n.attrs[k]?.kind === 'int' ? (n.attrs[k].value as number) : 0);

export const gemmToPointwiseConv = definePass({
  name: 'gemm-to-pointwise-conv',
  doc: 'Turns RequantizedGemms with constant weights (linear layers) into 1x1 RequantizedConvs in NHWC, wrapped in Reshapes, for N-EUREKA.',
  rewrite(ed) {
    for (const n of ed.each()) {
      if (n.op !== 'RequantizedGemm' || int(n, 'transA') !== 0 || int(n, 'transB') !== 1) continue;
      const [a, b, c, mul] = n.inputs;
      const B = ed.constant(b);
      const as = ed.shape(a), y = ed.shape(n.outputs[0]);
      if (!B || as.length < 2 || numel(B.shape.slice(0, -2)) !== 1) continue;
      const [N, K] = B.shape.slice(-2);
      // Requant parameters must be per output column (the conv's channel) or scalar.
      const perColumn = [c, mul].map((t) => squeezeLeading(aligned(ed.constant(t)!, y)));
      if (perColumn.some((p) => p.shape.length > 1 || (p.shape.length === 1 && p.shape[0] !== N))) continue;
      const P = numel(as) / K;
      const xs = ed.tensor(`${a}_pixels`, { dtype: ed.dtype(a), shape: [1, 1, P, K] });
      const ys = ed.tensor(`${n.outputs[0]}_pixels`, { dtype: ed.dtype(n.outputs[0]), shape: [1, 1, P, N] });
      const w = ed.addConst(`${b}_1x1`, { shape: [N, 1, 1, K], data: B.data }, ed.dtype(b));
      const [cc, mm] = perColumn.map((p, i) => ed.addConst(`${n.name}_${i ? 'mul' : 'add'}`, p, ed.dtype([c, mul][i])));
      const conv: Node = {
        name: n.name, op: 'RequantizedConv', domain: '', inputs: [xs, w, mm, cc], outputs: [ys],
        attrs: { kernel_shape: intsAttr([1, 1]), strides: intsAttr([1, 1]), pads: intsAttr([0, 0, 0, 0]), dilations: intsAttr([1, 1]),
          group: intAttr(1), channels_first: intAttr(0), ...requantAttrsOf(n) },
      };
      ed.replace(n, [reshapeNode(ed, ed.ctx.fresh(`${n.name}_to_pixels`), a, xs, [1, 1, P, K]), conv,
        reshapeNode(ed, ed.ctx.fresh(`${n.name}_from_pixels`), ys, n.outputs[0], y)]);
    }
  },
});
