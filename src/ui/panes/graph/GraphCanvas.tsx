// One side of the graph pane: a snapshot's graph laid out by the graph worker and drawn with
// d3 (drawing.ts) in an SVG, with zoom and pan (d3-zoom) and fit on double-click. The wheel
// scrolls (the graphs are tall), ctrl+wheel or a pinch zooms, dragging pans.
// React owns the frame; d3 owns everything inside the SVG's viewport group.
import { select as d3select } from 'd3-selection';
import type { D3ZoomEvent, ZoomBehavior, ZoomTransform } from 'd3-zoom';
import { zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import type { Ref } from 'react';
import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { DType, Graph } from '../../../compiler/ir/graph';
import type { GraphLayout } from '../../../worker/graph-api';
import type { Marks } from './drawing';
import { Drawing, LABEL_MIN_ZOOM } from './drawing';
import { layoutOf, viewOf } from './layouts';
import { realType, typeText } from './model';
import { shownName } from '../../names';

export type { Marks } from './drawing';
export type SideName = 'left' | 'right';

export interface CanvasHandle {
  fit(): void;
  /** Centres the view on a node (a box id). */
  focus(id: string): void;
}

interface Props {
  side: SideName;
  graph: Graph;
  /** The element types the tensors' values really have, when the lower stage has run. */
  types?: Record<string, DType>;
  marks: Marks;
  onSelect(node: string | null): void;
  onHover(node: string | null): void;
  ref?: Ref<CanvasHandle>;
}

/** A graph that fits only below this zoom starts at READ_ZOOM at its top instead (Fit shows it all). */
const OVERVIEW_MIN_ZOOM = 0.6;
const READ_ZOOM = 0.85;
/** The start of a wide graph is shown at least this big: labels stay readable. */
const START_MIN_ZOOM = 0.5;

interface Status {
  state: 'loading' | 'ready' | 'error';
  key: string;
  /** Layout time in the worker, and from the request until drawn. */
  ms?: number;
  wallMs?: number;
  /** performance.now() when it was drawn. */
  drawnAt?: number;
  message?: string;
}

export function GraphCanvas({ side, graph, types, marks, onSelect, onHover, ref }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const zoomer = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const drawing = useRef<Drawing | null>(null);
  /** The user zoomed or panned since the last automatic view: keep their view across passes. */
  const userMoved = useRef(false);
  const latest = useRef({ onSelect, onHover, graph, marks, types });
  latest.current = { onSelect, onHover, graph, marks, types };
  const { view, key } = viewOf(graph);
  const [status, setStatus] = useState<Status>({ state: 'loading', key });

  const svgSize = () => {
    const r = svgRef.current!.getBoundingClientRect();
    return { w: Math.max(r.width, 50), h: Math.max(r.height, 50) };
  };
  const apply = (t: ZoomTransform) => {
    const z = zoomer.current!;
    z.scaleExtent([Math.min(0.02, t.k), 4]);
    d3select(svgRef.current!).call(z.transform, t);
    userMoved.current = false;
  };
  const fitTransform = (l: GraphLayout) => {
    const { w, h } = svgSize();
    const k = Math.min((w - 16) / l.width, (h - 16) / l.height, 1.4);
    return zoomIdentity.translate((w - l.width * k) / 2, (h - l.height * k) / 2).scale(k);
  };
  const fit = () => {
    if (drawing.current) apply(fitTransform(drawing.current.layout));
  };
  /**
   * The whole graph if it is readable so, else its start: the top rows at a reading zoom (as
   * wide as the graph when that stays legible), never cutting off the graph's left edge.
   */
  const autoView = (d: Drawing) => {
    const t = fitTransform(d.layout);
    if (t.k >= OVERVIEW_MIN_ZOOM || !d.view.boxes.length) return apply(t);
    const { w } = svgSize();
    const k = Math.max(START_MIN_ZOOM, Math.min(READ_ZOOM, (w - 16) / d.layout.width));
    const top = Math.min(...d.view.boxes.map((b, i) => d.layout.centres[2 * i + 1]! - b.height / 2));
    const width = d.layout.width * k;
    // Centred when it fits across, else from its left edge: nothing is cut off at the left.
    apply(zoomIdentity.translate(width <= w - 16 ? (w - width) / 2 : 8, 12 - top * k).scale(k));
  };
  const focus = (id: string) => {
    const d = drawing.current;
    const i = d?.view.index.get(id);
    if (!d || i === undefined) return;
    const { w, h } = svgSize();
    const k = Math.max(zoomTransform(svgRef.current!).k, 0.9);
    apply(zoomIdentity.translate(w / 2 - d.layout.centres[2 * i]! * k, h / 2 - d.layout.centres[2 * i + 1]! * k).scale(k));
  };
  useImperativeHandle(ref, () => ({ fit, focus }));

  // Zoom and pan, once. A culled drawing follows the view, at most once a frame.
  useEffect(() => {
    const svg = d3select(svgRef.current!);
    const root = svg.select<SVGGElement>('g.viewport');
    let pending = 0;
    const follow = () => {
      pending = 0;
      const { w, h } = svgSize();
      drawing.current?.update(zoomTransform(svgRef.current!), w, h);
    };
    const z = zoom<SVGSVGElement, unknown>().scaleExtent([0.02, 4])
      .filter((e: Event) => (e.type === 'wheel' ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey : !(e as MouseEvent).button))
      .on('zoom', (e: D3ZoomEvent<SVGSVGElement, unknown>) => {
        root.attr('transform', e.transform.toString());
        svg.classed('labels-hidden', e.transform.k < LABEL_MIN_ZOOM);
        if (e.sourceEvent) userMoved.current = true;
        if (drawing.current?.cull && !pending) pending = requestAnimationFrame(follow);
      });
    zoomer.current = z;
    svg.call(z).on('dblclick.zoom', null).on('dblclick', (e: MouseEvent) => {
      e.preventDefault();
      fit();
    }).on('click', (e: MouseEvent) => {
      if (e.target === svgRef.current) latest.current.onSelect(null);
    }).on('wheel.scroll', (e: WheelEvent) => {
      if (e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      const k = zoomTransform(svgRef.current!).k;
      const line = e.deltaMode === 1 ? 16 : 1;
      z.translateBy(svg, (-e.deltaX * line) / k, (-e.deltaY * line) / k);
      userMoved.current = true;
    });
    return () => {
      cancelAnimationFrame(pending);
      svg.on('.zoom', null).on('dblclick', null).on('click', null).on('wheel.scroll', null);
    };
  }, []); // fit reads refs only

  // Lay out (in the worker) and draw whenever the structure changes.
  useEffect(() => {
    let live = true;
    setStatus({ state: 'loading', key });
    const started = performance.now();
    layoutOf(graph).then((layout) => {
      if (!live) return;
      const keep = userMoved.current && drawing.current !== null;
      const root = d3select(svgRef.current!).select<SVGGElement>('g.viewport');
      const d = new Drawing(root, side, view, layout, {
        select: (id) => latest.current.onSelect(id),
        hover: (id) => latest.current.onHover(id),
        edgeEnter: (i, e) => showTip(i, e),
        edgeLeave: () => (tip.current!.hidden = true),
      });
      drawing.current = d;
      d.mark(latest.current.marks);
      if (!keep) autoView(d);
      const { w, h } = svgSize();
      d.update(zoomTransform(svgRef.current!), w, h);
      const now = performance.now();
      setStatus({ state: 'ready', key, ms: layout.ms, wallMs: now - started, drawnAt: now });
    }, (err: unknown) => {
      if (live) setStatus({ state: 'error', key, message: err instanceof Error ? err.message : String(err) });
    });
    return () => {
      live = false;
    };
  }, [key, side]); // the view and graph belong to the key

  // Status colours and highlights: classes only, no redraw.
  useEffect(() => {
    drawing.current?.mark(marks);
    d3select(svgRef.current!).classed('has-focus', marks.selected.size + marks.linked.size > 0);
  }, [marks, status]);

  /** The tensors along an edge, with their types in the current graph (a pass may change them without moving boxes). */
  const showTip = (arrow: number, e: PointerEvent) => {
    const a = viewOf(latest.current.graph).view.arrows[arrow];
    const t = tip.current!;
    if (!a) return;
    t.textContent = a.tensors.map((x) => `${shownName(x.name)}: ${typeText(realType(x.type, latest.current.types?.[x.name]))}`).join('\n');
    const r = wrap.current!.getBoundingClientRect();
    t.hidden = false;
    const x = e.clientX - r.left + 12;
    t.style.left = `${Math.max(4, Math.min(x, r.width - t.offsetWidth - 4))}px`;
    t.style.top = `${e.clientY - r.top + 14}px`;
  };

  const count = view.boxes.filter((b) => b.kind === 'op').length;
  // Until the effect above has started this graph's layout, the status is the previous graph's.
  const state = status.key === key ? status.state : 'loading';
  const round = (v: number | undefined) => (v === undefined ? undefined : Math.round(v));
  return (
    <div className="graph-canvas" ref={wrap} data-testid={`graph-canvas-${side}`} data-state={state}
      data-nodes={count} data-layout-ms={round(status.ms)} data-wall-ms={round(status.wallMs)} data-drawn-at={round(status.drawnAt)}>
      <svg ref={svgRef} className="graph-svg">
        <defs>
          <marker id={`arrow-${side}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0L10,5L0,10z" className="arrowhead" />
          </marker>
        </defs>
        <g className="viewport" />
      </svg>
      <div className="edge-tip" ref={tip} hidden data-testid={`graph-edge-tip-${side}`} />
      {state === 'loading' && (
        <div className="graph-overlay" data-testid={`graph-loading-${side}`}>laying out {count} nodes…</div>
      )}
      {state === 'error' && (
        <div className="graph-overlay error" data-testid={`graph-error-${side}`}>Could not lay out this graph: {status.message}</div>
      )}
    </div>
  );
}
