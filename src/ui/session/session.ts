// The session a reload brings back: the model (a built-in one by id; an opened one from its bytes
// kept in IndexedDB, with its npz files), the configuration, the code pane's edits and the pinned
// baseline. It is saved as they change (debounced) under the browser tab's id (sessionStorage),
// so two tabs keep two sessions, and restored when the page is reloaded (or reached by back /
// forward) in that tab: opening the app afresh starts from what the address says. The restored
// model is loaded and checked, not compiled: Compile gives the same results it had.
// Storage that fails (none, blocked, full) costs the session, never the app: the header says so.
import { create } from 'zustand';
import type { PlaygroundErrorData } from '../../common/errors';
import type { Restored } from '../actions';
import { loadRestored, programPaths } from '../actions';
import type { BuiltinModel } from '../builtins';
import { fetchBuiltinFiles } from '../builtins';
import type { NamedBytes } from '../files';
import type { LoadedModel, PlaygroundState } from '../store';
import { useStore } from '../store';
import type { StorageProblem } from './db';
import { StorageError, readFiles, readSession, writeSession } from './db';
import type { FileBlob, SessionRecord, StoredFile, StoredModel } from './record';
import { BadRecord, checkBlob, checkSession } from './record';
import type { Role } from './snapshot';
import { ROLES, builtinOf, keptFiles, modelLabel, restoredCode, sessionRecord, storedModel } from './snapshot';

export type SessionStatus =
  | { state: 'idle' }
  /** A change waits to be written (a short delay gathers typing). */
  | { state: 'pending' }
  | { state: 'saved'; at: number }
  /** Sessions cannot be kept in this browser (no storage, or no per-tab storage). */
  | { state: 'off'; message: string }
  | { state: 'failed'; problem: StorageProblem; message: string };

export const useSessionStatus = create<SessionStatus>()(() => ({ state: 'idle' }));
const setStatus = (s: SessionStatus) => useSessionStatus.setState(s, true);

const TAB_KEY = 'dpg-session-id';
const SAVE_DELAY_MS = 300;

function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from({ length: 4 }, () => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0')).join('-');
}

