// What the user can do: load a model (built-in or from files), compile, cancel. Each action
// talks to the worker through one PipelineClient and writes its outcome to the store.
// A rejected model leaves the previous one loaded (Compile names it), and the header names the
// file that failed with its error until a load succeeds.
import type { PlaygroundErrorData } from '../common/errors';
import { toErrorData } from '../common/errors';
import type { PipelineEvent } from '../pipeline/events';
import type { PipelineInput } from '../pipeline/run';
import { PipelineClient } from '../worker/client';
import type { BuiltinModel } from './builtins';
import { fetchBuiltinFiles, fetchBuiltinIndex } from './builtins';
import { pickFiles, readFile } from './files';
import type { LoadedModel, ShownError } from './store';
import { clearedError, compileBlocker, showError, useStore } from './store';
import { anyMismatch, applyStageEvent, cancelStages, freshStages } from './stageViews';
import type { CodePaneState } from './panes/code/state';
import { compileErrorAt, editTexts, isLibraryPath } from './panes/code/state';
import type { RunBaseline } from './panes/run/baseline';
import type { Config } from '../compiler/config';
import type { UserOp } from '../compiler/ops/user/spec';
import { kernelFile } from './operator/names';
import { decodeLink, LinkError, type LinkState } from './link/format';
import { openLink } from './link/open';
import { followView } from './link/sync';
import { testHooks } from './test-hooks';

const client = new PipelineClient();
/** Bumped by every action that starts work; an older action that sees a newer token stops. */
let token = 0;
/** The generated files' paths a restored session had, until its model's first compile (see programPaths). */
let restoredProgram: string[] | null = null;

const { getState, setState } = useStore;

/** The pipeline's input for a loaded model, with the session's user operators (the Operator pane's applied ones). */
export function toInput(m: LoadedModel, ops = getState().ops): PipelineInput {
  return { model: m.bytes, modelName: m.name, inputs: m.inputs?.bytes, outputs: m.outputs?.bytes, ...(ops.length ? { ops } : {}) };
}

/** Test hook (test-hooks.ts, set by the harness, never by the address): the worker hangs that long before a compile. */
const stallMs = (): number | undefined => testHooks().stallMs;

function onProgress(e: PipelineEvent): void {
  if (e.type === 'progress') setState({ progress: { stage: e.stage, fraction: e.fraction, message: e.message } });
}

/**
 * Checks a new model (and its npz files, against its graph) by running the parse stage in the
 * worker. Only if it passes does it replace the loaded model; the parse results become the first
 * stage's results. `label` names what is being loaded (e.g. only npz files for the loaded model).
 */
async function acceptModel(candidate: LoadedModel, label = candidate.name, my = beginLoad(label)): Promise<void> {
  if (my !== token) return;
  setState({ busy: { kind: 'load', name: label }, progress: null });
  let stages = freshStages();
  const outcome = await client.compile(toInput(candidate), getState().config, (e) => {
    if (my !== token) return;
    stages = applyStageEvent(stages, e);
    onProgress(e);
  }, { until: 'parse', checkNpz: true });
  if (my !== token) return;
  setState({ busy: null, progress: null });
  if (outcome.kind === 'crashed') loadFailed(label, outcome.error);
  else if (outcome.kind === 'done' && !outcome.ok) {
    const failed = Object.values(stages).find((s) => s.status === 'error');
    loadFailed(label, failed?.error ?? toErrorData(new Error('the parse stage failed without saying why'), 'parse'));
  } else if (outcome.kind === 'done') {
    // Local code edits belong to the model they were made on.
    setState((s) => ({
      model: candidate, stages, runStatus: 'none', runMs: null, error: clearedError(s), loadFailure: null, compiledConfig: null, compiledOps: null,
      code: { ...s.code, file: null, edits: {} }, runEdits: null, timelineView: null,
      // A link's run prompt was about the model it opened: another model's load closes it.
      linkRunPrompt: null,
    }));
    restoredProgram = null;
  }
}

/**
 * Starts a load where the user asked for it, before its files are read or fetched: the app shows
 * it as loading at once, and a later load (or compile) supersedes it, whichever finishes first.
 */
function beginLoad(label: string): number {
  const my = ++token;
  stopCompile();
  setState({ busy: { kind: 'load', name: label }, progress: null });
  return my;
}

/** A load that failed: the header names it (the loaded model stays) and the banner explains. */
function loadFailed(name: string, error: PlaygroundErrorData, title = `Could not load ${name}`, my = token): void {
  if (my !== token) return;
  setState({ loadFailure: { name, error }, busy: null, progress: null });
  showError(title, error);
}

/** Marks a running compile as cancelled (its worker run is stopped by the caller). */
function stopCompile(): void {
  setState((s) => s.busy?.kind === 'compile'
    ? { busy: null, progress: null, runStatus: 'cancelled', stages: cancelStages(s.stages) }
    : {});
}

