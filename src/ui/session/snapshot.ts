// Between the app's store and a stored session: what a session record holds of the state, and
// what restoring one puts back. Pure; session.ts does the storage and the loading.
import type { BuiltinModel } from '../builtins';
import type { NamedBytes } from '../files';
import type { CodePaneState } from '../panes/code/state';
import { INITIAL_CODE_STATE } from '../panes/code/state';
import { INITIAL_OPERATOR_STATE } from '../operator/state';
import type { LoadedModel, PlaygroundState } from '../store';
import type { SessionRecord, StoredFile, StoredModel } from './record';
import { SESSION_VERSION } from './record';

export type Role = 'model' | 'inputs' | 'outputs';
export const ROLES: readonly Role[] = ['model', 'inputs', 'outputs'];

/**
 * The files of a loaded model the session keeps the bytes of: all of an opened model's; of a
 * built-in model (fetched again by id), only npz files the user opened for it instead of its own
 * (a built-in file is named by its path under models/, an opened one by its file name).
 */
export function keptFiles(model: LoadedModel, builtin: BuiltinModel | undefined): Partial<Record<Role, NamedBytes>> {
  const out: Partial<Record<Role, NamedBytes>> = {};
  for (const role of ROLES) {
    const f = role === 'model' ? model : model[role];
    if (!f) continue;
    const own = builtin !== undefined && builtin.files[role] === f.name;
    if (!own) out[role] = { name: f.name, bytes: f.bytes };
  }
  return out;
}

/** The built-in entry a loaded model came from, if the list still has it. */
export function builtinOf(model: LoadedModel, builtins: readonly BuiltinModel[]): BuiltinModel | undefined {
  return model.builtinId === undefined ? undefined : builtins.find((b) => b.id === model.builtinId);
}

/** The stored form of a model, given the references of its kept files (keptFiles, stored). */
export function storedModel(model: LoadedModel, builtin: BuiltinModel | undefined, refs: Partial<Record<Role, StoredFile>>): StoredModel {
  const npz = { ...(refs.inputs ? { inputs: refs.inputs } : {}), ...(refs.outputs ? { outputs: refs.outputs } : {}) };
  if (builtin) return { kind: 'builtin', id: builtin.id, ...npz };
  if (!refs.model) throw new Error(`the opened model ${model.name} has no stored file`);
  return { kind: 'files', model: refs.model, ...npz };
}

export type SessionState = Pick<PlaygroundState, 'config' | 'code' | 'runBaseline'> & Partial<Pick<PlaygroundState, 'ops' | 'operator'>>;

export function sessionRecord(id: string, savedAt: number, s: SessionState, model: StoredModel | null,
  programFiles: string[] | null): SessionRecord {
  const { file, editing, asm, edits } = s.code;
  return {
    version: SESSION_VERSION, id, savedAt, model, config: s.config,
    code: { file, editing, asm, edits }, programFiles, baseline: s.runBaseline,
    ...(s.ops?.length ? { ops: s.ops } : {}),
    ...(s.operator && JSON.stringify(s.operator.draft) !== JSON.stringify(INITIAL_OPERATOR_STATE.draft)
      ? { operator: { draft: s.operator.draft, editing: s.operator.editing } } : {}),
  };
}

/** The code pane as a restored session leaves it (the assembly view's function is chosen again). */
export function restoredCode(r: SessionRecord): CodePaneState {
  return { ...INITIAL_CODE_STATE, file: r.code.file, editing: r.code.editing, asm: r.code.asm, edits: r.code.edits };
}

/** What the header names the session's model by, for messages. */
export function modelLabel(m: StoredModel): string {
  return m.kind === 'builtin' ? `the built-in model ${m.id}` : m.model.name;
}
