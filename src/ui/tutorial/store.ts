// The tutorial's own store: the panel's progress and answers (kept in localStorage), the last
// check of each step, and the runs recorded from the app's store. The recorder watches the app
// store: every finished run, and every compile stopped by a stage before the run, becomes a
// RunRecord the Part II checks read.
import { create } from 'zustand';
import { STAGES } from '../../pipeline/results';
import { useStore, type PlaygroundState } from '../store';
import { PANES, type PaneId } from '../workspace/layouts';
import { freshTutorial, parseProgress, parseRuns, parseStored, PROGRESS_KEY, RUNS_KEY, serialiseRuns, serialiseStored, MAX_RUNS, type StoredTutorial, type TutorialProgress } from './progress';
import { summariseRun } from './runlog';
import { labStepOf, parseLab, serialiseLab, usedOp, type LabLog } from './lab';
import { stepById, STEP_IDS } from './steps';
import type { CheckResult, RunRecord, StepStatus, World } from './types';

export interface TutorialState extends StoredTutorial {
  /** The last Check of each step (this session). */
  results: Record<string, CheckResult>;
  runs: RunRecord[];
  /** The Part III lab's table (kept in localStorage). */
  lab: LabLog;
}

export const LAB_KEY = 'dpg.tutorial.lab.v1';

const storage = (): Storage | undefined => { try { return window.localStorage; } catch { return undefined; } };
const read = (key: string) => { try { return storage()?.getItem(key); } catch { return null; } };
const write = (key: string, text: string) => { try { storage()?.setItem(key, text); } catch { /* full or denied: not kept */ } };

export const useTutorial = create<TutorialState>()(() => ({ ...parseStored(read(PROGRESS_KEY)), results: {}, runs: parseRuns(read(RUNS_KEY)), lab: parseLab(read(LAB_KEY)) }));

useTutorial.subscribe((s, prev) => {
  if (s.open !== prev.open || s.step !== prev.step || s.passed !== prev.passed || s.answers !== prev.answers) write(PROGRESS_KEY, serialiseStored(s));
  if (s.runs !== prev.runs) write(RUNS_KEY, serialiseRuns(s.runs));
  if (s.lab !== prev.lab) write(LAB_KEY, serialiseLab(s.lab));
});

/** The progress a share link carries. */
export function tutorialProgress(): TutorialProgress {
  const { step, passed } = useTutorial.getState();
  return { step, passed: [...passed] };
}

/** Replaces the progress (from a link); false, changing nothing, when it is not valid progress. */
export function setTutorialProgress(value: unknown): boolean {
  const p = parseProgress(value);
  if (!p) return false;
  useTutorial.setState({ step: p.step, passed: p.passed, results: {} });
  return true;
}

/** Calls `listener` with the new progress whenever the step shown or the steps passed change (for the address bar). */
export function subscribeTutorialProgress(listener: (p: TutorialProgress) => void): () => void {
  return useTutorial.subscribe((s, prev) => {
    if (s.step !== prev.step || s.passed !== prev.passed) listener({ step: s.step, passed: [...s.passed] });
  });
}

export function openTutorial(open = true): void {
  useTutorial.setState({ open });
}

export function goToStep(id: string): void {
  if (STEP_IDS.includes(id)) useTutorial.setState({ step: id });
}

export function setAnswer(step: string, question: string, text: string): void {
  useTutorial.setState((s) => ({ answers: { ...s.answers, [step]: { ...s.answers[step], [question]: text.slice(0, 100) } } }));
}

/** Starts over: no step passed, no answers, no recorded runs. */
export function resetTutorial(): void {
  useTutorial.setState({ ...freshTutorial(), open: true, results: {}, runs: [], lab: {} });
}

export function stepStatus(s: Pick<TutorialState, 'passed' | 'results'>, id: string): StepStatus {
  return s.passed.includes(id) ? 'passed' : s.results[id]?.status ?? 'not-yet';
}

/** Which panes are on screen: their tab is rendered and not hidden behind another tab. */
function visiblePanes(): World['visible'] {
  const out: World['visible'] = {};
  if (typeof document === 'undefined') return out;
  for (const p of PANES) {
    const el = document.querySelector<HTMLElement>(`[data-testid="tab-${p}"]`);
    out[p as PaneId] = el !== null && el.offsetWidth > 0 && el.offsetHeight > 0;
  }
  return out;
}

export function currentWorld(): World {
  return { app: useStore.getState(), runs: useTutorial.getState().runs, visible: visiblePanes(), lab: useTutorial.getState().lab };
}

/** Checks a step against the app as it is now; a pass is kept. */
export function checkStep(id: string, world: World = currentWorld()): CheckResult | null {
  const step = stepById(id);
  if (!step) return null;
  const result = step.check(world, useTutorial.getState().answers[id] ?? {});
  useTutorial.setState((s) => ({
    results: { ...s.results, [id]: result },
    passed: result.status === 'passed' && !s.passed.includes(id) ? STEP_IDS.filter((x) => x === id || s.passed.includes(x)) : s.passed,
  }));
  return result;
}

function record(r: Omit<RunRecord, 'seq'>): void {
  useTutorial.setState((s) => {
    const seq = (s.runs.at(-1)?.seq ?? 0) + 1;
    return { runs: [...s.runs, { ...r, seq }].slice(-MAX_RUNS) };
  });
}

/** A run of a model using a user operator, matching a lab step (configuration and kernel kind), with Errors 0: its row of the lab table. */
function recordLab(s: PlaygroundState, r: Omit<RunRecord, 'seq'>): void {
  if (r.edited || r.errors !== 0 || r.cycles === undefined || !s.compiledConfig) return;
  const types = new Set(s.stages.parse.result?.graph.nodes.map((n) => n.op) ?? []);
  const op = usedOp(s.compiledOps, types);
  if (!op) return;
  const step = labStepOf(s.compiledConfig, op);
  if (!step) return;
  useTutorial.setState((t) => {
    const seq = Math.max(0, ...Object.values(t.lab).map((e) => e.seq)) + 1;
    return { lab: { ...t.lab, [step]: { seq, cycles: r.cycles!, errors: 0, total: r.total ?? 0, op: op.spec.op, model: r.model } } };
  });
}

const modelOf = (s: PlaygroundState) => s.model?.builtinId ?? s.model?.name ?? 'model';
const edited = (s: PlaygroundState) => s.runEdits !== null && Object.keys(s.runEdits).length > 0;

/**
 * Records every run that finishes from now on, and every compile a stage before the run stops.
 * Returns the unsubscription.
 */
export function startRecorder(): () => void {
  let lastRun = useStore.getState().stages.run.result;
  let lastStatus = useStore.getState().runStatus;
  return useStore.subscribe((s) => {
    const run = s.stages.run;
    if (run.result && run.result !== lastRun && (run.status === 'done' || run.status === 'mismatch') && s.compiledConfig) {
      lastRun = run.result;
      const { seq: _seq, ...rest } = summariseRun(0, modelOf(s), s.compiledConfig, run.result, edited(s));
      record(rest);
      recordLab(s, rest);
    }
    if (s.runStatus !== lastStatus) {
      const stopped = lastStatus === 'running' && s.runStatus === 'failed'
        ? STAGES.find((st) => st !== 'run' && s.stages[st].status === 'error') : undefined;
      if (stopped && s.compiledConfig)
        record({ model: modelOf(s), config: { ...s.compiledConfig }, edited: edited(s), layers: [],
          failed: { stage: stopped, what: (s.stages[stopped].error?.what ?? 'failed').slice(0, 2000) } });
      lastStatus = s.runStatus;
    }
  });
}
