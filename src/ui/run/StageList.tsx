import { STAGES } from '../../pipeline/results';
import type { StageView } from '../stageViews';
import { useStore } from '../store';

function detail(v: StageView): string {
  switch (v.status) {
    case 'skipped': return v.reason ?? 'skipped';
    case 'error': return v.error?.what ?? 'failed';
    case 'running': return v.message ?? '';
    default: return '';
  }
}

/** Each pipeline stage with its status. */
export function StageList() {
  const stages = useStore((s) => s.stages);
  return (
    <section className="panel">
      <h2>Stages</h2>
      <ol className="stage-list" data-testid="stage-list">
        {STAGES.map((name) => {
          const v = stages[name];
          return (
            <li key={name} className={`stage ${v.status}`} data-testid={`stage-${name}`} data-status={v.status}>
              <span className="stage-dot" aria-hidden />
              <span className="stage-name">{name}</span>
              <span className="stage-status">{v.status}</span>
              {detail(v) && <span className="stage-detail" data-testid={`stage-${name}-detail`}>{detail(v)}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
