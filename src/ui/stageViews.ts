// What the stage list shows for each pipeline stage, and how pipeline events change it.
// Pure functions: the store applies them, the tests call them directly.
import type { PlaygroundErrorData } from '../common/errors';
import type { PipelineEvent, StageName } from '../pipeline/events';
import { STAGES } from '../pipeline/events';

export type StageStatus = 'pending' | 'running' | 'done' | 'skipped' | 'error' | 'cancelled';

export interface StageView {
  status: StageStatus;
  /** Why it was skipped. */
  reason?: string;
  error?: PlaygroundErrorData;
  /** The stage's result (plain data), once it has one. */
  result?: unknown;
  /** Last progress message and fraction while running. */
  message?: string;
  fraction?: number;
}

export type StageViews = Record<StageName, StageView>;

export function freshStages(): StageViews {
  return Object.fromEntries(STAGES.map((s) => [s, { status: 'pending' }])) as StageViews;
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
  for (const s of STAGES) if (out[s].status === 'running') out[s] = { ...out[s], status: 'cancelled' };
  return out;
}
