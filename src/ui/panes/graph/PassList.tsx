// The platform's passes, in the order they run, exactly as its pipeline lists them: which
// side shows which, which passes changed nothing, and which broke the network's outputs.
import { useEffect, useRef } from 'react';
import type { LowerResult } from '../../../compiler/lower/types';
import type { Snapshot } from '../../../compiler/passes/types';
import { showLeft, showRight } from './actions';
import type { Sides } from './state';
import { shownPasses } from './state';

export function PassList({ snapshots, lower, sides, hideUnchanged, note }: {
  snapshots: readonly Snapshot[];
  lower: LowerResult | null;
  sides: Sides;
  hideUnchanged: boolean;
  /** Why there are no passes yet, when there are none. */
  note: string | null;
}) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.querySelector('.is-right')?.scrollIntoView({ block: 'nearest' });
  }, [sides.right]);
  const shown = shownPasses(snapshots, hideUnchanged);
  const hidden = snapshots.length - shown.length;
  const checks = new Map(lower?.checks.map((c) => [c.snapshot, c]));
  return (
    <nav className="pass-list" aria-label="Passes">
      <h3>{lower ? `${lower.platform} passes` : 'Passes'}</h3>
      <ol ref={list} data-testid="graph-pass-list">
        {shown.map((i) => {
          const s = snapshots[i]!;
          const check = checks.get(i);
          const bad = check !== undefined && check.errors > 0;
          const cls = ['pass', i > 0 && !s.changed ? 'unchanged' : '', bad ? 'check-failed' : '',
            sides.right === i ? 'is-right' : '', sides.left === i ? 'is-left' : ''].filter(Boolean).join(' ');
          const title = [s.doc, i > 0 && !s.changed ? 'This pass changed nothing.' : '',
            check ? `Semantic check: ${check.errors} of ${check.total} output elements differ.` : '',
            'Click: show on the right. Shift-click: pin on the left.'].filter(Boolean).join('\n');
          return (
            <li key={i}>
              <button type="button" className={cls} title={title} data-testid={`graph-pass-${i}`}
                data-pass={s.pass} data-changed={String(i === 0 || s.changed)} data-errors={check?.errors ?? 0}
                aria-current={sides.right === i ? 'step' : undefined}
                onClick={(e) => (e.shiftKey ? showLeft(i) : showRight(i))}>
                <span className="pass-index">{i}</span>
                <span className="pass-name">{s.pass}</span>
                {i > 0 && !s.changed && <span className="pass-tag" aria-label="no change">=</span>}
                {bad && <span className="pass-errors" data-testid={`graph-pass-errors-${i}`}>✗ {check.errors}</span>}
                <span className="pass-sides">
                  {sides.left === i && <span className="side-badge left">L</span>}
                  {sides.right === i && <span className="side-badge right">R</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      {hidden > 0 && <p className="muted small" data-testid="graph-hidden-count">{hidden} unchanged {hidden === 1 ? 'pass' : 'passes'} hidden</p>}
      {note && <p className="muted small" data-testid="graph-pass-note">{note}</p>}
      {lower && lower.failures.length > 0 && (
        <p className="pass-failures small" data-testid="graph-binding-failures">
          {lower.failures.length} {lower.failures.length === 1 ? 'node has' : 'nodes have'} no kernel
        </p>
      )}
    </nav>
  );
}
