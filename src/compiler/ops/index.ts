// The op registry: every op the playground knows, looked up by (domain, op type).
// Add an op by writing its entry (one file per op or small family) and listing it here.
import { fail } from '../../common/errors';
import type { Node } from '../ir/graph';
import { Clip, Relu } from './activations';
import { Conv, MaxPool } from './conv';
import { iGELU, iHardswish } from './deeploy-activations';
import { Add, Div, Mul, Sub } from './elementwise';
import { IntegerDiv, TrueIntegerDiv } from './integer-div';
import { Gemm, MatMul } from './matmul';
import { iLayerNorm, iNoNorm, iRMSNorm } from './norms';
import { Constant, Identity, Shape } from './plumbing';
import { IntegerMean, ReduceMean, ReduceSum } from './reduce';
import { RequantShift } from './requant-shift';
import { RequantizedAdd, RequantizedConv, RequantizedGemm, RequantizediGELU, RequantizediHardswish, RQIntegerDiv } from './requantized';
import { Concat, Flatten, Gather, Pad, Reshape, Slice, Squeeze, Transpose, Unsqueeze } from './shape-ops';
import { ITAMax, ITAPartialMax, iSoftmax } from './softmax';
import { whereNode, type OpEntry } from './types';
import { installUserOps as installSession, userOpEntry } from './user/session';
import type { UserOp } from './user/spec';

export type { OpEntry } from './types';

/** Every entry, in the order the docs list them. */
export const OPS: readonly OpEntry[] = [
  // ONNX arithmetic
  Add, Sub, Mul, Div, Relu, Clip,
  Conv, MaxPool, MatMul, Gemm,
  ReduceSum, ReduceMean,
  // ONNX data movement
  Identity, Constant, Shape, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Slice, Pad, Gather,
  // Deeploy integer ops
  RequantShift, iRMSNorm, iLayerNorm, iNoNorm, iSoftmax, ITAMax, ITAPartialMax, iGELU, iHardswish,
  IntegerMean, IntegerDiv, TrueIntegerDiv,
  // Fused forms created by the Siracusa lowering
  RequantizedConv, RequantizedGemm, RequantizedAdd, RequantizediHardswish, RequantizediGELU, RQIntegerDiv,
] as OpEntry[];

const key = (domain: string, op: string) => `${domain}\u0000${op}`;

const BY_KEY = new Map<string, OpEntry>();
const BY_OP = new Map<string, OpEntry>();
for (const e of OPS)
  for (const op of e.ops) {
    BY_OP.set(op, e);
    for (const d of e.domains) BY_KEY.set(key(d, op), e);
  }

/** The entry for an op type in a domain (built-in, or a user op installed for this session), or undefined. */
export function lookupOp(domain: string, op: string): OpEntry | undefined {
  return BY_KEY.get(key(domain, op)) ?? userOpEntry(domain, op);
}

/** Makes `ops` the session's user operators (see user/session.ts); they may not shadow a built-in op. */
export function installUserOps(ops: readonly UserOp[]): void {
  installSession(ops, (domain, op) => BY_KEY.has(key(domain, op)));
}

/** The entry for a node, or an 'unsupported-op' error naming the node and its op. */
export function opFor(node: Pick<Node, 'name' | 'op' | 'domain'>): OpEntry {
  const e = lookupOp(node.domain, node.op);
  if (e) return e;
  const where = whereNode(node);
  const known = BY_OP.get(node.op);
  if (known)
    fail('unsupported-op', `op ${node.op} is known, but not in domain '${node.domain}'`, where,
      `it is accepted in domain${known.domains.length > 1 ? 's' : ''} ${known.domains.map((d) => `'${d}'`).join(', ')}`);
  const near = nearest(node.op);
  fail('unsupported-op', `op ${node.op}${node.domain ? ` (domain '${node.domain}')` : ''} is not supported`, where,
    near ? `did you mean ${near}?` : 'the reference interpreter and the compiler do not know this op yet');
}

/** The known op name closest to `op` (case-insensitive edit distance <= 2), if any. */
function nearest(op: string): string | undefined {
  let best: string | undefined, bestD = 3;
  for (const name of BY_OP.keys()) {
    const d = editDistance(op.toLowerCase(), name.toLowerCase());
    if (d < bestD) [best, bestD] = [name, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
