import { cancel, compile } from '../actions';
import type { PlaygroundState } from '../store';
import { useStore } from '../store';

function statusText(s: Pick<PlaygroundState, 'busy' | 'runStatus' | 'runMs'>): string {
  if (s.busy?.kind === 'load') return `checking ${s.busy.name}…`;
  switch (s.runStatus) {
    case 'none': return 'ready';
    case 'running': return 'running…';
    case 'done': return `done${s.runMs !== null ? ` in ${Math.round(s.runMs)} ms` : ''}`;
    case 'failed': return 'failed';
    case 'cancelled': return 'cancelled';
  }
}

/** The compile button, and while the worker is busy, the progress and a Cancel button. */
export function RunBar() {
  const busy = useStore((s) => s.busy);
  const runStatus = useStore((s) => s.runStatus);
  const runMs = useStore((s) => s.runMs);
  const progress = useStore((s) => s.progress);
  const hasModel = useStore((s) => s.model !== null);
  const status = busy?.kind === 'load' ? 'loading' : runStatus;
  return (
    <section className="panel run-bar">
      <div className="run-row">
        <button type="button" className="button primary" data-testid="compile-button"
          disabled={!hasModel || busy !== null} onClick={() => void compile()}>
          Compile &amp; run
        </button>
        <span className={`run-status ${status}`} data-testid="run-status" data-status={status}>
          {statusText({ busy, runStatus, runMs })}
        </span>
      </div>
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
