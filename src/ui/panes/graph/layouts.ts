// Layouts of the graphs the pane shows, computed in the graph worker and cached: per graph
// object (the view), and per structure (the layout), so a pass that changed nothing, or the
// same graph on both sides, costs one layout. Also the .onnx export, which the worker writes.
import type { Graph } from '../../../compiler/ir/graph';
import { GraphClient } from '../../../worker/graph-client';
import type { GraphLayout } from '../../../worker/graph-api';
import type { GraphView } from './model';
import { graphView, layoutInput, layoutKey } from './model';

const client = new GraphClient();
const views = new WeakMap<Graph, { view: GraphView; key: string }>();
const layouts = new Map<string, Promise<GraphLayout>>();
/** Enough for every snapshot of a big model on both sides; the oldest go first. */
const MAX_LAYOUTS = 256;

export function viewOf(g: Graph): { view: GraphView; key: string } {
  let v = views.get(g);
  if (!v) {
    const view = graphView(g);
    v = { view, key: layoutKey(view) };
    views.set(g, v);
  }
  return v;
}

/** The layout of a graph's view; the same promise for every graph of the same structure. */
export function layoutOf(g: Graph): Promise<GraphLayout> {
  const { view, key } = viewOf(g);
  let p = layouts.get(key);
  if (!p) {
    p = client.layout(layoutInput(view));
    p.catch(() => layouts.delete(key)); // a failed layout is tried again next time
    layouts.set(key, p);
    if (layouts.size > MAX_LAYOUTS) layouts.delete(layouts.keys().next().value!);
  }
  return p;
}

/** A file name for a snapshot: `<model>_<pass>.onnx`, with only file-safe characters. */
export function exportName(model: string, pass: string): string {
  const safe = (s: string) => s.replace(/\.onnx$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'graph';
  return `${safe(model)}_${safe(pass)}.onnx`;
}

/** Writes the graph as .onnx in the worker and hands the bytes to the browser as a download. */
export async function downloadOnnx(g: Graph, fileName: string): Promise<void> {
  const bytes = await client.exportOnnx(g);
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
