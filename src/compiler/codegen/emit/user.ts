// Layers of user operators (the new-operator lab): the student's kernel, forked on every core
// with the template's arguments, after hal_guard_begin (to the end of the job) so that a write outside the
// layer's output buffer stops the run and names the layer, core, address and line.
import { fail } from '../../../common/errors';
import { own } from '../../../common/own';
import { binaryView, kernelName, kernelSignature } from '../../ops/user/kernel';
import { userOpOf } from '../../ops/user/session';
import { BYTES, lit } from '../ctypes';
import { input, noOffsets } from './common';
import type { Emitter, LayerSpec } from './types';

const numel = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

export const userEmitter: Emitter = {
  family: /^$/, // found by the node's op (emitterFor), not by a kernel name pattern
  offsets: 'none',
  emit(l: LayerSpec, out) {
    noOffsets(l);
    const op = userOpOf(l.node.domain, l.node.op);
    if (!op) return fail('internal', `${l.node.op} is not an installed user op`, l.where);
    const { spec } = op;
    const y = l.outs[0];
    const xs = spec.inputs.map((t, i) => input(l, i, `input '${t.name}'`));
    xs.forEach((t, i) => {
      if (t.type !== spec.inputs[i].dtype)
        fail('dtype-mismatch', `its input '${t.name}' is stored as ${t.type}; the ${spec.op} kernel takes ${spec.inputs[i].dtype}`, l.where);
    });
    if (y.type !== spec.output.dtype) fail('dtype-mismatch', `its output '${y.name}' is stored as ${y.type}; the ${spec.op} kernel writes ${spec.output.dtype}`, l.where);
    let shape: string[];
    switch (spec.shape) {
      case 'unary': shape = [String(numel(y.shape))]; break;
      case 'binary': {
        const v = binaryView(y.shape, xs[0].shape, xs[1].shape, l.where);
        shape = [v.rows, v.cols, ...v.strides].map(String);
        break;
      }
      case 'reduce-last': case 'row-last': {
        const x = xs[0].shape, cols = x[x.length - 1];
        shape = [String(numel(x) / cols), String(cols)];
        break;
      }
    }
    const attrs = spec.attrs.flatMap((a) => {
      const v = own(l.attrs, a.name);
      if (a.kind === 'int') return [lit(v as number)];
      const list = v as number[];
      return [out.constant(list, 'int32', `${l.id}_${a.name}`, l.where), String(list.length)];
    });
    out.decl(`${kernelSignature(spec)};`);
    const args = [...xs.map((t) => out.data(t)), out.data(y), ...shape, ...attrs];
    // The guard lasts to the end of the fork job (the step is the whole job): the kernel cannot end it.
    out.step([
      `hal_guard_begin(${l.index}, ${out.data(y)}, ${numel(y.shape) * BYTES[y.type]});`,
      `${kernelName(spec)}(${args.join(', ')});`,
    ].join('\n'));
  },
};
