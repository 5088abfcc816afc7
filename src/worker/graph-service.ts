// What the graph worker does for the graph pane: lay out a stripped graph, and write a
// snapshot as an .onnx file. graph.worker.ts exposes it with comlink; tests call it directly.
import * as Comlink from 'comlink';
import { writeOnnx } from '../compiler/onnx/write';
import type { GraphWorkerApi } from './graph-api';
import { layoutGraph } from './layout';

export const graphService: GraphWorkerApi = {
  layout: layoutGraph,
  exportOnnx(graph) {
    const bytes = writeOnnx(graph);
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  },
};
