// The contract between the UI thread and the graph worker, which lays out graphs for the graph
// pane and serialises snapshots to ONNX. Only types live here, so the UI can import it without
// pulling dagre or the ONNX writer into the main bundle.
import type { Graph } from '../compiler/ir/graph';

/** A box to place; its size is what the UI will draw (labels are in a monospace font). */
export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

/** One arrow between two boxes (the UI merges parallel tensors into one edge). */
export interface LayoutEdge {
  from: string;
  to: string;
}

/**
 * What the layout needs and nothing more: no tensors, attributes or initializers, so a
 * graph with megabytes of weights costs a few kilobytes to send.
 */
export interface LayoutInput {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
}

export interface GraphLayout {
  width: number;
  height: number;
  /** Centre of each box, in the order of LayoutInput.nodes: [x0, y0, x1, y1, ...]. */
  centres: number[];
  /** The route of each edge, in the order of LayoutInput.edges: flat [x0, y0, x1, y1, ...]. */
  routes: number[][];
  /** Time the layout took in the worker. */
  ms: number;
}

export interface GraphWorkerApi {
  layout(input: LayoutInput): GraphLayout;
  /** The graph as an .onnx file (src/compiler/onnx/write.ts). */
  exportOnnx(graph: Graph): Uint8Array;
}
