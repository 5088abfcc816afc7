import type { ReactNode } from 'react';
import type { StageName } from '../../pipeline/results';
import { useStore } from '../store';
import { ResultPreview } from './ResultPreview';
import { StaleBadge } from './StaleBadge';

/**
 * A pane's frame: a title, what the pane will show, and meanwhile a raw preview of the
 * results of the stages it is about.
 */
export function Pane({ id, title, stages, children }: {
  id: string; title: string; stages: readonly StageName[]; children: ReactNode;
}) {
  const views = useStore((s) => s.stages);
  const results = stages.filter((s) => views[s].result !== undefined);
  return (
    <section className="pane" data-testid={`pane-${id}`}>
      <h2>{title} <StaleBadge /></h2>
      <div className="pane-body">
        <p className="placeholder">{children}</p>
        {results.map((s) => <ResultPreview key={s} stage={s} result={views[s].result} />)}
      </div>
    </section>
  );
}
