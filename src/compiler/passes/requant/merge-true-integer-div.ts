// merge-true-integer-div: TrueIntegerDiv multiplies by coeff = floor(Delta*eta / (y*eta + eps));
// the RequantShift after it multiplies again, so the two multiplications become one:
// RQ(x*coeff; mul, add) = RQ(x; mul*coeff, add), exactly, and the division node disappears.
// (Deeploy also scales mul and div by 2^8, which changes no value.)
import { fits } from '../../ops/core/exact';
import { TrueIntegerDiv, trueDivCoeff } from '../../ops/integer-div';
import { readAttrs, whereNode } from '../../ops/types';
import { definePass } from '../define';
import { readRequant } from '../params';

export const mergeTrueIntegerDiv = definePass({
  name: 'merge-true-integer-div',
  doc: "Folds TrueIntegerDiv's constant multiplier into the RequantShift that follows it (mul' = mul*coeff).",
  rewrite(ed) {
    for (const div of ed.each()) {
      if (div.op !== 'TrueIntegerDiv') continue;
      const rq = readRequant(ed, ed.soleConsumer(div.outputs[0]));
      if (!rq) continue;
      const coeff = trueDivCoeff(readAttrs(div, TrueIntegerDiv.attrs, whereNode(div)), whereNode(div));
      const mul = rq.mul.data.map((m) => m * coeff);
      if (mul.some((m) => !fits(Math.abs(m)))) continue;
      const mulName = ed.addConst(`${rq.node.name}_mul`, { shape: rq.mul.shape, data: mul }, ed.dtype(rq.node.inputs[1]));
      ed.remove(div);
      ed.replace(rq.node, [{ ...rq.node, inputs: [div.inputs[0], mulName, rq.node.inputs[2]] }], [div]);
    }
  },
});
