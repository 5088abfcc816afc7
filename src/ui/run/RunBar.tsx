import { cancel, compile } from '../actions';
import type { PlaygroundState } from '../store';
import { compileBlocker, isStale, useStore } from '../store';
import { checkFailure } from '../stageChecks';
import { STAGES } from '../../pipeline/results';
import { shownName } from '../names';

function statusText(s: Pick<PlaygroundState, 'busy' | 'runStatus' | 'runMs'>, mismatch: string | null): string {
  if (s.busy?.kind === 'load') return `checking ${shownName(s.busy.name)}…`;
  switch (s.runStatus) {
    case 'none': return 'ready';
    case 'running': return 'running…';
    case 'done': return `done${s.runMs !== null ? ` in ${Math.round(s.runMs)} ms` : ''}`;
    case 'failed': return mismatch ? `failed: ${mismatch}` : 'failed';
    case 'cancelled': return 'cancelled';
  }
}

/** The first stage whose check failed, as "reference: 2 of 10 outputs differ". */
function mismatchOf(s: PlaygroundState): string | null {
  for (const stage of STAGES) {
    const f = checkFailure(stage, s.stages[stage].result);
    if (f) return `${stage}: ${f.summary}`;
  }
  return null;
}

/** The compile button (naming the model it compiles, or why it cannot), and while the worker is busy, the progress and a Cancel button. */
export function RunBar() {
  const busy = useStore((s) => s.busy);
  const runStatus = useStore((s) => s.runStatus);
  const runMs = useStore((s) => s.runMs);
  const progress = useStore((s) => s.progress);
  const model = useStore((s) => s.model);
  const blocker = useStore(compileBlocker);
  const stale = useStore(isStale);
  const mismatch = useStore(mismatchOf);
  const status = busy?.kind === 'load' ? 'loading' : runStatus;
  const target = model ? shownName(model.name) : null;
  return (
    <section className="panel run-bar">
      <div className="run-row">
        <button type="button" className="button primary" data-testid="compile-button"
          disabled={blocker !== null || busy !== null} title={blocker ? `Cannot compile: ${blocker}` : `Compile and run ${target}`}
          onClick={() => void compile()}>
          Compile &amp; run
        </button>
        <span className={`run-status ${status}${stale ? ' stale' : ''}`} data-testid="run-status" data-status={status} data-stale={stale}>
          {statusText({ busy, runStatus, runMs }, mismatch)}
        </span>
      </div>
      {stale && (
        <div className="run-stale" data-testid="run-stale">
          <span className="badge stale">stale</span> the configuration changed since this compile: compile again to update the results
        </div>
      )}
      {target && <div className="compile-target" data-testid="compile-target">compiles <b>{target}</b></div>}
      {blocker && model && <div className="field-error" role="alert" data-testid="compile-blocked">Cannot compile: {blocker}</div>}
      {busy && (
        <div className="progress" data-testid="progress">
          <div className="progress-label">
            <span data-testid="progress-stage">{progress?.stage ?? 'starting'}</span>
            <span className="progress-message" data-testid="progress-message">{progress?.message ?? ''}</span>
          </div>
          <div className="progress-row">
            <progress max={1} value={progress?.fraction ?? 0} data-testid="progress-bar" />
            <button type="button" className="button" data-testid="cancel-button" onClick={cancel}>Cancel</button>
          </div>
        </div>
      )}
    </section>
  );
}
