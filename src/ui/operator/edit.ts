// The Operator pane's heavier actions, loaded with the pane: the compiler's checks of the draft
// (and a name a built-in op has), Apply (the op joins every later compile and model check), the
// skeleton, and the test maker (the one-node model loaded like a dropped folder, or saved as a
// Deeploy-style test folder).
import { toErrorData } from '../../common/errors';
import { checkUserOp, kernelSkeleton, type SpecProblem } from '../../compiler/ops/user';
import type { UserOp } from '../../compiler/ops/user/spec';
import { loadModel } from '../actions';
import { download } from '../panes/run/download';
import { showError, useStore } from '../store';
import { patch } from './actions';
import { testOptions, withApplied } from './state';

const { getState, setState } = useStore;

/** The kernel file codegen would call for the draft's spec: its signature, the per-core split, a TODO body. */
export function kernelFromSkeleton(): void {
  const spec = getState().operator.draft.spec;
  patch((o) => ({ draft: { ...o.draft, kernel: kernelSkeleton(spec) } }));
}

/** Whether (domain, op) names a built-in op: known once the registry has loaded (loadBuiltins). */
let isBuiltin: ((domain: string, op: string) => boolean) | null = null;

/** Loads the op registry (a chunk of its own) so the pane can refuse a name a built-in op has. */
export async function loadBuiltins(): Promise<void> {
  if (isBuiltin) return;
  const { OPS } = await import('../../compiler/ops');
  isBuiltin = (domain, op) => OPS.some((e) => e.ops.includes(op) && e.domains.includes(domain));
}

/** What is wrong with the draft (empty: it can be applied): the compiler's checks, and a name a built-in op has. */
export function draftProblems(draft: UserOp): SpecProblem[] {
  const { op, domain } = draft.spec;
  const taken = isBuiltin?.(domain, op) ? [{ field: 'op', message: `${op} is a built-in op${domain ? ` in domain '${domain}'` : ''}; a user op needs a name of its own` }] : [];
  return [...taken, ...checkUserOp(draft.spec)];
}

/** Applies the draft when it is valid: every later compile and model check uses it. Returns its problems otherwise. */
export function applyDraft(): SpecProblem[] {
  const { operator, ops } = getState();
  const problems = draftProblems(operator.draft);
  if (problems.length) return problems;
  setState({ ops: withApplied(ops, operator.draft, operator.editing), operator: { ...operator, editing: operator.draft.spec.op } });
  return [];
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
  // Refused by the model check (an attribute outside its range): said here too, beside the fields.
  const s = getState();
  if (s.model?.bytes === t.model) return null;
  const e = s.loadFailure?.error;
  return { field: 'test', message: e ? `the model check refused it: ${e.what}${e.where ? ` (${e.where})` : ''}` : 'the test model was not loaded (another load or a cancel came first)' };
}

/** Saves the test as a Deeploy-style test folder (network.onnx, inputs.npz, outputs.npz) in a zip. */
export async function downloadTestFolder(): Promise<{ field: string; message: string } | null> {
  const t = await buildTest();
  if (!t.ok) return t;
  download(`${t.name}.zip`, t.zip(), 'application/zip');
  return null;
}

export function reportTestProblem(message: string): void {
  showError('Could not make the test model', { code: 'bad-config', what: message, where: 'the Operator pane' });
}
