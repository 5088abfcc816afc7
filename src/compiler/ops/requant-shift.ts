// RequantShift: the quantizer's integer rescale, y = clip(floor((x*mul + add) / div + 1/2)).
import type { TensorType } from '../ir/graph';
import { numeric } from './core/dtypes';
import { levelsRange, paramLayout, requantize, shiftOfDiv } from './core/requant';
import { defineOp, DEEPLOY_DOMAINS, reqInt } from './types';
import { elementwiseRule } from '../tiling/rules';

export const requantAttrs = {
  div: reqInt({ doc: 'a power of two 2^s' }),
  n_levels: reqInt({ aliases: ['n_levels_out'] }),
  signed: reqInt(),
};

export const RequantShift = defineOp({
  ops: ['RequantShift'],
  tiling: elementwiseRule,
  domains: DEEPLOY_DOMAINS,
  summary: 'y = clip((x*mul + add + 2^(s-1)) >> s) with div = 2^s (round half up); mul/add scalar, broadcast or per channel (axis 1)',
  inputs: [{ name: 'data_in' }, { name: 'mul' }, { name: 'add' }],
  outputs: ['data_out'],
  attrs: requantAttrs,
  infer: ({ inputs, attrs, where }): TensorType[] => {
    const [x, mul, add] = inputs.map((t, i) => numeric(t!, ['the input', 'mul', 'add'][i], where));
    shiftOfDiv(attrs.div, where);
    levelsRange(attrs.n_levels, !!attrs.signed, where);
    paramLayout(mul.shape, x.shape, 'mul', where);
    paramLayout(add.shape, x.shape, 'add', where);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  eval: ({ inputs: [x, mul, add], attrs, where }) => {
    const [lo, hi] = levelsRange(attrs.n_levels, !!attrs.signed, where);
    return [requantize(x!, { mul: mul!, add: add!, shift: shiftOfDiv(attrs.div, where), round: true, lo, hi }, where)];
  },
});
