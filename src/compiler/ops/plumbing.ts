// Ops that move no arithmetic: Identity, Constant, Shape.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { toIntTensor } from './core/convert';
import { tensor } from './core/tensor';
import { defineOp, float, int, ints, ONNX_DOMAINS, tensorAttr, type AttrValues } from './types';

export const Identity = defineOp({
  ops: ['Identity'],
  domains: ONNX_DOMAINS,
  summary: 'y = x',
  inputs: [{ name: 'input' }],
  outputs: ['output'],
  attrs: {},
  infer: ({ inputs }) => [inputs[0]!],
  eval: ({ inputs }) => [inputs[0]!],
});

const constantAttrs = {
  value: tensorAttr(),
  value_int: int(),
  value_ints: ints(),
  value_float: float(),
};

function constantType(attrs: AttrValues<typeof constantAttrs>, where: string): TensorType {
  if (attrs.value) return { dtype: attrs.value.dtype, shape: [...attrs.value.shape] };
  if (attrs.value_int !== undefined) return { dtype: 'int64', shape: [] };
  if (attrs.value_ints !== undefined) return { dtype: 'int64', shape: [attrs.value_ints.length] };
  if (attrs.value_float !== undefined) return { dtype: 'float32', shape: [] };
  return fail('bad-graph', 'Constant has no value attribute (value, value_int, value_ints or value_float)', where);
}

export const Constant = defineOp({
  ops: ['Constant'],
  domains: ONNX_DOMAINS,
  summary: 'the tensor held in its value attribute',
  inputs: [],
  outputs: ['output'],
  attrs: constantAttrs,
  infer: ({ attrs, where }) => [constantType(attrs, where)],
  eval: ({ attrs, where }) => {
    if (attrs.value) return [toIntTensor(attrs.value.data, attrs.value.shape, 'the value attribute', where)];
    if (attrs.value_int !== undefined) return [tensor([], [attrs.value_int])];
    if (attrs.value_ints !== undefined) return [tensor([attrs.value_ints.length], attrs.value_ints)];
    const v = attrs.value_float!;
    if (!Number.isInteger(v)) fail('dtype-mismatch', `value_float = ${v} is not an integer`, where);
    return [tensor([], [v])];
  },
});

export const Shape = defineOp({
  ops: ['Shape'],
  domains: ONNX_DOMAINS,
  summary: 'the input shape as an int64 vector (optionally sliced by start/end)',
  inputs: [{ name: 'data' }],
  outputs: ['shape'],
  attrs: { start: int(0), end: int() },
  readsShapesOnly: true,
  infer: ({ inputs, attrs }) => [{ dtype: 'int64', shape: [sliceDims(inputs[0]!.shape, attrs.start, attrs.end).length] }],
  eval: ({ inputs, attrs }) => {
    const dims = sliceDims(inputs[0]!.shape, attrs.start, attrs.end);
    return [tensor([dims.length], dims)];
  },
});

function sliceDims(shape: number[], start: number, end: number | undefined): number[] {
  const r = shape.length;
  const clampAxis = (v: number) => Math.min(Math.max(v < 0 ? v + r : v, 0), r);
  return shape.slice(clampAxis(start), clampAxis(end ?? r));
}
