// What the stage list shows for each pipeline stage, and how pipeline events change it.
// Pure functions: the store applies them, the tests call them directly.
import type { PlaygroundErrorData } from '../common/errors';
import type { PipelineEvent } from '../pipeline/events';
import { STAGES, type StageName, type StageResults } from '../pipeline/results';
import { checkFailure } from './stageChecks';

/** 'mismatch': the stage ran but its check failed (outputs differ); the run went on. */
export type StageStatus = 'pending' | 'running' | 'done' | 'mismatch' | 'skipped' | 'error' | 'cancelled';

export interface StageView<S extends StageName = StageName> {
  status: StageStatus;
  /** Why it was skipped. */
  reason?: string;
  error?: PlaygroundErrorData;
  /** The stage's result (plain data), once it has one. */
  result?: StageResults[S];
  /** Last progress message and fraction while running. */
  message?: string;
  fraction?: number;
}

export type StageViews = { [S in StageName]: StageView<S> };

const PENDING = { status: 'pending' } as const;

export function freshStages(): StageViews {
  return { parse: PENDING, reference: PENDING, lower: PENDING, tile: PENDING, codegen: PENDING, run: PENDING };
}

/** Applies one pipeline event; returns the same object when nothing changes. */
export function applyStageEvent(views: StageViews, e: PipelineEvent): StageViews {
  if (e.type === 'done') return views;
  const prev = views[e.stage];
  let next: StageView;
  switch (e.type) {
    case 'progress':
      next = e.fraction >= 1
        ? { ...prev, status: prev.status === 'mismatch' ? 'mismatch' : 'done', message: e.message, fraction: 1 }
        : { ...prev, status: 'running', message: e.message, fraction: e.fraction };
      break;
    case 'stage':
      next = { ...prev, status: checkFailure(e.stage, e.result) ? 'mismatch' : 'done', result: e.result };
      break;
    case 'skipped':
      next = { status: 'skipped', reason: e.reason };
      break;
    case 'error':
      next = { ...prev, status: 'error', error: e.error };
      break;
  }
  return { ...views, [e.stage]: next };
}

/** True when a stage's check failed: the run is not a success even if every stage finished. */
export function anyMismatch(views: StageViews): boolean {
  return STAGES.some((s) => views[s].status === 'mismatch');
}

/** After a cancel: the stage that was running is marked cancelled. */
export function cancelStages(views: StageViews): StageViews {
  const out = { ...views };
  const cancel = <S extends StageName>(s: S) => { out[s] = { ...out[s], status: 'cancelled' }; };
  for (const s of STAGES) if (out[s].status === 'running') cancel(s);
  return out;
}
