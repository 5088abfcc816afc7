// What the user does in the Operator pane, as store updates: edit the form and the kernel, open
// another applied op, take one out; and what the rest of the app asks of it (a link's or a
// session's ops, a compile error's line in a kernel). Light: the compiler's checks, Apply, the
// test maker and the op registry load with the pane (edit.ts).
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import { showPane, useStore } from '../store';
import { kernelFile } from './names';
import type { OperatorState, TestFields } from './state';
import { INITIAL_OPERATOR_STATE } from './state';

const { getState, setState } = useStore;

export function patch(p: Partial<OperatorState> | ((s: OperatorState) => Partial<OperatorState>)): void {
  setState((s) => ({ operator: { ...s.operator, ...(typeof p === 'function' ? p(s.operator) : p) } }));
}

/** Changes the draft's spec. */
export function editSpec(f: (spec: UserOpSpec) => UserOpSpec): void {
  patch((o) => ({ draft: { ...o.draft, spec: f(o.draft.spec) } }));
}

export function setKernel(kernel: string): void {
  if (getState().operator.draft.kernel !== kernel) patch((o) => ({ draft: { ...o.draft, kernel } }));
}

export function editTest(f: (t: TestFields) => TestFields): void {
  patch((o) => ({ test: f(o.test) }));
}

/** A fresh, empty op in the form. */
export function newOp(): void {
  patch({ draft: INITIAL_OPERATOR_STATE.draft, editing: null });
}

/** Opens an applied op in the form. */
export function openOp(op: string): void {
  const found = getState().ops.find((o) => o.spec.op === op);
  if (found) patch({ draft: found, editing: op });
}

/** Takes an applied op out of the session (models using it no longer load). */
export function removeOp(op: string): void {
  setState((s) => ({
    ops: s.ops.filter((o) => o.spec.op !== op),
    operator: s.operator.editing === op ? { ...s.operator, editing: null } : s.operator,
  }));
}

/** Replaces the applied ops (a link, a restored session) and shows the first in the form. */
export function setOps(ops: UserOp[]): void {
  setState((s) => ({ ops, operator: ops[0] ? { ...s.operator, draft: ops[0], editing: ops[0].spec.op } : s.operator }));
}

/** The applied op whose kernel file is `path` (a compile error's file), if any. */
export function opOfKernel(path: string): UserOp | undefined {
  return getState().ops.find((o) => kernelFile(o.spec) === path);
}

let reveal: { line: number; col: number } | null = null;

/** Opens the kernel of the op whose file is `path` in the Operator pane, at `line` (a compile error's link). */
export function showKernelLine(path: string, line: number, col = 1): boolean {
  const op = opOfKernel(path);
  if (!op) return false;
  if (getState().operator.editing !== op.spec.op) openOp(op.spec.op);
  reveal = { line, col };
  showPane('operator');
  patch((o) => ({ ...o }));
  return true;
}

/** The kernel line asked for, once. */
export function takeKernelReveal(): { line: number; col: number } | null {
  const r = reveal;
  reveal = null;
  return r;
}
