// Building Reshape nodes (their target shape is an int64 constant input).
import type { Node } from '../../ir/graph';
import type { Editor } from '../editor';

export function reshapeNode(ed: Editor, name: string, x: string, y: string, shape: number[]): Node {
  const s = ed.addConst(`${name}_shape`, { shape: [shape.length], data: Float64Array.from(shape) }, 'int64');
  return { name, op: 'Reshape', domain: '', inputs: [x, s], outputs: [y], attrs: {} };
}

/** Ops that only reinterpret the shape (no data moves). */
export const RESHAPES = ['Reshape', 'Flatten', 'Squeeze', 'Unsqueeze'];
