// The tutorial's vocabulary: a step (what to do, how to set it up, what to answer, how it is
// checked), the world a check looks at (the app's store, the runs the tutorial saw, the panes on
// screen) and what a check says. Checks are pure functions of a World and the typed answers.
import type { Config } from '../../compiler/config';
import type { LayerPhase } from '../../sim/profile/types';
import type { StageName } from '../../pipeline/results';
import type { PlaygroundState } from '../store';
import type { PaneId } from '../workspace/layouts';
import type { LabLog } from './lab';

/** What one run measured, kept small enough to store: totals and, per layer, where its cycles went. */
export interface LayerFacts {
  node: string;
  op: string;
  engine: string;
  cycles: number;
  phases: Record<LayerPhase, number>;
  tiles: number;
  /** N-EUREKA busy cycles and bytes moved by the DMAs for the layer. */
  npu: number;
  dmaBytes: number;
  /** Summed over the workers' jobs in the layer: cycles running (instructions + stalls), instructions retired, cycles stalled on L2, and waiting at barriers inside the jobs. */
  busy: number;
  instructions: number;
  l2: number;
  idle: number;
}

/** A compile the tutorial saw finish: a run with its figures, or a stage that stopped it. */
export interface RunRecord {
  /** Order of observation (grows by one per record). */
  seq: number;
  /** Built-in model id, or the file name of a dropped model. */
  model: string;
  config: Config;
  /** Built from code pane edits instead of the generated code. */
  edited: boolean;
  cycles?: number;
  errors?: number;
  total?: number;
  /** The network's cycles (first layer to last, from the profile). */
  network?: number;
  layers: LayerFacts[];
  /** Set when a stage before the run failed: which one and why (e.g. the tiler found no solution). */
  failed?: { stage: StageName; what: string };
}

/** The part of the app's store a check reads. */
export type AppView = Pick<PlaygroundState, 'model' | 'config' | 'compiledConfig' | 'stages' | 'graph' | 'code' | 'runBaseline' | 'runEdits'>
  & Partial<Pick<PlaygroundState, 'ops' | 'compiledOps' | 'operator'>>;

export interface World {
  app: AppView;
  /** Every run the tutorial recorded, oldest first. */
  runs: readonly RunRecord[];
  /** Which panes are on screen now (a pane behind another tab is not). */
  visible: Partial<Record<PaneId, boolean>>;
  /** The Part III lab's table: per lab step, the latest matching run. */
  lab?: LabLog;
}

/** One click: load a built-in model (unless none is named: the student's own), set the configuration (on top of the defaults), arrange the panes. */
export interface Setup {
  id: string;
  label: string;
  model?: string;
  config: Partial<Config>;
  /** A workspace preset id (src/ui/workspace/layouts.ts). */
  preset: string;
}

export interface Question {
  id: string;
  label: string;
  kind: 'number' | 'text';
  /** Shown after the field, e.g. "×" or "cycles". */
  unit?: string;
  /** How close a number must be, in words, e.g. "within 2 %". */
  tolerance?: string;
}

/** 'ok': holds; 'missing': not done yet; 'wrong': done, but not what was measured. */
export type ItemState = 'ok' | 'missing' | 'wrong';

export interface CheckItem {
  id: string;
  label: string;
  state: ItemState;
  /** What was found, or what to do next. */
  detail?: string;
}

export type StepStatus = 'passed' | 'failed' | 'not-yet';

export interface CheckResult {
  status: StepStatus;
  items: CheckItem[];
  /** Once passed: the measured facts behind the answers, pointing at where the panes show them. */
  evidence: string[];
}

export type Answers = Readonly<Record<string, string>>;

export interface Step {
  id: string;
  part: 1 | 2 | 3;
  title: string;
  /** Why the step matters, in a sentence or two. */
  goal: string;
  /** What to do, in order. */
  tasks: string[];
  setups: Setup[];
  questions: Question[];
  check(world: World, answers: Answers): CheckResult;
}
