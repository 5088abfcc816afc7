// The run's timeline on a canvas: one lane per profile lane (controller, workers, DMA, uDMA, NPU),
// spans coloured by phase, the selected layers as bands. Wheel or +/- zoom, drag pans, shift-drag
// brushes a range and zooms to it, Reset shows it all. Each frame draws only the spans in view
// (binary search per lane) and merges those narrower than a pixel (timeline.ts), so it stays
// smooth with a hundred thousand spans; the view lives in a ref and frames are drawn outside
// React. Hover names the span; a click selects its layer.
import type { PointerEvent as ReactPointerEvent, RefObject } from 'react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LayerProfile, RunProfile } from '../../../sim/profile/types';
import { PHASES } from '../../../sim/profile/types';
import { useWheel } from '../memory/useWheel';
import { useStore } from '../../store';
import { PHASE_COLOR_LIST } from './colors';
import {
  brushView, clampView, indexSpans, paintRow, panView, pixel, Rects, rowRects, shortCycles, spanAt, ticks, zoomView, type View,
} from './timeline';

const LABEL_W = 78;
const AXIS_H = 18;
const LANE_H = 13;
const LANE_GAP = 3;
const ROW_H = LANE_H + LANE_GAP;
/** Pointer travel (px) below which a press is a click, not a drag. */
const CLICK_SLOP = 3;
/** Hover and click find spans up to this many pixels away (narrow spans). */
const HIT_PX = 3;

const PHASE_PIXELS = Uint32Array.from(PHASE_COLOR_LIST, (c) => pixel(c));
const WHITE = pixel('#ffffff');
/** The selected layers' band: #ffc400 at 22 % over white. */
const BAND = pixel('#fff1c2');
const GRID = pixel('#eceef2');

export interface DrawStats {
  /** Milliseconds the frame took to draw. */
  ms: number;
  /** Spans in the view, and rectangles drawn for them (sub-pixel spans merged). */
  spans: number;
  rects: number;
}

/** What the bench hooks drive (bench-hooks.ts): zoom as the wheel does, draw a frame now. */
export interface TimelineApi {
  zoom(factor: number, frac: number): void;
  reset(): void;
  view(): View;
  drawNow(): DrawStats;
}

interface Hover { x: number; y: number; span: number }

