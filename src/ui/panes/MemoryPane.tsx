// The memory pane: the tile stage's plan as a "Tetris" timeline, one lane per memory level
// (address up, time right, one step per tile), with the capacity line, constants as a band,
// hover details, click to select the layer in the graph pane, wheel zoom and a brush over
// the whole run; below it, the per-layer tiling table.
import type { PointerEvent as ReactPointerEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Buffer, LevelPlan, TilePlan } from '../../compiler/tiling/types';
import { useStore } from '../store';
import { select, usePaneData } from './graph/actions';
import {
  brushRange, buffersOfNode, describeBuffer, LANE_H, LANE_W, laneRects, laneTop, type StepRange, zoom,
} from './memory/model';
import './memory/memory.css';
import { useWheel } from './memory/useWheel';
import { shownName } from '../names';

const ROLE_CLASS: Record<Buffer['role'], string> = {
  input: 'mem-in', weight: 'mem-w', const: 'mem-c', output: 'mem-out', scratch: 'mem-scratch',
  activation: 'mem-act', constant: 'mem-const', staging: 'mem-stage',
};

export function MemoryPane() {
  const view = useStore((s) => s.stages.tile);
  const plan = view.result;
  if (!plan) {
    const note = view.status === 'error' ? `The tile stage failed: ${view.error?.what ?? ''}${view.error?.hint ? ` (${view.error.hint})` : ''}`
      : view.status === 'running' ? 'Tiling…' : 'Compile to see the memory plan: where each tensor lives (L1, L2, L3), its lifetime, and the tiles that make every layer fit L1.';
    return (
      <section className="pane" data-testid="pane-memory">
        <p className="placeholder" data-testid="memory-note">{note}</p>
      </section>
    );
  }
  return <MemoryPlanView plan={plan} />;
}

function MemoryPlanView({ plan }: { plan: TilePlan }) {
  const [range, setRange] = useState<StepRange>({ from: 0, to: plan.steps });
  const [hover, setHover] = useState<{ b: Buffer; x: number; y: number } | null>(null);
  const selection = useStore((s) => s.graph.selection);
  const { snapshots } = usePaneData();
  const last = snapshots.length - 1;
  useEffect(() => setRange({ from: 0, to: plan.steps }), [plan]);

  const selectedNode = selection ? snapshots[last]?.graph.nodes.find((n) => n.name === selection.node) : undefined;
  const highlighted = useMemo(() => (selectedNode ? buffersOfNode(plan, selectedNode.name, selectedNode.inputs, selectedNode.outputs) : new Set<string>()),
    [plan, selectedNode]);
  const pick = (node: string | undefined) => {
    if (node && last >= 0) select({ snapshot: last, node });
  };
  const showLayer = (node: string) => {
    const l = plan.layers.find((x) => x.node === node);
    if (l && l.count > 0) setRange({ from: Math.max(0, l.start - l.count), to: Math.min(plan.steps, l.start + 2 * l.count) });
    pick(node);
  };

  return (
    <section className="pane pane-memory" data-testid="pane-memory">
      <div className="mem-summary" data-testid="memory-summary" data-steps={plan.steps}>
        {plan.tiled ? `${plan.tilings.length} tiled layers, ${plan.steps} steps (tiles)` : `untiled: ${plan.steps} steps (layers)`}
        {` · home level ${plan.homeLevel}${plan.doubleBuffer ? ' · double-buffered' : ''} · checker: `}
        <span className={plan.check.ok ? 'ok' : 'bad'} data-testid="memory-check">
          {plan.check.ok ? `ok (${plan.check.pairsChecked} live pairs)` : plan.check.problems[0]}
        </span>
        {` · solver: ${plan.solver.milps} MILPs, ${plan.solver.reused} reused, ${Math.round(plan.ms)} ms`}
      </div>
      <Legend plan={plan} />
      <div className="mem-lanes">
        {plan.levels.map((l) => (
          <Lane key={l.name} level={l} range={range} total={plan.steps} highlighted={highlighted}
            onZoom={setRange} onHover={setHover} onPick={(b) => pick(b.node)} />
        ))}
        <Overview plan={plan} range={range} onRange={setRange} />
        {hover && (
          <div className="mem-tooltip" data-testid="mem-tooltip" style={{ left: hover.x + 12, top: hover.y + 12 }}>
            {describeBuffer(hover.b, plan).map((line, i) => <div key={i}>{line}</div>)}
          </div>
        )}
      </div>
      {plan.tilings.length > 0 && <TilingTable plan={plan} selected={selectedNode?.name} onPick={showLayer} />}
    </section>
  );
}

