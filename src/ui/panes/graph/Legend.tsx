// What the node colours and outlines mean.
import type { NodeStatus } from './lineage';

const STATUSES: [NodeStatus, string, string][] = [
  ['same', 'unchanged', 'the same on both sides'],
  ['changed', 'changed', 'same node, other op, tensors or attributes; or rewritten under a new name'],
  ['added', 'added', 'a node the other side does not have, e.g. an inserted Transpose'],
  ['fused', 'fused', 'made from several nodes, or one of the nodes that went into it'],
  ['removed', 'removed', 'nothing on the other side came from it'],
];

export function Legend() {
  return (
    <div className="graph-legend" data-testid="graph-legend">
      {STATUSES.map(([s, label, title]) => (
        <span key={s} className="legend-item" title={title}>
          <svg width="22" height="14" aria-hidden><rect className={`legend-box status-${s}`} x="1" y="1" width="20" height="12" rx="3" /></svg>
          {label}
        </span>
      ))}
      <span className="legend-item" title="the selected node, and the nodes it came from or became on the other side">
        <svg width="22" height="14" aria-hidden><rect className="legend-box linked" x="1.5" y="1.5" width="19" height="11" rx="3" /></svg>
        selected / linked
      </span>
      <span className="legend-item" title="search matches">
        <svg width="22" height="14" aria-hidden><rect className="legend-box match" x="1.5" y="1.5" width="19" height="11" rx="3" /></svg>
        search match
      </span>
      <span className="legend-item" title="passes marked so in the list left the graph as it was">
        <span className="pass-tag">=</span> pass changed nothing
      </span>
      <span className="legend-item" title="the semantic check ran the graph after the pass and compared its outputs with the input graph's">
        <span className="pass-errors">✗ n</span> pass changed n output values
      </span>
    </div>
  );
}
