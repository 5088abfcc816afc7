// The one store of the app: configuration, the loaded model, the run and its results, and
// the last error. Components read it through selectors; actions.ts drives the runs.
import { create } from 'zustand';
import type { PlaygroundErrorData } from '../common/errors';
import { toErrorData } from '../common/errors';
import type { Config } from '../compiler/config';
import { DEFAULT_CONFIG, validateConfig } from '../compiler/config';
import type { StageName } from '../pipeline/results';
import type { BuiltinModel } from './builtins';
import type { NamedBytes } from './files';
import type { CodePaneState } from './panes/code/state';
import { INITIAL_CODE_STATE } from './panes/code/state';
import type { GraphPaneState } from './panes/graph/state';
import { INITIAL_GRAPH_STATE } from './panes/graph/state';
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
}

export interface PlaygroundState {
  config: Config;
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
  /** The code pane: the file shown, the Edit toggle, local edits (they never reach the pipeline). */
  code: CodePaneState;
}

export const useStore = create<PlaygroundState>()(() => ({
  config: DEFAULT_CONFIG,
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
}));

/**
 * Changes the configuration if the result is valid; otherwise leaves it as it is and
 * returns the error. Leaving N-EUREKA turns its weight memory off.
 */
export function updateConfig(patch: Partial<Config>): PlaygroundErrorData | null {
  const next = { ...useStore.getState().config, ...patch };
  if (next.platform !== 'siracusa-neureka') next.neurekaWmem = false;
  try {
    validateConfig(next);
  } catch (err) {
    return toErrorData(err, 'config');
  }
  useStore.setState({ config: next });
  return null;
}

export function showError(title: string, data: PlaygroundErrorData): void {
  useStore.setState({ error: { title, data } });
}

export function dismissError(): void {
  useStore.setState({ error: null });
}
