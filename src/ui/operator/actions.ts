// What the user does in the Operator pane, as store updates: edit the form and the kernel, apply
// the op (it joins every later compile and model check), open another applied op, make the
// one-node test model (loaded like a dropped folder) or download it as a test folder.
import { toErrorData } from '../../common/errors';
import { checkUserOp, kernelPath, kernelSkeleton, type SpecProblem } from '../../compiler/ops/user';
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import { loadModel } from '../actions';
import { download } from '../panes/run/download';
import { showError, showPane, useStore } from '../store';
import type { OperatorState, TestFields } from './state';
import { INITIAL_OPERATOR_STATE, testOptions, withApplied } from './state';

const { getState, setState } = useStore;

function patch(p: Partial<OperatorState> | ((s: OperatorState) => Partial<OperatorState>)): void {
  setState((s) => ({ operator: { ...s.operator, ...(typeof p === 'function' ? p(s.operator) : p) } }));
}

/** Changes the draft's spec. */
export function editSpec(f: (spec: UserOpSpec) => UserOpSpec): void {
  patch((o) => ({ draft: { ...o.draft, spec: f(o.draft.spec) } }));
}

export function setKernel(kernel: string): void {
  if (getState().operator.draft.kernel !== kernel) patch((o) => ({ draft: { ...o.draft, kernel } }));
}

/** The kernel file codegen would call for the draft's spec: its signature, the per-core split, a TODO body. */
export function kernelFromSkeleton(): void {
  const spec = getState().operator.draft.spec;
  patch((o) => ({ draft: { ...o.draft, kernel: kernelSkeleton(spec) } }));
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

/** What is wrong with the draft (empty: it can be applied). */
export function draftProblems(draft: UserOp): SpecProblem[] {
  return checkUserOp(draft.spec);
}

/** Applies the draft when it is valid: every later compile and model check uses it. Returns its problems otherwise. */
export function applyDraft(): SpecProblem[] {
  const { operator, ops } = getState();
  const problems = draftProblems(operator.draft);
  if (problems.length) return problems;
  setState({ ops: withApplied(ops, operator.draft, operator.editing), operator: { ...operator, editing: operator.draft.spec.op } });
  return [];
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

type Made = { ok: true; model: Uint8Array; inputs: Uint8Array; outputs: Uint8Array; name: string; zip(): Uint8Array } | { ok: false; field: string; message: string };

/**
 * The draft applied, then its one-node test built from the test fields: on this thread, with the
 * session's ops installed in this thread's registry (shape inference and the reference
 * interpreter read it). The registry and the interpreter load with the first test.
 */
async function buildTest(): Promise<Made> {
  const problems = applyDraft();
  if (problems.length) return { ok: false, field: problems[0]!.field, message: `the operator is not valid yet: ${problems[0]!.field}: ${problems[0]!.message}` };
  const { draft, test } = getState().operator;
  const opts = testOptions(draft.spec, test);
  if (!opts.ok) return opts;
  try {
    const [{ installUserOps }, { makeOpTest, testFolderZip }] = await Promise.all([import('../../compiler/ops'), import('../../compiler/ops/user/maketest')]);
    installUserOps(getState().ops);
    const t = makeOpTest(draft.spec, opts);
    const name = `${draft.spec.op}_test`;
    return { ok: true, ...t, name, zip: () => testFolderZip(t, name) };
  } catch (e) {
    const d = toErrorData(e);
    return { ok: false, field: 'test', message: `${d.what}${d.where ? ` (${d.where})` : ''}${d.hint ? `: ${d.hint}` : ''}` };
  }
}

/** Makes the test model and loads it as the current model, as a dropped test folder would be. Returns a problem, or null. */
export async function makeTestModel(): Promise<{ field: string; message: string } | null> {
  const t = await buildTest();
  if (!t.ok) return t;
  await loadModel({ name: `${t.name}/network.onnx`, bytes: t.model, inputs: { name: 'inputs.npz', bytes: t.inputs }, outputs: { name: 'outputs.npz', bytes: t.outputs } });
  return null;
}

/** Saves the test as a Deeploy-style test folder (network.onnx, inputs.npz, outputs.npz) in a zip. */
export async function downloadTestFolder(): Promise<{ field: string; message: string } | null> {
  const t = await buildTest();
  if (!t.ok) return t;
  download(`${t.name}.zip`, t.zip(), 'application/zip');
  return null;
}

/** The applied op whose kernel file is `path` (a compile error's file), if any. */
export function opOfKernel(path: string): UserOp | undefined {
  return getState().ops.find((o) => kernelPath(o.spec) === path);
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

export function reportTestProblem(message: string): void {
  showError('Could not make the test model', { code: 'bad-config', what: message, where: 'the Operator pane' });
}
