// type-inputs: graph inputs get the integer type their values need, as Deeploy types them:
// the smallest of uint8, int8, uint16, int16, uint32, int32 (unsigned first) holding the
// values of inputs.npz. Without values, an integer dtype declared by the file is kept and
// FLOAT inputs (the quantizer's export) are taken to be int8. Later passes rely on these
// ranges (a requant after a Concat of an int8 KV cache and int8 data clips nothing).
import type { DType } from '../../ir/graph';
import { DTYPES } from '../../ir/dtype';
import type { TensorValue } from '../../interpret/interpret';
import { toIntTensor } from '../../ops/core/convert';
import { definePass } from '../define';
import { INT_TYPES, rangeOfValues, type IntType } from '../ranges';

const UNSIGNED_FIRST: IntType[] = ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32'];

export type InputTypeSource = 'inputs.npz' | 'declared' | 'assumed int8';

/** The type of one graph input, from its values when given, else from its declared dtype. */
export function inputType(declared: DType, values?: TensorValue): { dtype: IntType; source: InputTypeSource } {
  const isInt = (d: string): d is IntType => (INT_TYPES as readonly string[]).includes(d);
  if (values) {
    const [lo, hi] = rangeOfValues(toIntTensor(values.data, values.shape, 'the array', 'inputs.npz', 'bad-inputs').data);
    // All zeros (or empty): the array's own dtype, when it is an integer type of at most 32 bits.
    if (lo === 0 && hi === 0) return { dtype: isInt(values.dtype) ? values.dtype : 'int8', source: 'inputs.npz' };
    const t = UNSIGNED_FIRST.find((d) => lo >= DTYPES[d].min! && hi <= DTYPES[d].max!);
    if (t) return { dtype: t, source: 'inputs.npz' };
  }
  if (isInt(declared)) return { dtype: declared, source: 'declared' };
  return { dtype: 'int8', source: 'assumed int8' };
}

export const typeInputs = definePass({
  name: 'type-inputs',
  doc: 'Types each graph input with the smallest integer type holding its values (inputs.npz), or int8 when no values are given.',
  rewrite(ed) {
    const values = ed.ctx.inputs;
    const typed = ed.inputs.map((v, i) => ({ ...v, dtype: inputType(v.dtype, values?.length === ed.inputs.length ? values[i] : undefined).dtype as DType }));
    if (typed.every((v, i) => v.dtype === ed.inputs[i].dtype)) return;
    ed.inputs = typed;
    ed.changed = true;
  },
});
