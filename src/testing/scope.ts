// Which test folders today's playground runs end to end: integer networks of built-in ops, as
// Deeploy's integer CI runs them. The shared vectors also hold float32 and bfloat16 graphs and the
// float -> int8 boundary (issue 33), and the tutorial lab's one-node test of an op the student
// adds; those are 'outside' until the playground takes them, and scope.test.ts holds them to a
// clear refusal (a PlaygroundError naming the node, tensor or file) instead of a pass. Decided
// from each folder's content, never from a list of names. Node only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlaygroundError } from '../common/errors';
import type { TensorData } from '../compiler/ir/graph';
import { readNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { lookupOp } from '../compiler/ops';

export type Scope =
  | { inside: true }
  | { inside: false; why: string };

const integral = (d: TensorData): boolean => {
  if (!(d instanceof Float32Array || d instanceof Float64Array)) return true;
  for (let i = 0; i < d.length; i++) if (!Number.isInteger(d[i])) return false;
  return true;
};

const memo = new Map<string, Scope>();

/** Whether the folder is an integer network of built-in ops (its inputs and weights integral). */
export function scopeOf(dir: string): Scope {
  const hit = memo.get(dir);
  if (hit) return hit;
  const s = decide(dir);
  memo.set(dir, s);
  return s;
}

function decide(dir: string): Scope {
  let graph;
  try {
    graph = readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx');
  } catch (e) {
    if (e instanceof PlaygroundError) return { inside: false, why: e.message };
    throw e;
  }
  const unknown = graph.nodes.find((n) => !lookupOp(n.domain, n.op));
  if (unknown) return { inside: false, why: `op ${unknown.op} is not built in` };
  const weight = Object.entries(graph.initializers).find(([, t]) => !integral(t.data));
  if (weight) return { inside: false, why: `weight '${weight[0]}' is not integral (a float network)` };
  const inputs = join(dir, 'inputs.npz');
  if (existsSync(inputs)) {
    const arr = readNpz(readFileSync(inputs), 'inputs.npz').find((a) => !integral(a.data));
    if (arr) return { inside: false, why: `input '${arr.name}' is not integral (a float network)` };
  }
  return { inside: true };
}
