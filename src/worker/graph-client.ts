// The UI's handle on the graph worker (layout and ONNX export for the graph pane). The worker
// starts on first use; a crash rejects the calls in flight and the next call starts a new one.
import * as Comlink from 'comlink';
import type { Graph } from '../compiler/ir/graph';
import type { GraphLayout, GraphWorkerApi, LayoutInput } from './graph-api';

export type GraphWorkerFactory = () => Worker;

const defaultFactory: GraphWorkerFactory = () =>
  new Worker(new URL('./graph.worker.ts', import.meta.url), { type: 'module' });

export class GraphClient {
  private spawned: { worker: Worker; api: Comlink.Remote<GraphWorkerApi>; crashed: Promise<never> } | null = null;

  constructor(private readonly factory: GraphWorkerFactory = defaultFactory) {}

  layout(input: LayoutInput): Promise<GraphLayout> {
    const { api, crashed } = this.ensure();
    return Promise.race([api.layout(input), crashed]);
  }

  exportOnnx(graph: Graph): Promise<Uint8Array> {
    const { api, crashed } = this.ensure();
    return Promise.race([api.exportOnnx(graph), crashed]);
  }

  dispose(): void {
    this.spawned?.worker.terminate();
    this.spawned = null;
  }

  private ensure() {
    if (!this.spawned) {
      const worker = this.factory();
      const crashed = new Promise<never>((_, reject) => {
        const fail = (message: string) => {
          if (this.spawned?.worker === worker) this.spawned = null;
          worker.terminate();
          reject(new Error(`the graph worker crashed: ${message}`));
        };
        worker.addEventListener('error', (ev) => fail(ev.message || 'it failed to start'));
        worker.addEventListener('messageerror', () => fail('a message could not be decoded'));
      });
      crashed.catch(() => undefined); // only the calls that race it report it
      this.spawned = { worker, api: Comlink.wrap<GraphWorkerApi>(worker), crashed };
    }
    return this.spawned;
  }
}
