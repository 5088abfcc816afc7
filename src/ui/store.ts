// The one store of the app: configuration, the loaded model, the run and its results, and
// the last error. Components read it through selectors; actions.ts drives the runs.
import { create } from 'zustand';
import type { PlaygroundErrorData } from '../common/errors';
import type { Config } from '../compiler/config';
import { DEFAULT_CONFIG } from '../compiler/config';
import type { UserOp } from '../compiler/ops/user/spec';
import type { StageName } from '../pipeline/results';
import type { BuiltinModel } from './builtins';
import type { Drafts, NumberFieldName } from './config/drafts';
import { configError, draftsBlocker, settle } from './config/drafts';
import type { NamedBytes } from './files';
import type { CodePaneState } from './panes/code/state';
import { editTexts, INITIAL_CODE_STATE } from './panes/code/state';
import type { GraphPaneState } from './panes/graph/state';
import type { OperatorState } from './operator/state';
import { INITIAL_OPERATOR_STATE } from './operator/state';
import { INITIAL_GRAPH_STATE } from './panes/graph/state';
import type { RunBaseline } from './panes/run/baseline';
import type { StageViews } from './stageViews';
import { freshStages } from './stageViews';

export interface LoadedModel extends NamedBytes {
  inputs?: NamedBytes;
  outputs?: NamedBytes;
  /** Set when it is one of the built-in models. */
  builtinId?: string;
}

export type BuiltinList =
  | { state: 'loading' }
  | { state: 'ready'; models: BuiltinModel[] }
  | { state: 'failed'; message: string };

/** The last compile: none yet (or a new model since), running, or how it ended. */
export type RunStatus = 'none' | 'running' | 'done' | 'failed' | 'cancelled';

export interface Progress {
  stage: StageName;
  fraction: number;
  message: string;
}

/** An error as shown in the banner: what the user was doing, and the typed error. */
export interface ShownError {
  title: string;
  data: PlaygroundErrorData;
  /** Stays until the user dismisses it: a later load or compile does not clear it (a link's problem, shown while the app opens without it). */
  sticky?: boolean;
}

/** A model the user tried to load and could not: the header names it instead of the loaded one. */
export interface LoadFailure {
  name: string;
  error: PlaygroundErrorData;
}

export interface PlaygroundState {
  /** The last valid configuration: what Compile uses. */
  config: Config;
  /** Numeric fields whose text is not (yet) a valid value; they block Compile. */
  drafts: Drafts;
  /** The configuration of the last compile; results are stale when it differs from `config`. */
  compiledConfig: Config | null;
  /** The last model load that failed, until a load succeeds. */
  loadFailure: LoadFailure | null;
  builtins: BuiltinList;
  model: LoadedModel | null;
  /** Work in the worker right now: checking a new model, or a compile. */
  busy: null | { kind: 'load'; name: string } | { kind: 'compile' };
  runStatus: RunStatus;
  /** Wall time of the last finished compile. */
  runMs: number | null;
  progress: Progress | null;
  stages: StageViews;
  error: ShownError | null;
  /** The graph pane: the snapshots on its two sides, the selected node (panes link through it). */
  graph: GraphPaneState;
  /** The code pane: the file shown, the Edit toggle, local edits (built and run by Compile & run and Run). */
  code: CodePaneState;
  /** The edits (path -> text) the run stage's result was built with; null before a run. */
  runEdits: Record<string, string> | null;
  /** The run pinned for comparison: later runs show their speedup against it (kept until unpinned). */
  runBaseline: RunBaseline | null;
  /** The Run pane's timeline window (cycles), once the user zoomed or a link set it; null: the whole run. */
  timelineView: { t0: number; t1: number } | null;
  /** The workspace preset last chosen (a link carries it), and a counter a new choice bumps. */
  layout: { preset: string | null; n: number };
  /** A link names a model file the browser does not have: the app asks for it. */
  linkNeedsFile: { name: string; sha256: string; size: number } | null;
  /** A link that would run C code it carries (a user operator's kernel, code edits) asks first: the files it names. */
  linkRunPrompt: { files: string[] } | null;
  /** The user-defined operators (tutorial Part III) every compile and model check uses, as applied in the Operator pane. */
  ops: UserOp[];
  /** The ops of the last compile; results are stale when the applied ones changed since. */
  compiledOps: UserOp[] | null;
  /** The Operator pane: the op being edited (its form and kernel), which applied op it stands for. */
  operator: OperatorState;
  /** A pane another part of the app asked to bring to the front (its tab selected), and a counter a new request bumps. */
  paneRequest: { pane: string | null; n: number };
}

