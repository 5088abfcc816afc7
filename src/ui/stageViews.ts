// What the stage list shows for each pipeline stage, and how pipeline events change it.
// Pure functions: the store applies them, the tests call them directly.
import type { PlaygroundErrorData } from '../common/errors';
import type { PipelineEvent } from '../pipeline/events';
import { STAGES, type StageName, type StageResults } from '../pipeline/results';

export type StageStatus = 'pending' | 'running' | 'done' | 'skipped' | 'error' | 'cancelled';

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
        ? { ...prev, status: 'done', message: e.message, fraction: 1 }
        : { ...prev, status: 'running', message: e.message, fraction: e.fraction };
      break;
    case 'stage':
      next = { ...prev, status: 'done', result: e.result };
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

/** After a cancel: the stage that was running is marked cancelled. */
export function cancelStages(views: StageViews): StageViews {
  const out = { ...views };
  const cancel = <S extends StageName>(s: S) => { out[s] = { ...out[s], status: 'cancelled' }; };
  for (const s of STAGES) if (out[s].status === 'running') cancel(s);
  return out;
}