export function Timeline({ profile, selected, onPick, onDraw, apiRef }: {
  profile: RunProfile;
  /** Final graph nodes selected elsewhere: their layers are banded. */
  selected: ReadonlySet<string>;
  onPick: (node: string) => void;
  onDraw?: (s: DrawStats) => void;
  apiRef?: RefObject<TimelineApi | null>;
}) {
  const idx = useMemo(() => indexSpans(profile), [profile]);
  const layerOf = useMemo(() => new Map(profile.layers.map((l) => [l.index, l])), [profile]);
  const bands = useMemo(() => profile.layers.filter((l) => selected.has(l.node)), [profile, selected]);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  // Set on mount and for every new run by the layout effect below (startView).
  const view = useRef<View>(idx.extent);
  const rects = useRef(new Rects());
  const image = useRef<ImageData | null>(null);
  const baseRow = useRef(new Uint32Array(0));
  const laneRow = useRef(new Uint32Array(0));
  const frame = useRef(0);
  const [hover, setHover] = useState<Hover | null>(null);
  const [brush, setBrush] = useState<{ a: number; b: number } | null>(null);
  const drag = useRef<{ x: number; y: number; view: View; mode: 'pan' | 'brush'; moved: boolean } | null>(null);
  const height = AXIS_H + profile.lanes.length * ROW_H + 2;
  // Kept current for the frame drawer, which outlives renders.
  const latest = useRef({ profile, idx, bands, onDraw });
  latest.current = { profile, idx, bands, onDraw };

  const draw = useCallback((): DrawStats => {
    const t0 = performance.now();
    const el = canvas.current, host = wrap.current;
    if (!el || !host) return { ms: 0, spans: 0, rects: 0 };
    const { profile: p, idx: ix, bands: bs } = latest.current;
    const cssW = Math.max(LABEL_W + 20, host.clientWidth);
    const dpr = window.devicePixelRatio || 1;
    if (el.width !== Math.round(cssW * dpr) || el.height !== Math.round(height * dpr)) {
      el.width = Math.round(cssW * dpr);
      el.height = Math.round(height * dpr);
      el.style.width = `${cssW}px`;
      el.style.height = `${height}px`;
    }
    const ctx = el.getContext('2d');
    if (!ctx) return { ms: 0, spans: 0, rects: 0 };
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, height);
    const v = view.current;
    const w = cssW - LABEL_W;
    const xOf = (t: number) => LABEL_W + ((t - v.t0) / (v.t1 - v.t0)) * w;

    // The lanes are painted pixel by pixel into an ImageData and put in one blit: a canvas path
    // of thousands of rectangles costs the browser far more to rasterise than to record.
    const px0 = Math.round(LABEL_W * dpr), py0 = Math.round(AXIS_H * dpr);
    const pw = el.width - px0, ph = el.height - py0;
    let img = image.current;
    if (!img || img.width !== pw || img.height !== ph) img = image.current = ctx.createImageData(pw, ph);
    const pixels = new Uint32Array(img.data.buffer);
    // The row under the spans: white, the selected layers' bands, the grid lines.
    const base = baseRow.current.length === pw ? baseRow.current : (baseRow.current = new Uint32Array(pw));
    base.fill(WHITE);
    const col = (t: number) => Math.round(((t - v.t0) / (v.t1 - v.t0)) * w * dpr);
    for (const l of bs) {
      const a = Math.max(0, col(l.start)), b = Math.min(pw, Math.max(col(l.end), a + 1));
      if (b > a) base.fill(BAND, a, b);
    }
    const tickTimes = ticks(v, Math.max(2, Math.floor(w / 90)));
    for (const t of tickTimes) { const x = col(t); if (x >= 0 && x < pw) base[x] = GRID; }
    for (let y = 0; y < ph; y++) pixels.set(base, y * pw);
    const r = rects.current;
    const line = laneRow.current.length === pw ? laneRow.current : (laneRow.current = new Uint32Array(pw));
    const laneH = Math.max(1, Math.round(LANE_H * dpr));
    let spans = 0, drawn = 0;
    for (let row = 0; row < p.lanes.length; row++) {
      r.count = 0;
      spans += rowRects(p.spans, ix, row, v, w, r);
      drawn += r.count;
      if (r.count === 0) continue;
      line.set(base);
      paintRow(line, r, dpr, PHASE_PIXELS);
      const y0 = Math.round(row * ROW_H * dpr);
      for (let y = y0; y < Math.min(ph, y0 + laneH); y++) pixels.set(line, y * pw);
    }
    ctx.putImageData(img, px0, py0);

    // Axis.
    ctx.font = '10px ui-sans-serif, system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#667085';
    ctx.strokeStyle = '#d0d5dd';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const t of tickTimes) {
      const x = Math.round(xOf(t)) + 0.5;
      ctx.moveTo(x, AXIS_H - 5);
      ctx.lineTo(x, AXIS_H);
      ctx.fillText(shortCycles(t), x + 3, AXIS_H / 2);
    }
    ctx.stroke();
    // Outlines of the selected layers over the spans, so a band under dense spans still shows.
    ctx.strokeStyle = '#b58100';
    for (const l of bs) {
      const a = xOf(l.start), b = xOf(l.end);
      if (b < LABEL_W || a > cssW) continue;
      ctx.strokeRect(Math.max(LABEL_W, a) + 0.5, AXIS_H + 0.5, Math.max(1, Math.min(cssW, b) - Math.max(LABEL_W, a) - 1), height - AXIS_H - 1);
    }
    // Lane names.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, LABEL_W, height);
    ctx.fillStyle = '#1d2330';
    p.lanes.forEach((lane, row) => ctx.fillText(lane.name, 4, AXIS_H + row * ROW_H + LANE_H / 2, LABEL_W - 8));
    ctx.fillStyle = '#667085';
    ctx.fillText('cycles', 4, AXIS_H / 2);

    host.dataset.spans = String(spans);
    host.dataset.rects = String(drawn);
    host.dataset.viewStart = String(Math.round(v.t0));
    host.dataset.viewEnd = String(Math.round(v.t1));
    const stats = { ms: performance.now() - t0, spans, rects: drawn };
    latest.current.onDraw?.(stats);
    return stats;
  }, [height]);

  const schedule = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => { frame.current = 0; draw(); });
  }, [draw]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const setView = useCallback((v: View) => {
    view.current = clampView(v, latest.current.idx.extent);
    schedule();
    useStore.setState({ timelineView: { t0: view.current.t0, t1: view.current.t1 } });
  }, [schedule]);
  const plotWidth = () => Math.max(20, (wrap.current?.clientWidth ?? 0) - LABEL_W);
  const zoomBy = useCallback((factor: number, frac: number) => setView(zoomView(view.current, latest.current.idx.extent, factor, frac)), [setView]);

  // A new profile shows all of it; the first frame is drawn before the browser paints.
  // A new run: the window kept in the store (a link's, or the last one looked at) if it fits, else the network's.
  useLayoutEffect(() => { view.current = startView(useStore.getState().timelineView, idx.extent, latest.current.profile); setHover(null); draw(); }, [idx, draw]);
  // New bands: redraw.
  useEffect(() => { schedule(); }, [bands, schedule]);
  useEffect(() => {
    const host = wrap.current;
    if (!host) return;
    const ro = new ResizeObserver(() => schedule());
    ro.observe(host);
    return () => ro.disconnect();
  }, [schedule]);

  // A layout effect: the controls are there by the time the first frame is reported.
  useLayoutEffect(() => {
    if (!apiRef) return;
    apiRef.current = {
      zoom: (f, frac) => { view.current = zoomView(view.current, latest.current.idx.extent, f, frac); },
      reset: () => { view.current = latest.current.idx.extent; },
      view: () => view.current,
      drawNow: draw,
    };
    return () => { apiRef.current = null; };
  }, [apiRef, draw]);

  useWheel(wrap, (e, el) => {
    const box = el.getBoundingClientRect();
    const frac = Math.min(1, Math.max(0, (e.clientX - box.left - LABEL_W) / plotWidth()));
    // Trackpads send small deltas, mice ~100 a notch: zoom in proportion.
    const delta = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY;
    setHover(null); // the span under the pointer moves
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(delta)) setView(panView(view.current, latest.current.idx.extent, -(e.deltaX || delta), plotWidth()));
    else zoomBy(Math.pow(1.0015, Math.max(-300, Math.min(300, delta))), frac);
  });

  const local = (e: ReactPointerEvent) => {
    const box = wrap.current!.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const hit = (x: number, y: number): number => {
    const row = Math.floor((y - AXIS_H) / ROW_H);
    if (x < LABEL_W || row < 0 || row >= profile.lanes.length || y - AXIS_H - row * ROW_H > LANE_H) return -1;
    const v = view.current, w = plotWidth();
    const perPx = (v.t1 - v.t0) / w;
    return spanAt(profile.spans, idx, row, v.t0 + (x - LABEL_W) * perPx, HIT_PX * perPx);
  };

  const onDown = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    const p = local(e);
    wrap.current!.setPointerCapture(e.pointerId);
    drag.current = { ...p, view: view.current, mode: e.shiftKey ? 'brush' : 'pan', moved: false };
    setHover(null);
  };
  const onMove = (e: ReactPointerEvent) => {
    const p = local(e);
    const d = drag.current;
    if (d) {
      if (Math.abs(p.x - d.x) > CLICK_SLOP || Math.abs(p.y - d.y) > CLICK_SLOP) d.moved = true;
      if (!d.moved) return;
      if (d.mode === 'pan') setView(panView(d.view, idx.extent, p.x - d.x, plotWidth()));
      else setBrush({ a: d.x, b: p.x });
      return;
    }
    const span = hit(p.x, p.y);
    setHover((h) => (span < 0 ? null : h && h.span === span && Math.abs(h.x - p.x) < 1 && Math.abs(h.y - p.y) < 1 ? h : { ...p, span }));
  };
  const onUp = (e: ReactPointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    const p = local(e);
    if (!d.moved) {
      const span = hit(p.x, p.y);
      const layer = span >= 0 ? layerOf.get(profile.spans.layer[span]!) : undefined;
      if (layer) onPick(layer.node);
      return;
    }
    if (d.mode === 'brush') {
      setBrush(null);
      if (Math.abs(p.x - d.x) >= 2) setView(brushView(view.current, idx.extent, d.x - LABEL_W, p.x - LABEL_W, plotWidth()));
    }
  };

  const fitSelection = () => {
    if (!bands.length) return;
    const a = Math.min(...bands.map((l) => l.start)), b = Math.max(...bands.map((l) => l.end));
    const pad = (b - a) * 0.05;
    setView({ t0: a - pad, t1: b + pad });
  };

  return (
    <div className="prof-timeline">
      <div className="prof-timeline-tools">
        <button type="button" className="button small" data-testid="timeline-zoom-in" title="Zoom in" onClick={() => zoomBy(0.5, 0.5)}>+</button>
        <button type="button" className="button small" data-testid="timeline-zoom-out" title="Zoom out" onClick={() => zoomBy(2, 0.5)}>−</button>
        <button type="button" className="button small" data-testid="timeline-reset" title="Show the whole run" onClick={() => setView(idx.extent)}>Reset</button>
        <button type="button" className="button small" data-testid="timeline-fit" disabled={!bands.length}
          title="Zoom to the selected layer" onClick={fitSelection}>Fit selection</button>
        <span className="muted">wheel zooms · drag pans · shift-drag zooms to a range · click selects the layer</span>
      </div>
      <div ref={wrap} className="prof-canvas-wrap" data-testid="profile-timeline" style={{ height }}
        onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp}
        onPointerCancel={() => { drag.current = null; setBrush(null); }}
        onPointerLeave={() => { if (!drag.current) setHover(null); }}>
        <canvas ref={canvas} />
        {brush && (
          <div className="prof-brush" data-testid="timeline-brush"
            style={{ left: Math.max(LABEL_W, Math.min(brush.a, brush.b)), width: Math.abs(brush.b - brush.a), top: AXIS_H, bottom: 0 }} />
        )}
        {hover && <Tooltip profile={profile} layerOf={layerOf} hover={hover} width={wrap.current?.clientWidth ?? 0} />}
      </div>
    </div>
  );
}

