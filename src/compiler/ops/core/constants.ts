// Reading compile-time constant inputs (shapes, axes, pads, slice bounds) during inference.
import { fail } from '../../../common/errors';
import type { InferArgs } from '../types';

/** The integer values of constant input i, or an error saying it must be constant. */
export function constInts(a: InferArgs<unknown>, i: number, what: string): number[] {
  const c = a.constant(i);
  if (!c)
    fail('bad-graph', `${what} (input ${i}, '${a.node.inputs[i]}') must be a constant (an initializer or a Constant node)`, a.where,
      'the reference interpreter needs static shapes; fold the computation that produces it');
  return Array.from(c.data);
}

/** Like constInts, but undefined when the optional input is omitted. */
export function optConstInts(a: InferArgs<unknown>, i: number, what: string): number[] | undefined {
  if (!a.node.inputs[i]) return undefined;
  return constInts(a, i, what);
}
