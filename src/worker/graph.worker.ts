// The graph worker: graph layout and ONNX export for the graph pane, off the UI thread and
// apart from the pipeline worker (whose runs a cancel terminates). See graph-client.ts.
import * as Comlink from 'comlink';
import { graphService } from './graph-service';

Comlink.expose(graphService);