export const useStore = create<PlaygroundState>()(() => ({
  config: DEFAULT_CONFIG,
  drafts: {},
  compiledConfig: null,
  loadFailure: null,
  builtins: { state: 'loading' },
  model: null,
  busy: null,
  runStatus: 'none',
  runMs: null,
  progress: null,
  stages: freshStages(),
  error: null,
  graph: INITIAL_GRAPH_STATE,
  code: INITIAL_CODE_STATE,
  runEdits: null,
  runBaseline: null,
  timelineView: null,
  layout: { preset: null, n: 0 },
  linkNeedsFile: null,
  linkRunPrompt: null,
  ops: [],
  compiledOps: null,
  operator: INITIAL_OPERATOR_STATE,
  paneRequest: { pane: null, n: 0 },
}));

/**
 * Changes the configuration if the result is valid; otherwise leaves it as it is and
 * returns the error. Leaving N-EUREKA turns its weight memory off.
 */
export function updateConfig(patch: Partial<Config>): PlaygroundErrorData | null {
  const s = useStore.getState();
  const next = { ...s.config, ...patch };
  if (next.platform !== 'siracusa-neureka') next.neurekaWmem = false;
  const err = configError(next);
  if (err) return err;
  useStore.setState(settle(next, s.drafts));
  return null;
}

/** A numeric field as typed: applied when valid (with the other drafts), kept as a draft otherwise. */
export function editNumber(field: NumberFieldName, text: string): void {
  const s = useStore.getState();
  useStore.setState(settle(s.config, { ...s.drafts, [field]: text }));
}

/** Results of a compile with another configuration (or other applied operators) than the ones shown. */
export function isStale(s: Pick<PlaygroundState, 'compiledConfig' | 'config'> & Partial<Pick<PlaygroundState, 'ops' | 'compiledOps'>>): boolean {
  if (s.compiledConfig === null) return false;
  if (JSON.stringify(s.compiledConfig) !== JSON.stringify(s.config)) return true;
  return s.compiledOps !== undefined && s.compiledOps !== null && s.ops !== undefined && s.compiledOps !== s.ops;
}

/** Brings a pane's tab to the front of its tab set (the Workspace follows the request). */
export function showPane(pane: string): void {
  useStore.setState((s) => ({ paneRequest: { pane, n: s.paneRequest.n + 1 } }));
}

/** The run's result is from other code than the editor holds now: the edits changed since it was built. */
export function isRunStale(s: Pick<PlaygroundState, 'runEdits' | 'code'>): boolean {
  if (s.runEdits === null) return false;
  const now = editTexts(s.code.edits);
  const a = Object.keys(now), b = Object.keys(s.runEdits);
  return a.length !== b.length || a.some((p) => now[p] !== s.runEdits![p]);
}

/** Why Compile cannot run now (besides work in progress), or null. */
export function compileBlocker(s: PlaygroundState): string | null {
  if (!s.model) return 'no model is loaded';
  return draftsBlocker(s.config, s.drafts);
}

export function showError(title: string, data: PlaygroundErrorData, opts: { sticky?: boolean } = {}): void {
  useStore.setState({ error: { title, data, ...(opts.sticky ? { sticky: true } : {}) } });
}

/** The banner once work that succeeds starts or ends: cleared, unless it is one that stays until dismissed. */
export const clearedError = (s: PlaygroundState): ShownError | null => (s.error?.sticky ? s.error : null);

export function dismissError(): void {
  useStore.setState({ error: null });
}