/** This tab's session id, made on first use; null without sessionStorage (a session could not be found again). */
function tabId(make: boolean): string | null {
  try {
    let id = window.sessionStorage.getItem(TAB_KEY);
    if (!id && make) {
      id = newId();
      window.sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch {
    return null;
  }
}

/** A reload, or back / forward to the page: the cases a session is restored in. */
function isReload(): boolean {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type === 'reload' || nav?.type === 'back_forward';
}

const subtle = () => (typeof crypto !== 'undefined' ? crypto.subtle : undefined);

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await subtle()!.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A file's key in the files store: its SHA-256 (so sessions share it, and it is checked when read), or a random id where the page has no WebCrypto. */
const keys = new WeakMap<Uint8Array, Promise<string>>();
function fileKey(bytes: Uint8Array): Promise<string> {
  let k = keys.get(bytes);
  if (!k) {
    k = subtle() ? sha256(bytes).then((h) => `sha256:${h}`) : Promise.resolve(`id:${newId()}`);
    keys.set(bytes, k);
  }
  return k;
}

const problem = (title: string, what: string, hint?: string): Restored =>
  ({ loaded: false, problem: { title, data: { code: 'bad-file', what, where: 'the browser\'s storage', hint } satisfies PlaygroundErrorData } });

/** A file of the session, read back and checked against its size and hash. */
async function storedBytes(refs: StoredFile[]): Promise<NamedBytes[]> {
  const raw = await readFiles(refs.map((r) => r.key));
  return Promise.all(refs.map(async (ref, i) => {
    const bytes = checkBlob(raw[i], ref);
    if (ref.key.startsWith('sha256:') && subtle() && `sha256:${await sha256(bytes)}` !== ref.key)
      throw new BadRecord(ref.name, 'is not the file that was kept (its bytes changed)');
    return { name: ref.name, bytes };
  }));
}

/** The model a stored session names, with its files. */
async function modelOf(m: StoredModel, builtins: readonly BuiltinModel[]): Promise<LoadedModel> {
  const npzRoles = (['inputs', 'outputs'] as const).filter((r) => m[r] !== undefined);
  const npz = await storedBytes(npzRoles.map((r) => m[r]!));
  const own: Partial<Record<Role, NamedBytes>> = Object.fromEntries(npzRoles.map((r, i) => [r, npz[i]]));
  if (m.kind === 'builtin') {
    const b = builtins.find((x) => x.id === m.id);
    if (!b) throw new BadRecord('model', `the built-in model '${m.id}' is not in this version of the playground`);
    const f = await fetchBuiltinFiles(b);
    return { ...f.model, inputs: own.inputs ?? f.inputs, outputs: own.outputs ?? f.outputs, builtinId: b.id };
  }
  const [model] = await storedBytes([m.model]);
  return { ...model!, inputs: own.inputs, outputs: own.outputs };
}

/**
 * Brings back this tab's session on a reload: the startup hook (actions.startup). Nothing to
 * restore (a fresh open, no session, an address naming another model) loads the default; a
 * session that cannot be restored says why, and the default model loads in its place.
 */
export async function restoreSession(builtins: BuiltinModel[]): Promise<Restored> {
  if (!isReload()) return { loaded: false };
  const id = tabId(false);
  if (!id) return { loaded: false };
  let record: SessionRecord;
  try {
    const raw = await readSession(id);
    if (raw === undefined) return { loaded: false };
    record = checkSession(raw);
  } catch (err) {
    if (err instanceof StorageError) {
      setStatus(err.problem === 'unavailable' ? { state: 'off', message: err.message } : { state: 'failed', problem: err.problem, message: err.message });
      return { loaded: false };
    }
    return problem('The last session could not be restored', `the kept session is not valid: ${err instanceof Error ? err.message : String(err)}`,
      'the playground starts afresh; the session is saved again as you work');
  }
  // The operators first: the model's check uses them.
  await restoreOperators(record);
  const m = record.model;
  if (!m) return { loaded: false };
  // The address wins when it names another built-in model than the session's built-in one (the
  // user typed it). A session with an opened model wins: the address follows the view a moment
  // late, so a quick reload can still show the built-in model that was there before.
  const params = new URLSearchParams(window.location.search);
  const wanted = params.get('m') ?? params.get('model'); // a share link's model, or the old address's
  if (wanted !== null && m.kind === 'builtin' && m.id !== wanted) return { loaded: false };
  let candidate: LoadedModel;
  try {
    candidate = await modelOf(m, builtins);
  } catch (err) {
    return problem(`Could not restore ${modelLabel(m)}`, err instanceof Error ? err.message : String(err),
      m.kind === 'files' ? 'open the file again' : undefined);
  }
  const loaded = await loadRestored(candidate, {
    config: record.config, code: restoredCode(record), runBaseline: record.baseline, programFiles: record.programFiles,
  });
  if (loaded) return { loaded };
  const failure = useStore.getState().loadFailure;
  return { loaded, problem: failure ? { title: `Could not restore ${candidate.name}`, data: failure.error } : undefined };
}

/** The session's operators back in the store: the applied ones (checked again as Apply checks them) and the one being edited. */
async function restoreOperators(record: SessionRecord): Promise<void> {
  if (!record.ops?.length && !record.operator) return;
  const { checkUserOp } = await import('../../compiler/ops/user/entry');
  const ops = (record.ops ?? []).filter((o) => checkUserOp(o.spec).length === 0);
  const dropped = (record.ops ?? []).filter((o) => !ops.includes(o));
  useStore.setState((s) => ({
    ops,
    operator: record.operator ? { ...s.operator, draft: record.operator.draft, editing: ops.some((o) => o.spec.op === record.operator!.editing) ? record.operator.editing : null }
      : ops[0] ? { ...s.operator, draft: ops[0], editing: ops[0].spec.op } : s.operator,
  }));
  if (dropped.length) console.warn(`Deeploy Playground: the kept operators ${dropped.map((o) => o.spec.op).join(', ')} are not valid in this version and were left out`);
}

/** The model's stored form and the files it needs (hashing them the first time). */
async function storedOf(model: LoadedModel | null, builtins: readonly BuiltinModel[]): Promise<{ model: StoredModel | null; files: FileBlob[] }> {
  if (!model) return { model: null, files: [] };
  const builtin = builtinOf(model, builtins);
  const kept = keptFiles(model, builtin);
  const refs: Partial<Record<Role, StoredFile>> = {};
  const files: FileBlob[] = [];
  for (const role of ROLES) {
    const f = kept[role];
    if (!f) continue;
    const key = await fileKey(f.bytes);
    refs[role] = { key, name: f.name, size: f.bytes.length };
    files.push({ key, bytes: f.bytes });
  }
  return { model: storedModel(model, builtin, refs), files };
}

/** Writes this tab's session: at most one write at a time, and one more if something changed during it. */
class Saver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** The model of the last write (undefined before the first): the files in use change with it. */
  private lastModel: StoredModel | null | undefined;

  constructor(private readonly id: string) {}

  /** Saves after a short delay, which gathers a burst of changes (typing). */
  later(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.now(), SAVE_DELAY_MS);
    setStatus({ state: 'pending' });
  }

  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop();
  }

  /** Writes a change that waits for its delay now (the page is going away). */
  pending(): void {
    if (this.timer !== undefined) this.now();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.write();
      } catch (err) {
        const e = err instanceof StorageError ? err : new StorageError('failed', `saving the session failed: ${err instanceof Error ? err.message : String(err)}`);
        setStatus(e.problem === 'unavailable' ? { state: 'off', message: e.message } : { state: 'failed', problem: e.problem, message: e.message });
        console.warn(`Deeploy Playground: ${e.message}`);
      }
    } while (this.again);
    this.running = undefined;
  }

  private async write(): Promise<void> {
    const s = useStore.getState();
    const { model, files } = await storedOf(s.model, s.builtins.state === 'ready' ? s.builtins.models : []);
    // Pruning reads every session: only when the files in use may have changed.
    const prune = this.lastModel === undefined || JSON.stringify(this.lastModel) !== JSON.stringify(model);
    await writeSession(sessionRecord(this.id, Date.now(), s, model, programPaths()), files, prune);
    this.lastModel = model;
    if (!this.again && this.timer === undefined) setStatus({ state: 'saved', at: Date.now() });
  }
}

type Watched = Pick<PlaygroundState, 'model' | 'config' | 'code' | 'runBaseline' | 'builtins' | 'ops'> & { program: unknown; draft: unknown };
const watched = (s: PlaygroundState): Watched =>
  ({ model: s.model, config: s.config, code: s.code, runBaseline: s.runBaseline, builtins: s.builtins, program: s.stages.codegen.result, ops: s.ops, draft: s.operator.draft });
const changed = (a: Watched, b: Watched) => (Object.keys(a) as (keyof Watched)[]).some((k) => a[k] !== b[k]);

let saver: Saver | undefined;

/**
 * Keeps this tab's session saved from now on: once now, then after each change of what it holds,
 * and right away when the page is hidden or left with a change waiting. Runs once.
 */
export function startSaving(): void {
  if (saver) return;
  const id = tabId(true);
  if (!id) {
    setStatus({ state: 'off', message: 'this browser keeps no storage per tab, so a reload cannot find the session' });
    return;
  }
  const s = new Saver(id);
  saver = s;
  s.now();
  useStore.subscribe((now, prev) => { if (changed(watched(now), watched(prev))) s.later(); });
  window.addEventListener('pagehide', () => s.pending());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') s.pending(); });
}