function Tooltip({ profile, layerOf, hover, width }: { profile: RunProfile; layerOf: Map<number, LayerProfile>; hover: Hover; width: number }) {
  const s = profile.spans, i = hover.span;
  const lane = profile.lanes.find((l) => l.id === s.lane[i]);
  const layer = layerOf.get(s.layer[i]!);
  const start = s.start[i]!, dur = s.end[i]! - start;
  const fmt = (n: number) => n.toLocaleString('en-US');
  // Kept inside the wrapper: flipped to the pointer's left near the right edge.
  const left = hover.x + 260 > width ? Math.max(0, hover.x - 250) : hover.x + 12;
  return (
    <div className="prof-tooltip" data-testid="profile-tooltip" data-span={i} style={{ left, top: hover.y + 14 }}>
      <div><b>{PHASES[s.phase[i]!]}</b> on {lane?.name ?? `lane ${s.lane[i]}`}</div>
      <div>layer: {layer ? `${layer.node} (${layer.op})` : 'none (outside the layers)'}</div>
      <div>tile: {s.tile[i]! >= 0 ? s.tile[i] : '—'}</div>
      <div>start: {fmt(start)} · duration: {fmt(dur)} cycles</div>
    </div>
  );
}

/**
 * The window to open on: `wanted` when it lies inside the run, else the network's own run (from
 * its first layer to its last: what Runtime measures; Reset shows startup and the checks too).
 */
function startView(wanted: View | null, extent: View, p: Pick<RunProfile, 'start' | 'end'>): View {
  if (wanted && wanted.t0 >= extent.t0 && wanted.t1 <= extent.t1 && wanted.t1 > wanted.t0) return wanted;
  const pad = (p.end - p.start) * 0.01;
  const net = { t0: Math.max(extent.t0, p.start - pad), t1: Math.min(extent.t1, p.end + pad) };
  return net.t1 > net.t0 ? net : extent;
}
