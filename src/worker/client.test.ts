// The client against in-process "workers": comlink over a MessageChannel, terminate() closes it.
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../compiler/config';
import type { PipelineEvent } from '../pipeline/events';
import type { PipelineWorkerApi } from './api';
import { PipelineClient } from './client';
import { pipelineService } from './service';
import { nodeMilp } from '../pipeline/node/milp';

const ADD = new URL('../../../shared/deeploy-tests/Kernels/Integer/Add/Regular/', import.meta.url);

function fakeWorkers(api: PipelineWorkerApi) {
  const spawned: { terminated: boolean }[] = [];
  const factory = () => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
    const rec = { terminated: false };
    spawned.push(rec);
    return Object.assign(port1, {
      terminate() {
        rec.terminated = true;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { factory, spawned };
}

/** A worker whose compile reports one event and then never finishes, whatever it is asked. */
const hanging: PipelineWorkerApi = {
  compile(_input, _config, onEvent) {
    void onEvent({ type: 'progress', stage: 'parse', fraction: 0, message: 'hanging' });
    return new Promise(() => undefined);
  },
  run: () => new Promise(() => undefined),
  cancel() { /* a stage stuck in a loop hears nothing */ },
  prebuild: () => new Promise(() => undefined),
};

/** A worker whose compile runs until it is cancelled, then returns. */
function cooperative(): PipelineWorkerApi & { calls: number } {
  let stop: (() => void) | undefined;
  const api = {
    calls: 0,
    compile(_input: unknown, _config: unknown, onEvent: (e: PipelineEvent) => void) {
      api.calls++;
      void onEvent({ type: 'progress', stage: 'run', fraction: 0.5, message: 'simulating' });
      return new Promise<boolean>((r) => (stop = () => r(false)));
    },
    run: () => Promise.resolve(true),
    cancel() { stop?.(); },
    prebuild: () => Promise.resolve(0),
  };
  return api;
}

const GRACE = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let client: PipelineClient | undefined;
afterEach(() => client?.dispose());

const input = () => ({ model: new Uint8Array([1, 2, 3]), modelName: 'x.onnx' });

describe('PipelineClient', () => {
  it('streams every event of a run and leaves the caller its bytes', async () => {
    const { factory } = fakeWorkers(pipelineService(nodeMilp));
    client = new PipelineClient(factory);
    const model = new Uint8Array(readFileSync(new URL('network.onnx', ADD)));
    const events: PipelineEvent[] = [];
    const outcome = await client.compile({ model, modelName: 'network.onnx' }, DEFAULT_CONFIG, (e) => events.push(e));
    expect(outcome).toEqual({ kind: 'done', ok: true });
    expect(events.at(-1)).toMatchObject({ type: 'done', ok: true });
    expect(events.some((e) => e.type === 'stage' && e.stage === 'parse')).toBe(true);
    expect(model.byteLength).toBeGreaterThan(0); // a copy was transferred, not the caller's buffer
    expect(client.busy).toBe(false);
  });

  it('reports a failing stage as an error event and a failed run', async () => {
    client = new PipelineClient(fakeWorkers(pipelineService(nodeMilp)).factory);
    const events: PipelineEvent[] = [];
    const outcome = await client.compile({ model: new Uint8Array([0xff, 0xff, 0xff]), modelName: 'junk.onnx' },
      DEFAULT_CONFIG, (e) => events.push(e));
    expect(outcome).toEqual({ kind: 'done', ok: false });
    expect(events.find((e) => e.type === 'error')).toMatchObject({ stage: 'parse', error: { code: 'bad-file' } });
  });

  it('cancel asks the worker to stop and keeps it when it does (its caches live on)', async () => {
    const api = cooperative();
    const { factory, spawned } = fakeWorkers(api);
    client = new PipelineClient(factory, GRACE);
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const run = client.compile(input(), DEFAULT_CONFIG, () => first());
    await started;
    expect(client.cancel()).toBe(true);
    expect(await run).toEqual({ kind: 'cancelled' });
    await sleep(3 * GRACE);
    expect(spawned.map((s) => s.terminated)).toEqual([false]);
    // The next compile goes to the same worker.
    const next = client.compile(input(), DEFAULT_CONFIG, () => undefined);
    await sleep(GRACE);
    expect(api.calls).toBe(2);
    client.cancel();
    expect(await next).toEqual({ kind: 'cancelled' });
    expect(spawned).toHaveLength(1);
  });

  it('cancel terminates a worker that does not stop within the grace period and starts a fresh one', async () => {
    const { factory, spawned } = fakeWorkers(hanging);
    client = new PipelineClient(factory, GRACE);
    const events: PipelineEvent[] = [];
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const run = client.compile(input(), DEFAULT_CONFIG, (e) => { events.push(e); first(); });
    await started;
    expect(client.busy).toBe(true);
    expect(client.cancel()).toBe(true);
    expect(await run).toEqual({ kind: 'cancelled' });
    expect(client.busy).toBe(false);
    expect(client.cancel()).toBe(false);
    await sleep(3 * GRACE);
    expect(spawned.map((s) => s.terminated)).toEqual([true, false]);
  });

  it('a new compile cancels the previous one and starts once the old worker is gone', async () => {
    const { factory, spawned } = fakeWorkers(hanging);
    client = new PipelineClient(factory, GRACE);
    const a = client.compile(input(), DEFAULT_CONFIG, () => undefined);
    await sleep(5);
    let seen = false;
    const b = client.compile(input(), DEFAULT_CONFIG, () => { seen = true; });
    expect(await a).toEqual({ kind: 'cancelled' });
    await expect.poll(() => seen).toBe(true);
    expect(spawned.map((s) => s.terminated)).toEqual([true, false]);
    client.cancel();
    expect(await b).toEqual({ kind: 'cancelled' });
  });
});
