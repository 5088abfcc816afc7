// The graph client against an in-process "worker": comlink over a MessageChannel.
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { GraphWorkerApi } from './graph-api';
import { GraphClient } from './graph-client';
import { graphService } from './graph-service';

function fakeWorker(api: GraphWorkerApi) {
  const spawned: EventTarget[] = [];
  const factory = () => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
    const events = new EventTarget();
    spawned.push(events);
    const listen = port1.addEventListener.bind(port1);
    return Object.assign(port1, {
      terminate() {
        port1.close();
        port2.close();
      },
      addEventListener: (type: string, fn: EventListener) => {
        if (type === 'error' || type === 'messageerror') events.addEventListener(type, fn);
        else listen(type as 'message', fn as never);
      },
    }) as unknown as Worker;
  };
  return { factory, spawned };
}

describe('GraphClient', () => {
  it('lays out a stripped graph in the worker', async () => {
    const client = new GraphClient(fakeWorker(graphService).factory);
    const l = await client.layout({
      nodes: [{ id: 'a', width: 60, height: 30 }, { id: 'b', width: 60, height: 30 }],
      edges: [{ from: 'a', to: 'b' }],
    });
    expect(l.centres).toHaveLength(4);
    expect(l.centres[3]).toBeGreaterThan(l.centres[1]!);
    expect(l.routes[0]!.length).toBeGreaterThanOrEqual(4);
    client.dispose();
  });

  it('rejects the calls in flight when the worker crashes, and starts a new one for the next', async () => {
    const hanging: GraphWorkerApi = { layout: () => new Promise(() => undefined) as never, exportOnnx: () => new Uint8Array(1) };
    const { factory, spawned } = fakeWorker(hanging);
    const client = new GraphClient(factory);
    const call = client.layout({ nodes: [], edges: [] });
    spawned[0]!.dispatchEvent(Object.assign(new Event('error'), { message: 'out of memory' }));
    await expect(call).rejects.toThrow(/graph worker crashed: out of memory/);
    expect(await client.exportOnnx({} as never)).toEqual(new Uint8Array(1));
    expect(spawned).toHaveLength(2);
    client.dispose();
  });
});
