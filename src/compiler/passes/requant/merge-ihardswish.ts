// merge-ihardswish: iHardswish followed by a requant with scalar mul/add becomes one
// RequantizediHardswish node (mul and add are attributes; it adds the rounding itself).
import { definePass } from '../define';
import { intAttr, requantOutAttrs, scalarValue } from '../params';
import { fuseWithRequant } from './fuse';

export const mergeIHardswish = definePass({
  name: 'merge-ihardswish',
  doc: 'Fuses iHardswish and a scalar RequantShift after it into RequantizediHardswish.',
  rewrite(ed) {
    fuseWithRequant(ed, ['iHardswish'], (op, rq) => {
      const mul = scalarValue(rq.mul), add = scalarValue(rq.add);
      if (mul === undefined || add === undefined) return undefined;
      return {
        name: op.name, op: 'RequantizediHardswish', domain: op.domain, inputs: [op.inputs[0]],
        attrs: { one_over_six: op.attrs.one_over_six, three: op.attrs.three, six: op.attrs.six,
          mul: intAttr(mul), add: intAttr(add), ...requantOutAttrs(rq) },
      };
    });
  },
});
