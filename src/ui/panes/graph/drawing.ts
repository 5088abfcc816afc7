// The SVG drawing of one laid-out graph, with d3: edges under boxes, each box its op and
// short name. A big graph is culled: only the boxes and edges near the visible window are in
// the DOM (re-joined as the view moves), and labels exist only at zooms where they can be
// read, so a 1000-node network pans as smoothly as a small one. Small graphs are drawn whole.
import type { Selection } from 'd3-selection';
import type { ZoomTransform } from 'd3-zoom';
import type { GraphLayout } from '../../../worker/graph-api';
import type { NodeStatus } from './lineage';
import type { Box, GraphView } from './model';
import { basisPath } from './path';
import { shownName } from '../../names';

/** Node ids (names) to mark on one side. */
export interface Marks {
  status: ReadonlyMap<string, NodeStatus>;
  /** The selected node itself, when this side shows its snapshot. */
  selected: ReadonlySet<string>;
  /** The selected node's counterparts here. */
  linked: ReadonlySet<string>;
  /** The hovered node's counterparts here (and itself). */
  hovered: ReadonlySet<string>;
  matches: ReadonlySet<string>;
  current: string | null;
}

export interface DrawingEvents {
  select(id: string): void;
  hover(id: string | null): void;
  edgeEnter(arrow: number, e: PointerEvent): void;
  edgeLeave(): void;
}

/** Below this zoom labels are not drawn: unreadable anyway, and far cheaper to paint. */
export const LABEL_MIN_ZOOM = 0.45;
/** Graphs with more boxes than this are culled to the visible window. */
const CULL_ABOVE = 400;

type G = Selection<SVGGElement, number, SVGGElement, unknown>;

function nodeClass(b: Box, m: Marks | null): string {
  let c = `gnode ${b.kind}`;
  if (b.kind === 'op') c += ` status-${m?.status.get(b.id) ?? 'same'}`;
  if (!m) return c;
  if (m.selected.has(b.id)) c += ' selected';
  if (m.linked.has(b.id)) c += ' linked';
  if (m.hovered.has(b.id)) c += ' hover-linked';
  if (m.matches.has(b.id)) c += ' match';
  if (m.current === b.id) c += ' current-match';
  return c;
}

/** Bounding boxes [x0, y0, x1, y1] of every box and every edge route. */
function bounds(view: GraphView, l: GraphLayout): { nodes: Float64Array; edges: Float64Array } {
  const nodes = new Float64Array(view.boxes.length * 4);
  view.boxes.forEach((b, i) => {
    const x = l.centres[2 * i]!, y = l.centres[2 * i + 1]!;
    nodes.set([x - b.width / 2, y - b.height / 2, x + b.width / 2, y + b.height / 2], 4 * i);
  });
  const edges = new Float64Array(view.arrows.length * 4);
  l.routes.forEach((r, i) => {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let j = 0; j < r.length; j += 2) {
      x0 = Math.min(x0, r[j]!); x1 = Math.max(x1, r[j]!);
      y0 = Math.min(y0, r[j + 1]!); y1 = Math.max(y1, r[j + 1]!);
    }
    edges.set([x0, y0, x1, y1], 4 * i);
  });
  return { nodes, edges };
}

export class Drawing {
  readonly cull: boolean;
  private readonly bounds: { nodes: Float64Array; edges: Float64Array };
  private readonly edgeLayer: G;
  private readonly nodeLayer: G;
  private labels: boolean | null = null;
  private marks: Marks | null = null;

  constructor(root: Selection<SVGGElement, unknown, null, undefined>, private readonly side: string,
    readonly view: GraphView, readonly layout: GraphLayout, private readonly events: DrawingEvents) {
    this.cull = view.boxes.length > CULL_ABOVE;
    this.bounds = bounds(view, layout);
    root.selectAll('*').remove();
    this.edgeLayer = root.append('g').attr('class', 'edges') as unknown as G;
    this.nodeLayer = root.append('g').attr('class', 'nodes') as unknown as G;
  }

