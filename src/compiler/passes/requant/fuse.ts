// The shape shared by the "op + RequantShift -> one node" passes: find an op whose only reader
// is a RequantShift with constant parameters, and replace both by one fused node.
import type { Node } from '../../ir/graph';
import type { Editor } from '../editor';
import { readRequant, type Requant } from '../params';

/**
 * For every node with op in `ops` whose output's sole reader is a requant, calls build();
 * a returned node replaces the pair (it takes the requant's output, provenance from both).
 */
export function fuseWithRequant(ed: Editor, ops: readonly string[],
  build: (op: Node, rq: Requant) => Omit<Node, 'outputs'> | undefined): void {
  for (const op of ed.each()) {
    if (!ops.includes(op.op) || op.outputs.length !== 1) continue;
    const rq = readRequant(ed, ed.soleConsumer(op.outputs[0]));
    if (!rq || rq.node.inputs[0] !== op.outputs[0]) continue;
    const fused = build(op, rq);
    if (!fused) continue;
    ed.remove(rq.node);
    ed.replace(op, [{ ...fused, outputs: [...rq.node.outputs] }], [rq.node]);
  }
}
