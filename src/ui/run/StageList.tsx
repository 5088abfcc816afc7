import { STAGES } from '../../pipeline/results';
import type { StageName } from '../../pipeline/results';
import { checkFailure } from '../stageChecks';
import { MismatchTable } from './MismatchTable';
import type { StageView } from '../stageViews';
import { isStale, useStore } from '../store';

/** How many mismatching elements a stage lists. */
const SHOWN_MISMATCHES = 5;

function detail(name: StageName, v: StageView): string {
  switch (v.status) {
    case 'skipped': return v.reason ?? 'skipped';
    case 'error': return v.error?.what ?? 'failed';
    case 'running': return v.message ?? '';
    case 'mismatch': return checkFailure(name, v.result)?.summary ?? 'outputs differ';
    default: return '';
  }
}

/** The first mismatching elements of a stage's failed check. */
function Mismatches({ name, v }: { name: StageName; v: StageView }) {
  const outputs = useStore((s) => s.stages.parse.result?.graph.outputs);
  const first = checkFailure(name, v.result, outputs)?.first ?? [];
  return <MismatchTable rows={first} shown={SHOWN_MISMATCHES} className="stage-mismatches" testid={`stage-${name}-mismatches`} />;
}

/** Each pipeline stage with its status; results of another configuration are marked stale. */
export function StageList() {
  const stages = useStore((s) => s.stages);
  const stale = useStore(isStale);
  return (
    <section className="panel">
      <h2>Stages</h2>
      <ol className="stage-list" data-testid="stage-list">
        {STAGES.map((name) => {
          const v = stages[name];
          const old = stale && v.status !== 'pending';
          return (
            <li key={name} className={`stage ${v.status}${old ? ' stale' : ''}`} data-testid={`stage-${name}`} data-status={v.status}
              data-stale={old} title={old ? 'stale: from a compile with another configuration' : undefined}>
              <span className="stage-dot" aria-hidden />
              <span className="stage-name">{name}</span>
              <span className="stage-status">{v.status}{old && <span className="badge stale" data-testid={`stage-${name}-stale`}>stale</span>}</span>
              {detail(name, v) && <span className="stage-detail" data-testid={`stage-${name}-detail`}>{detail(name, v)}</span>}
              {v.status === 'mismatch' && <Mismatches name={name} v={v} />}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