/**
 * Loads files the user dropped or opened: a model with optional npz files, or npz files for the
 * loaded model. Files from a folder (`folder` is its name) name the model after the folder.
 */
export async function loadFiles(files: File[], folder?: string): Promise<void> {
  const names = folder ? `folder ${folder}` : files.map((f) => f.name).join(', ') || 'files';
  const my = beginLoad(names);
  try {
    const picked = pickFiles(files);
    const [model, inputs, outputs] = await Promise.all(
      [picked.model, picked.inputs, picked.outputs].map((f) => (f ? readFile(f) : undefined)));
    if (my !== token) return;
    const current = getState().model;
    if (model) {
      const name = folder ? `${folder}/${model.name}` : model.name;
      await acceptModel({ ...model, name, inputs, outputs }, name, my);
    } else if (current) {
      await acceptModel({ ...current, inputs: inputs ?? current.inputs, outputs: outputs ?? current.outputs }, names, my);
    } else {
      setState({ busy: null, progress: null });
      showError(`Could not load ${names}`, {
        code: 'bad-file', what: 'no model is loaded for these .npz files', where: names,
        hint: 'open an .onnx model first, or together with its .npz files',
      });
    }
  } catch (err) {
    loadFailed(names, toErrorData(err), undefined, my);
  }
}

/** Loads a model given as bytes (a share link's, a restored session's): checked like any other. */
export async function loadModel(candidate: LoadedModel): Promise<void> {
  await acceptModel(candidate);
}

export async function loadBuiltin(m: BuiltinModel): Promise<void> {
  const my = beginLoad(m.name);
  try {
    const f = await fetchBuiltinFiles(m);
    await acceptModel({ ...f.model, inputs: f.inputs, outputs: f.outputs, builtinId: m.id }, f.model.name, my);
  } catch (err) {
    loadFailed(m.name, toErrorData(err), `Could not load the built-in model ${m.name}`, my);
  }
}

/** What a startup source (the session kept across a reload) did: loaded a model or not, and a problem to show. */
export interface Restored {
  loaded: boolean;
  /** Shown after the default model has loaded in its place (a successful load clears the banner). */
  problem?: ShownError;
}
export type Restore = (models: BuiltinModel[]) => Promise<Restored>;

/**
 * Sets up a model a restored session had: it is checked like any load, then the configuration it
 * was set for comes back (set first, so the check runs with it), and once it has loaded, the code
 * pane's edits, the pinned baseline and the generated files' paths (see programPaths). Returns
 * whether the model loaded.
 */
export async function loadRestored(candidate: LoadedModel, kept: {
  config: Config; code: CodePaneState; runBaseline: RunBaseline | null; programFiles: string[] | null;
}): Promise<boolean> {
  setState({ config: kept.config, drafts: {} });
  await acceptModel(candidate);
  if (getState().model !== candidate) return false;
  setState({ code: kept.code, runBaseline: kept.runBaseline });
  restoredProgram = kept.programFiles;
  return true;
}

/**
 * The paths of the loaded model's generated files: the last compile's, or before the first
 * compile of a restored session, the ones it had (so that compile builds its edits).
 */
export function programPaths(): string[] | null {
  return getState().stages.codegen.result?.files.map((f) => f.path) ?? restoredProgram;
}

let starting: Promise<void> | undefined;

/**
 * Lists the built-in models, then loads what `restore` brings back (the session, on a reload) or
 * else the built-in model named by ?model=<id>, or the first. Runs once; later calls wait for it.
 */
export function startup(restore?: Restore): Promise<void> {
  starting ??= start(restore);
  return starting;
}

async function start(restore?: Restore): Promise<void> {
  let models: BuiltinModel[] = [];
  try {
    models = await fetchBuiltinIndex();
    setState({ builtins: { state: 'ready', models } });
  } catch (err) {
    setState({ builtins: { state: 'failed', message: err instanceof Error ? err.message : String(err) } });
  }
  // A reload of this tab brings its session back (its address is a link to the same view).
  const restored = await restore?.(models);
  if (restored?.loaded) {
    followView();
    return;
  }
  // Otherwise the address: a share link, the old ?model=<id>, or nothing (the first built-in model).
  let link: LinkState = { config: {} };
  try {
    link = await decodeLink(window.location.search + window.location.hash);
  } catch (e) {
    if (!(e instanceof LinkError)) throw e;
    // It stays until dismissed: the model the app then opens in its place does not clear it.
    showError('This link cannot be opened', { code: 'bad-config', what: e.what, where: 'the link', hint: 'the playground opened without it' }, { sticky: true });
  }
  if (!getState().model) await openLink(link, models);
  if (restored?.problem) showError(restored.problem.title, restored.problem.data, { sticky: true });
  followView();
}

