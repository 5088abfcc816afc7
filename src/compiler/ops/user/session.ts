// The session's user operators: installed once per compile (the pipeline, from its input) or per
// model load (the graph worker), then found by lookupOp like built-in ops. A module-level table
// because the registry is one: a worker or a CLI process runs one pipeline at a time.
import { fail } from '../../../common/errors';
import type { OpEntry } from '../types';
import { failOnProblems, userEntry } from './entry';
import type { UserOp } from './spec';

interface Installed { op: UserOp; entry: OpEntry }

let installed: readonly Installed[] = [];

const key = (domain: string, op: string) => `${domain}\u0000${op}`;
let byKey = new Map<string, Installed>();

/**
 * Makes `ops` the session's user operators (replacing the previous ones). Each spec is checked
 * first (a bad spec is a 'bad-config' error naming the op and its fields); a user op may not
 * shadow a built-in one (`isBuiltin`, from the registry, says which are).
 */
export function installUserOps(ops: readonly UserOp[], isBuiltin: (domain: string, op: string) => boolean): void {
  const next = new Map<string, Installed>();
  const list: Installed[] = [];
  for (const op of ops) {
    const where = `op spec ${op.spec.op || '(unnamed)'}`;
    failOnProblems(op.spec, where);
    if (isBuiltin(op.spec.domain, op.spec.op))
      fail('bad-config', `${op.spec.op} is a built-in op${op.spec.domain ? ` in domain '${op.spec.domain}'` : ''}; a user op needs a name of its own`, where);
    const k = key(op.spec.domain, op.spec.op);
    if (next.has(k)) fail('bad-config', `two user ops are named ${op.spec.op}`, where);
    const it = { op, entry: userEntry(op.spec) };
    next.set(k, it);
    list.push(it);
  }
  installed = list;
  byKey = next;
}

/** The installed user op for (domain, op type), if any. */
export function userOpEntry(domain: string, op: string): OpEntry | undefined {
  return byKey.get(key(domain, op))?.entry;
}

/** The installed user op (spec and kernel) for an op type, if any. */
export function userOpOf(domain: string, op: string): UserOp | undefined {
  return byKey.get(key(domain, op))?.op;
}

export function installedUserOps(): readonly UserOp[] {
  return installed.map((i) => i.op);
}
