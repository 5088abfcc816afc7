// Per-layer bars stacked by phase (DMA in, waiting on DMA, kernel, DMA out, control), in
// execution order, scaled to the slowest layer; a legend with each phase's share of the network.
// Plain divs with percentage widths: a few hundred layers draw in one React commit.
import { useEffect, useRef } from 'react';
import { useRowWindow } from './rowWindow';
import type { LayerPhase, RunProfile } from '../../../sim/profile/types';
import { LAYER_PHASES } from '../../../sim/profile/types';
import { PHASE_COLORS, PHASE_NAMES } from './colors';

const fmt = (n: number) => n.toLocaleString('en-US');

export function PhaseLegend({ profile }: { profile: RunProfile }) {
  const totals = Object.fromEntries(LAYER_PHASES.map((p) => [p, 0])) as Record<LayerPhase, number>;
  let all = 0;
  for (const l of profile.layers) for (const p of LAYER_PHASES) { totals[p] += l.phases[p]; all += l.phases[p]; }
  return (
    <div className="prof-legend" data-testid="profile-legend">
      {LAYER_PHASES.map((p) => (
        <span key={p} title={`${PHASE_NAMES[p]}: ${fmt(totals[p])} controller cycles over all layers`}>
          <i style={{ background: PHASE_COLORS[p] }} /> {p} {all > 0 ? `${((100 * totals[p]) / all).toFixed(1)}%` : ''}
        </span>
      ))}
      <span className="muted">· timeline only:</span>
      {(['busy', 'barrier', 'transfer', 'other'] as const).map((p) => (
        <span key={p} title={PHASE_NAMES[p]}><i style={{ background: PHASE_COLORS[p] }} /> {p}</span>
      ))}
    </div>
  );
}

export function LayerChart({ profile, selected, onPick }: {
  profile: RunProfile; selected: ReadonlySet<string>; onPick: (node: string) => void;
}) {
  const max = Math.max(1, ...profile.layers.map((l) => l.cycles));
  const box = useRef<HTMLDivElement>(null);
  const win = useRowWindow(box, profile.layers.length, BAR_H);
  useRevealSelected(win.reveal, profile.layers.map((l) => l.node), selected);
  return (
    <div className="prof-chart" data-testid="profile-chart" data-layers={profile.layers.length} ref={box}>
      <div style={{ height: win.padTop }} />
      {profile.layers.slice(win.first, win.end).map((l) => (
        <div key={l.index} className={`prof-bar-row${selected.has(l.node) ? ' sel' : ''}`} data-testid="profile-bar" data-node={l.node}
          data-cycles={l.cycles} onClick={() => onPick(l.node)} title={barTitle(l.node, l.op, l.cycles, l.phases)}>
          <span className="prof-bar-label">{l.node}</span>
          <span className="prof-bar-track">
            <span className="prof-bar" style={{ width: `${(100 * l.cycles) / max}%` }}>
              {LAYER_PHASES.map((p) => l.phases[p] > 0 && (
                <span key={p} style={{ width: `${(100 * l.phases[p]) / Math.max(1, l.cycles)}%`, background: PHASE_COLORS[p] }} />
              ))}
            </span>
          </span>
          <span className="prof-bar-cycles">{fmt(l.cycles)}</span>
        </div>
      ))}
      <div style={{ height: win.padBottom }} />
    </div>
  );
}

function barTitle(node: string, op: string, cycles: number, phases: Record<LayerPhase, number>): string {
  const parts = LAYER_PHASES.filter((p) => phases[p] > 0)
    .map((p) => `${p} ${fmt(phases[p])} (${((100 * phases[p]) / Math.max(1, cycles)).toFixed(0)}%)`);
  return `${node} (${op}): ${fmt(cycles)} cycles\n${parts.join('\n')}`;
}

/** A bar row's height in pixels (profile.css sets it). */
export const BAR_H = 16;

/**
 * When the selection changes, scrolls the first selected row (of `nodes`, in display order)
 * into view inside its box only, never the pane or the page.
 */
export function useRevealSelected(reveal: (i: number) => void, nodes: readonly string[], selected: ReadonlySet<string>): void {
  // Only a new selection scrolls: re-sorting or a new profile leaves the box where the user put it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => { if (selected.size) reveal(nodes.findIndex((n) => selected.has(n))); }, [selected]);
}
