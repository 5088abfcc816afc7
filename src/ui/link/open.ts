// Opening a share link: the model (a built-in by id, one carried inside the link, or a file the
// app asks the user for and checks against the link's hash), the configuration, the workspace
// preset, the baseline and the timeline window; then a compile, after which the graph's passes
// and node are shown and the edits (diffs against the generated or library text) are applied
// and built. A link that would run C code it carries (a user operator's kernel, edits of the
// program) asks first (the prompt in LinkControls.tsx): nothing of it is compiled or run until the
// user says Run; a link whose run is of generated code only compiles and runs at once. A link
// that cannot be opened says why and the app opens as usual. Afterwards the address bar follows
// the view (sync.ts).
import type { PlaygroundErrorData } from '../../common/errors';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { compile, loadBuiltin, loadModel, runAgain } from '../actions';
import type { BuiltinModel } from '../builtins';
import { readFile } from '../files';
import { recordEdit, requestReveal } from '../panes/code/actions';
import { showError, updateConfig, useStore } from '../store';
import { setOps } from '../operator/actions';
import { kernelFile } from '../operator/names';
import { setTutorialProgress } from '../tutorial/store';
import { sha256 } from './capture';
import { applyHunks } from './diff';
import type { LinkState } from './format';

const { getState, setState } = useStore;

/** A link waiting for the model file it names. */
let pending: LinkState | null = null;

/** The answer to the run prompt, once the user gives it. */
let answer: ((run: boolean) => void) | null = null;

/** The C files a link's run would build from the link itself: its operators' kernels and the files it edits. */
export function carriedCode(state: LinkState): string[] {
  const files = new Set<string>();
  for (const op of state.ops ?? []) files.add(kernelFile(op.spec));
  for (const path of Object.keys(state.edits ?? {})) files.add(path);
  return [...files];
}

/** Asks whether to run the C code the link carries; resolves with the answer. */
function askToRun(files: string[]): Promise<boolean> {
  answer?.(false);
  setState({ linkRunPrompt: { files } });
  return new Promise((resolve) => { answer = resolve; });
}

/** The user's answer to the run prompt (its buttons). */
export function answerLinkRun(run: boolean): void {
  const give = answer;
  answer = null;
  setState({ linkRunPrompt: null });
  give?.(run);
}

const linkError = (what: string, hint?: string): PlaygroundErrorData => ({ code: 'bad-config', what, where: 'the link', ...(hint ? { hint } : {}) });

/** Opens a parsed link. Resolves when its compile (and the rebuild with its edits) finished, or when it waits for a file. */
export async function openLink(state: LinkState, models: readonly BuiltinModel[]): Promise<void> {
  // The operators first: the model's check uses them.
  if (state.ops?.length) setOps(state.ops);
  const m = state.model;
  if (m?.kind === 'builtin') {
    const found = models.find((x) => x.id === m.id);
    if (!found) {
      if (models[0]) await loadBuiltin(models[0]);
      showError('Unknown model in the address', linkError(`there is no built-in model '${m.id}'`, models.length ? `use one of: ${models.map((x) => x.id).join(', ')}` : 'no built-in models are installed'), { sticky: true });
      return;
    }
    await loadBuiltin(found);
  } else if (m?.kind === 'inline') {
    await loadModel({ name: m.model.name, bytes: m.model.bytes, inputs: m.inputs, outputs: m.outputs });
  } else if (m?.kind === 'file') {
    pending = state;
    setState({ linkNeedsFile: { name: m.name, sha256: m.sha256, size: m.size } });
    return;
  } else if (models[0]) {
    await loadBuiltin(models[0]);
  }
  await applyView(state);
}

/** The file a link asked for, picked by the user: checked against the link's hash, then the link goes on. */
export async function provideLinkFile(files: File[]): Promise<void> {
  const want = getState().linkNeedsFile;
  const state = pending;
  if (!want || !state) return;
  const onnx = files.find((f) => /\.onnx$/i.test(f.name)) ?? files[0];
  if (!onnx) return;
  const model = await readFile(onnx);
  const hash = await sha256(model.bytes);
  if (hash !== want.sha256) {
    showError('This is not the file the link was made with', linkError(
      `${onnx.name} has SHA-256 ${hash.slice(0, 12)}…, the link's model ${want.name} has ${want.sha256.slice(0, 12)}…`, `open ${want.name} (${want.size} bytes) as it was when the link was made`));
    return;
  }
  const npz = await Promise.all(files.filter((f) => f !== onnx && /\.npz$/i.test(f.name)).map((f) => readFile(f)));
  pending = null;
  setState({ linkNeedsFile: null });
  await loadModel({ ...model, name: want.name, inputs: npz.find((f) => /input/i.test(f.name)), outputs: npz.find((f) => /output/i.test(f.name)) });
  await applyView(state);
}

export function dismissLinkFile(): void {
  pending = null;
  setState({ linkNeedsFile: null });
}

async function applyView(state: LinkState): Promise<void> {
  if (state.tutorial && !setTutorialProgress(state.tutorial)) showError('The link\'s tutorial progress is not valid here', linkError('it names steps this tutorial does not have'), { sticky: true });
  const err = updateConfig({ ...DEFAULT_CONFIG, ...state.config });
  if (err) showError('The link\'s configuration is not valid here', err, { sticky: true });
  if (state.layout) setState((s) => ({ layout: { preset: state.layout!, n: s.layout.n + 1 } }));
  if (state.baseline) setState({ runBaseline: { ...state.baseline, layers: {} } });
  if (state.timeline) setState({ timelineView: state.timeline });
  if (!getState().model || !state.run) return;
  // C code from the link itself runs only when the user says so (the app goes on meanwhile).
  const carried = carriedCode(state);
  if (carried.length) {
    const model = getState().model;
    void askToRun(carried).then((run) => (run && getState().model === model ? runView(state) : undefined));
    return;
  }
  await runView(state);
}

/** The link's compile and run, then its graph and code view, then its edits, built. */
async function runView(state: LinkState): Promise<void> {
  await compile();
  const s = getState();
  if (state.graph) {
    const g = state.graph;
    setState({ graph: { ...s.graph, overview: false, left: g.left ?? null, right: g.right ?? null, hideUnchanged: !!g.hide, selection: g.node ?? null } });
  }
  if (state.code) {
    setState((x) => ({ code: { ...x.code, file: state.code!.file ?? x.code.file, line: state.code!.line ?? null, asm: !!state.code!.asm } }));
    if (state.code.line) requestReveal(state.code.file ?? null, state.code.line);
  }
  if (state.edits && Object.keys(state.edits).length) {
    const files = getState().stages.codegen.result?.files ?? [];
    const library = Object.keys(state.edits).some((p) => !files.some((f) => f.path === p))
      ? (await import('../../sim/run/sources')).LIBRARY_SOURCES : new Map<string, string>();
    for (const [path, hunks] of Object.entries(state.edits)) {
      const base = files.find((f) => f.path === path)?.content ?? library.get(path);
      if (base === undefined) { showError('An edit in the link cannot be applied', linkError(`the program has no file ${path}`), { sticky: true }); continue; }
      try {
        recordEdit(path, applyHunks(base, hunks), base);
      } catch (e) {
        showError('An edit in the link cannot be applied', linkError(`${path}: ${(e as Error).message}`, 'the link was made with other generated code (another version of the playground)'), { sticky: true });
      }
    }
    await runAgain();
  }
}
