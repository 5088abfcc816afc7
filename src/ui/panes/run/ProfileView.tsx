// The run's profile in the Run pane: the timeline, the per-layer bars and table side by side (one
// above the other when the pane is narrow), the selected layer's tiles and cores, and the
// exports. Reads the plain RunProfile only; the selection is the graph pane's (shared with the
// code and memory panes), the baseline the store's.
import type { RefObject } from 'react';
import { useMemo } from 'react';
import type { RunProfile } from '../../../sim/profile/types';
import type { RunResult } from '../../../sim/run/types';
import { useStore } from '../../store';
import { finalNodes } from '../code/layers';
import { usePaneData } from '../graph/actions';
import { exportCsv, exportTrace, selectLayer } from './actions';
import { LayerChart, PhaseLegend } from './LayerChart';
import { LayerDetail } from './LayerDetail';
import { LayerTable } from './LayerTable';
import { Timeline, type DrawStats, type TimelineApi } from './Timeline';
import './profile.css';

const NONE: ReadonlySet<string> = new Set();

/** The final graph's nodes selected now (a node of an earlier snapshot stands for what it became). */
function useSelectedNodes(): ReadonlySet<string> {
  const selection = useStore((s) => s.graph.selection);
  const { snapshots } = usePaneData();
  return useMemo(() => {
    const nodes = finalNodes(snapshots, selection);
    return nodes.length ? new Set(nodes) : NONE;
  }, [snapshots, selection]);
}

export function ProfileView({ profile, result, onDraw, timelineApi }: {
  profile: RunProfile;
  result: RunResult;
  /** Bench hooks: told each timeline frame, handed the timeline's controls. */
  onDraw?: (s: DrawStats) => void;
  timelineApi?: RefObject<TimelineApi | null>;
}) {
  const selected = useSelectedNodes();
  const baseline = useStore((s) => s.runBaseline?.layers);
  const detail = profile.layers.find((l) => selected.has(l.node));
  const network = profile.end - profile.start;
  return (
    <div className="prof" data-testid="profile" data-layers={profile.layers.length} data-span-count={profile.spans.count}>
      <div className="prof-head">
        <h3 className="run-sub">Profile</h3>
        <span className="muted" data-testid="profile-summary">
          network {network.toLocaleString('en-US')} of {profile.total.toLocaleString('en-US')} cycles · {profile.layers.length} layers
          {' '}· {profile.spans.count.toLocaleString('en-US')} spans
        </span>
        <span className="prof-actions">
          <button type="button" className="button small" data-testid="export-trace"
            title="The timeline as Chrome trace-event JSON: open it in ui.perfetto.dev or chrome://tracing"
            onClick={() => exportTrace(profile, result)}>Export trace</button>
          <button type="button" className="button small" data-testid="export-csv" title="The per-layer table as CSV"
            onClick={() => exportCsv(profile)}>Export CSV</button>
        </span>
      </div>
      {profile.dropped > 0 && (
        <p className="run-note" data-testid="profile-dropped">
          The simulator&apos;s event log overflowed: {profile.dropped.toLocaleString('en-US')} events were not recorded, so the profile is incomplete.
        </p>
      )}
      <PhaseLegend profile={profile} />
      <Timeline profile={profile} selected={selected} onPick={selectLayer} onDraw={onDraw} apiRef={timelineApi} />
      {profile.layers.length > 0 ? (
        <div className="prof-layers">
          <LayerChart profile={profile} selected={selected} onPick={selectLayer} />
          <LayerTable profile={profile} baseline={baseline} selected={selected} onPick={selectLayer} />
        </div>
      ) : (
        <p className="placeholder" data-testid="profile-no-layers">The profile holds no layer: the program ran outside the network&apos;s layers.</p>
      )}
      {detail && <LayerDetail layer={detail} />}
    </div>
  );
}
