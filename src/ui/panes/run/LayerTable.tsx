// The per-layer table: every figure of a layer in a column, sorted by clicking a header (again:
// the other direction), the selected layer's row marked and kept in view; with a baseline, the
// per-layer speedup. A click on a row selects the layer in the graph, code and memory panes.
import { useMemo, useRef, useState } from 'react';
import type { RunProfile } from '../../../sim/profile/types';
import { useRevealSelected } from './LayerChart';
import { useRowWindow } from './rowWindow';

/** A table row's height and the sticky header's, in pixels (profile.css sets them). */
const ROW_H = 18;
const HEAD_H = 20;
import { columns, EXECUTION_ORDER, formatCell, layerRows, nextSort, sortRows, type Sort } from '../../../sim/profile/table';

export function LayerTable({ profile, baseline, selected, onPick }: {
  profile: RunProfile;
  baseline?: Readonly<Record<string, number>>;
  selected: ReadonlySet<string>;
  onPick: (node: string) => void;
}) {
  const [sort, setSort] = useState<Sort>(EXECUTION_ORDER);
  const cols = useMemo(() => columns(baseline !== undefined), [baseline]);
  const rows = useMemo(() => sortRows(layerRows(profile, baseline), sort, cols), [profile, baseline, sort, cols]);
  const box = useRef<HTMLDivElement>(null);
  const win = useRowWindow(box, rows.length, ROW_H, HEAD_H);
  useRevealSelected(win.reveal, rows.map((r) => r.node), selected);
  return (
    <div className="prof-table-wrap" ref={box}>
      <table className="prof-table" data-testid="profile-table" data-rows={rows.length} data-sort={`${sort.key}:${sort.dir}`}>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c.key} title={`${c.title} (click to sort)`} data-col={c.key}
                aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                className={c.format === 'text' ? 'text' : ''} onClick={() => setSort(nextSort(sort, c.key, cols))}>
                {c.label}{sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {win.padTop > 0 && <tr className="prof-pad" style={{ height: win.padTop }} />}
          {rows.slice(win.first, win.end).map((r) => (
            <tr key={r.order} data-testid="profile-row" data-node={r.node} data-cycles={r.cycles}
              className={selected.has(r.node) ? 'sel' : ''} onClick={() => onPick(r.node)}>
              {cols.map((c) => {
                const v = c.value(r);
                const speed = c.key === 'speedup';
                return (
                  <td key={c.key} className={c.format === 'text' ? 'text' : speed && v !== undefined ? ((v as number) >= 1 ? 'faster' : 'slower') : ''}
                    title={c.key === 'node' ? `${r.node}: ${r.kernel} on ${r.engine}` : undefined}
                    {...(speed ? { 'data-testid': 'speedup-cell', 'data-speedup': v ?? '' } : {})}>
                    {formatCell(v, c.format)}
                  </td>
                );
              })}
            </tr>
          ))}
          {win.padBottom > 0 && <tr className="prof-pad" style={{ height: win.padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}