  /** Draws what the view shows: everything for a small graph, the window around it for a big one. */
  update(t: ZoomTransform, width: number, height: number): void {
    const labels = !this.cull || t.k >= LABEL_MIN_ZOOM;
    const all = (n: number) => Array.from({ length: n }, (_, i) => i);
    let nodes: number[], edges: number[];
    if (!this.cull) {
      if (this.labels !== null) return; // drawn whole already
      nodes = all(this.view.boxes.length);
      edges = all(this.view.arrows.length);
    } else {
      const margin = Math.max(width, height) / 2 / t.k;
      const [x0, y0] = t.invert([0, 0]);
      const [x1, y1] = t.invert([width, height]);
      const within = (b: Float64Array, i: number) => b[4 * i + 2]! >= x0 - margin && b[4 * i]! <= x1 + margin
        && b[4 * i + 3]! >= y0 - margin && b[4 * i + 1]! <= y1 + margin;
      nodes = all(this.view.boxes.length).filter((i) => within(this.bounds.nodes, i));
      edges = all(this.view.arrows.length).filter((i) => within(this.bounds.edges, i));
    }
    if (labels !== this.labels && this.labels !== null) {
      if (labels) this.addLabels(this.nodeLayer.selectAll<SVGGElement, number>('g.gnode'));
      else this.nodeLayer.selectAll('text').remove();
    }
    this.labels = labels;
    this.edgeLayer.selectAll<SVGGElement, number>('g.gedge').data(edges, (i) => i)
      .join((enter) => this.enterEdges(enter.append('g')), (update) => update, (exit) => exit.remove());
    this.nodeLayer.selectAll<SVGGElement, number>('g.gnode').data(nodes, (i) => i)
      .join((enter) => this.enterNodes(enter.append('g')), (update) => update, (exit) => exit.remove());
  }

  /** Status colours and highlights, as classes. */
  mark(m: Marks): void {
    this.marks = m;
    this.nodeLayer.selectAll<SVGGElement, number>('g.gnode').attr('class', (i) => nodeClass(this.view.boxes[i]!, m));
  }

  /** How many boxes are in the DOM now. */
  get drawnBoxes(): number {
    return this.nodeLayer.selectAll('g.gnode').size();
  }

  private enterEdges(g: G): G {
    const route = (i: number) => basisPath(this.layout.routes[i] ?? []);
    g.attr('class', 'gedge');
    g.append('path').attr('class', 'line').attr('d', route).attr('marker-end', `url(#arrow-${this.side})`);
    g.append('path').attr('class', 'hit').attr('d', route);
    const events = this.events;
    g.on('pointerenter', function (e: PointerEvent, i) {
      this.classList.add('hover');
      events.edgeEnter(i, e);
    }).on('pointerleave', function () {
      this.classList.remove('hover');
      events.edgeLeave();
    });
    return g;
  }

  private enterNodes(g: G): G {
    const box = (i: number) => this.view.boxes[i]!;
    const l = this.layout;
    g.attr('class', (i) => nodeClass(box(i), this.marks))
      .attr('transform', (i) => `translate(${l.centres[2 * i]},${l.centres[2 * i + 1]})`)
      .attr('data-id', (i) => box(i).id)
      .attr('data-op', (i) => box(i).op);
    g.filter((i) => box(i).kind === 'op').attr('data-node', (i) => box(i).name);
    g.append('title').text((i) => (box(i).kind === 'op' ? `${box(i).op} ${shownName(box(i).name)}` : `${box(i).kind} ${shownName(box(i).name)}`));
    g.append('rect').attr('class', 'box')
      .attr('x', (i) => -box(i).width / 2).attr('y', (i) => -box(i).height / 2)
      .attr('width', (i) => box(i).width).attr('height', (i) => box(i).height)
      .attr('rx', (i) => (box(i).kind === 'op' ? 5 : box(i).height / 2));
    if (this.labels) this.addLabels(g);
    const ops = g.filter((i) => box(i).kind === 'op');
    ops.on('click', (e: MouseEvent, i) => {
      e.stopPropagation();
      this.events.select(box(i).id);
    });
    ops.on('pointerenter', (_e, i) => this.events.hover(box(i).id));
    ops.on('pointerleave', () => this.events.hover(null));
    return g;
  }

  private addLabels(g: G): void {
    const box = (i: number) => this.view.boxes[i]!;
    g.append('text').attr('class', 'op').attr('y', -3).text((i) => box(i).op);
    g.append('text').attr('class', 'name').attr('y', 11).text((i) => box(i).short);
  }
}