function Lane({ level, range, total, highlighted, onZoom, onHover, onPick }: {
  level: LevelPlan; range: StepRange; total: number; highlighted: ReadonlySet<string>;
  onZoom: (r: StepRange) => void; onHover: (h: { b: Buffer; x: number; y: number } | null) => void; onPick: (b: Buffer) => void;
}) {
  const rects = useMemo(() => laneRects(level, range), [level, range]);
  const top = laneTop(level);
  const capY = LANE_H - (level.capacity / top) * LANE_H;
  const svg = useRef<SVGSVGElement>(null);
  useWheel(svg, (e, el) => {
    const box = el.getBoundingClientRect();
    onZoom(zoom(range, total, e.deltaY > 0 ? 1.25 : 0.8, (e.clientX - box.left) / box.width));
  });
  const hoverAt = (e: ReactPointerEvent, b: Buffer) => {
    const host = (e.currentTarget as Element).closest('.mem-lanes')!.getBoundingClientRect();
    onHover({ b, x: e.clientX - host.left, y: e.clientY - host.top });
  };
  return (
    <div className="mem-lane" data-testid="mem-lane" data-level={level.name}>
      <div className="mem-lane-label">
        <b>{level.name}</b> {fmt(level.used)} / {fmt(level.capacity)}
        <span className="muted" title={`lower bound ${level.lowerBound} B`}> · {level.allocator}</span>
        {level.capacity > top && <span className="muted"> · scaled to use (capacity off the chart)</span>}
      </div>
      <svg viewBox={`0 0 ${LANE_W} ${LANE_H}`} preserveAspectRatio="none" className="mem-svg" ref={svg}
        onPointerLeave={() => onHover(null)}>
        {rects.map((r) => (
          <rect key={r.buffer.id} data-testid="mem-buffer" data-id={r.buffer.id} data-bytes={r.buffer.bytes} data-node={r.buffer.node ?? ''}
            className={`${ROLE_CLASS[r.buffer.role]}${highlighted.has(r.buffer.id) ? ' mem-hl' : ''}`}
            x={r.x} y={r.y} width={r.w} height={r.h} vectorEffect="non-scaling-stroke"
            onPointerMove={(e) => hoverAt(e, r.buffer)} onClick={() => onPick(r.buffer)} />
        ))}
        {level.capacity <= top && <line className="mem-cap" data-testid="mem-capacity" x1={0} x2={LANE_W} y1={capY} y2={capY} vectorEffect="non-scaling-stroke" />}
      </svg>
    </div>
  );
}

/** The whole run in a strip, layers as ticks; drag to brush a range, double-click for all. */
function Overview({ plan, range, onRange }: { plan: TilePlan; range: StepRange; onRange: (r: StepRange) => void }) {
  const ref = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<number | null>(null);
  const frac = (e: ReactPointerEvent) => {
    const box = ref.current!.getBoundingClientRect();
    return Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
  };
  const T = Math.max(1, plan.steps);
  return (
    <svg ref={ref} className="mem-overview" data-testid="mem-overview" viewBox={`0 0 ${LANE_W} 20`} preserveAspectRatio="none"
      onPointerDown={(e) => { ref.current!.setPointerCapture(e.pointerId); setDrag(frac(e)); }}
      onPointerMove={(e) => { if (drag !== null) onRange(brushRange(drag, frac(e), T)); }}
      onPointerUp={() => setDrag(null)}
      onDoubleClick={() => onRange({ from: 0, to: T })}>
      {plan.layers.filter((l) => l.count > 0).map((l) => (
        <rect key={l.node} className="mem-ov-layer" x={(l.start / T) * LANE_W} width={Math.max(0.5, (l.count / T) * LANE_W)} y={4} height={12} />
      ))}
      <rect className="mem-ov-brush" data-testid="mem-brush" x={(range.from / T) * LANE_W} width={((range.to - range.from) / T) * LANE_W} y={0} height={20}
        vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

function TilingTable({ plan, selected, onPick }: { plan: TilePlan; selected?: string; onPick: (node: string) => void }) {
  return (
    <div className="mem-table-wrap">
      <table className="mem-table" data-testid="tiling-table">
        <thead>
          <tr><th>layer</th><th>kernel</th><th>output</th><th>tile</th><th>tiles</th><th>L1</th><th>moved</th><th>solve</th></tr>
        </thead>
        <tbody>
          {plan.tilings.map((t) => (
            <tr key={t.node} data-testid="tiling-row" data-node={t.node} data-op={t.op} data-tile={t.tile.join('x')} data-tiles={t.tiles} data-l1={t.l1Bytes}
              className={t.node === selected ? 'sel' : ''} onClick={() => onPick(t.node)}>
              <td title={t.node}>{shownName(t.node)}</td><td>{t.kernel}</td><td>{t.output.join('x')}</td><td data-testid="tiling-tile">{t.tile.join('x')}</td>
              <td>{t.tiles}</td><td>{fmt(t.l1Bytes)}</td><td>{fmt(t.bytesMoved)}</td>
              <td title={`${t.solve.vars} variables, ${t.solve.rows} constraints`}>{t.solve.status}, {t.solve.candidates} cand.</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const ROLE_NAMES: Record<Buffer['role'], string> = {
  input: 'input tile', weight: 'weight tile', const: 'layer constants', output: 'output tile', scratch: 'scratch (im2col)',
  activation: 'activation', constant: 'constants (whole run)', staging: 'L3 staging',
};

/** The colours in use, by role. */
function Legend({ plan }: { plan: TilePlan }) {
  const roles = new Set(plan.levels.flatMap((l) => l.buffers.map((b) => b.role)));
  return (
    <div className="mem-legend" data-testid="mem-legend">
      {(Object.keys(ROLE_NAMES) as Buffer['role'][]).filter((r) => roles.has(r)).map((r) => (
        <span key={r}><svg width="10" height="10"><rect className={ROLE_CLASS[r]} width="10" height="10" /></svg> {ROLE_NAMES[r]}</span>
      ))}
      <span><svg width="14" height="10"><line className="mem-cap" x1="0" x2="14" y1="5" y2="5" /></svg> capacity</span>
    </div>
  );
}

function fmt(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MiB` : n >= 10240 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;
}