/** The edits the run stage builds: those of files the program has (generated now, or the library's). */
function runEditsFor(files: readonly { path: string }[] | undefined): Record<string, string> {
  const paths = new Set(files?.map((f) => f.path));
  return Object.fromEntries(Object.entries(editTexts(getState().code.edits)).filter(([p]) => paths.has(p) || isLibraryPath(p)));
}

/** Applies a worker event of the compile or run `my` to the store. */
function onEvent(my: number, e: PipelineEvent): void {
  if (my !== token) return;
  setState((s) => ({ stages: applyStageEvent(s.stages, e) }));
  // The graph pane opens on the input graph against the final one.
  if (e.type === 'stage' && e.stage === 'lower')
    setState((s) => ({ graph: { ...s.graph, left: null, right: null, overview: true } }));
  onProgress(e);
  if (e.type === 'error') {
    setState({ error: { title: `Compile failed in the ${e.stage} stage`, data: e.error } });
    // A compile error: the code pane shows its file (the marker is at its line).
    const at = e.stage === 'run' ? compileErrorAt(e.error) : null;
    if (at) setState((s) => ({ code: { ...s.code, file: at.file } }));
  }
  if (e.type === 'done') setState({ runMs: e.ms });
}

async function finishRun(my: number, outcome: Awaited<ReturnType<PipelineClient['compile']>>): Promise<void> {
  if (my !== token) return;
  setState({ busy: null, progress: null });
  if (outcome.kind === 'done') setState((s) => ({ runStatus: outcome.ok && !anyMismatch(s.stages) ? 'done' : 'failed' }));
  else if (outcome.kind === 'crashed') {
    setState({ runStatus: 'failed' });
    showError('Compile failed', outcome.error);
  }
}

/**
 * Builds and runs the last compile's program again with the code pane's edits: the run stage
 * alone (the model and configuration of that compile; objects of unchanged files come from the
 * worker's cache).
 */
export async function runAgain(): Promise<void> {
  const s = getState();
  const code = s.stages.codegen.result;
  const config: Config | null = s.compiledConfig;
  if (!code || !config || s.busy) return;
  const my = ++token;
  const edits = runEditsFor(code.files);
  // The Operator pane's kernels as applied now replace the ones the compile generated; when only
  // kernels changed since, the run is of the ops applied now (results are not stale).
  const kernels = kernelEdits(code.files, s.ops);
  const sameSpecs = s.compiledOps !== null && JSON.stringify(s.compiledOps.map((o) => o.spec)) === JSON.stringify(s.ops.map((o) => o.spec));
  setState((st) => ({
    busy: { kind: 'compile' }, runStatus: 'running', runMs: null, error: clearedError(st), runEdits: edits, ...(sameSpecs ? { compiledOps: st.ops } : {}),
    stages: { ...st.stages, run: { status: 'pending' } }, progress: { stage: 'run', fraction: 0, message: 'starting…' },
  }));
  await finishRun(my, await client.run(code, config, (e) => onEvent(my, e), { edits: { ...kernels, ...edits } }));
}

/** The applied ops' kernels that differ from the kernel files a compile generated, by path (a code pane edit of the file wins). */
function kernelEdits(files: readonly { path: string; kind: string; content: string }[], ops: readonly UserOp[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of ops) {
    const f = files.find((x) => x.kind === 'kernel' && x.path === kernelFile(o.spec));
    if (f && f.content !== o.kernel) out[f.path] = o.kernel;
  }
  return out;
}

/** Runs the whole pipeline on the loaded model with the current configuration. */
export async function compile(): Promise<void> {
  const state = getState();
  const { model, config } = state;
  const blocker = compileBlocker(state);
  if (!model) {
    showError('Nothing to compile', { code: 'bad-file', what: 'no model is loaded', hint: 'pick a built-in model or open an .onnx file' });
    return;
  }
  if (blocker) {
    showError('Cannot compile', { code: 'bad-config', what: blocker, hint: 'correct the field; Compile uses only valid values' });
    return;
  }
  const my = ++token;
  // The generated files' names are known from the last compile (or the restored session); the library's always.
  const edits = runEditsFor(programPaths()?.map((path) => ({ path })));
  const ops = state.ops;
  setState((s) => ({
    busy: { kind: 'compile' }, runStatus: 'running', runMs: null, error: clearedError(s), stages: freshStages(), compiledConfig: config,
    compiledOps: ops, progress: { stage: 'parse', fraction: 0, message: 'starting…' }, runEdits: edits,
  }));
  const outcome = await client.compile(toInput(model, ops), config, (e) => onEvent(my, e), { stallMs: stallMs(), edits });
  await finishRun(my, outcome);
}

/** Stops whatever the worker is doing. A cancelled model check leaves the previous model loaded. */
export function cancel(): void {
  if (!getState().busy) return;
  token++;
  client.cancel();
  stopCompile();
  setState({ busy: null, progress: null });
}
