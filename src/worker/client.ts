// The UI's handle on the pipeline worker. One run at a time: a new compile cancels the
// previous one, and cancel() terminates the worker (so even a stage stuck in a loop stops)
// and starts a fresh one for the next run.
import * as Comlink from 'comlink';
import type { PlaygroundErrorData } from '../common/errors';
import { toErrorData } from '../common/errors';
import type { Config } from '../compiler/config';
import type { PipelineEvent } from '../pipeline/events';
import type { PipelineInput } from '../pipeline/run';
import type { PipelineWorkerApi, WorkerRunOptions } from './api';

export type RunOutcome =
  | { kind: 'done'; ok: boolean }
  | { kind: 'cancelled' }
  /** The worker itself failed (could not load, threw outside the pipeline). */
  | { kind: 'crashed'; error: PlaygroundErrorData };

interface Spawned {
  worker: Worker;
  api: Comlink.Remote<PipelineWorkerApi>;
}

interface ActiveRun {
  id: number;
  finish: (outcome: RunOutcome) => void;
}

export type WorkerFactory = () => Worker;

const defaultFactory: WorkerFactory = () =>
  new Worker(new URL('./pipeline.worker.ts', import.meta.url), { type: 'module' });

/** Copies the bytes so the caller keeps its own; the copies are transferred, not cloned. */
function copyInput(input: PipelineInput): { input: PipelineInput; buffers: ArrayBuffer[] } {
  const copy: PipelineInput = {
    model: input.model.slice(),
    modelName: input.modelName,
    inputs: input.inputs?.slice(),
    outputs: input.outputs?.slice(),
  };
  const buffers = [copy.model, copy.inputs, copy.outputs]
    .filter((b): b is Uint8Array => b !== undefined)
    .map((b) => b.buffer as ArrayBuffer);
  return { input: copy, buffers };
}

export class PipelineClient {
  private spawned: Spawned | null = null;
  private active: ActiveRun | null = null;
  private nextId = 1;

  constructor(private readonly factory: WorkerFactory = defaultFactory) {}

  /** True while a run is in progress. */
  get busy(): boolean {
    return this.active !== null;
  }

  /**
   * Runs the pipeline in the worker, calling onEvent for each event of this run only.
   * Never rejects: the outcome says whether the run finished, was cancelled or crashed.
   */
  compile(input: PipelineInput, config: Config, onEvent: (e: PipelineEvent) => void,
    opts: WorkerRunOptions = {}): Promise<RunOutcome> {
    this.cancel();
    const { api } = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<RunOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: RunOutcome) => {
        if (settled) return;
        settled = true;
        if (this.active?.id === id) this.active = null;
        resolve(outcome);
      };
      this.active = { id, finish };
      const isCurrent = () => this.active?.id === id;
      const callback = Comlink.proxy((e: PipelineEvent) => {
        if (isCurrent()) onEvent(e);
      });
      const { input: copy, buffers } = copyInput(input);
      api.compile(Comlink.transfer(copy, buffers), config, callback, opts).then(
        (ok) => finish({ kind: 'done', ok }),
        (err: unknown) => finish({ kind: 'crashed', error: toErrorData(err, 'worker') }),
      );
    });
  }

  /** Stops the current run, if any, by terminating the worker. Returns whether one was stopped. */
  cancel(): boolean {
    const run = this.active;
    if (!run) return false;
    this.active = null;
    this.respawn();
    run.finish({ kind: 'cancelled' });
    return true;
  }

  /** Terminates the worker for good (a later compile starts a new one). */
  dispose(): void {
    this.cancel();
    this.spawned?.worker.terminate();
    this.spawned = null;
  }

  private ensureWorker(): Spawned {
    if (!this.spawned) {
      const worker = this.factory();
      worker.addEventListener('error', (ev) => this.crashed(worker, ev.message || 'the worker failed to start'));
      worker.addEventListener('messageerror', () => this.crashed(worker, 'a message could not be decoded'));
      this.spawned = { worker, api: Comlink.wrap<PipelineWorkerApi>(worker) };
    }
    return this.spawned;
  }

  /** Kills the worker and starts a fresh one, so the next run does not wait for its start-up. */
  private respawn(): void {
    this.spawned?.worker.terminate();
    this.spawned = null;
    this.ensureWorker();
  }

  private crashed(worker: Worker, message: string): void {
    if (this.spawned?.worker !== worker) return;
    const run = this.active;
    this.active = null;
    worker.terminate();
    this.spawned = null;
    run?.finish({
      kind: 'crashed',
      error: {
        code: 'internal',
        what: `the pipeline worker crashed: ${message}`,
        where: 'worker',
        hint: 'try again; if it keeps happening, this is a bug in the playground',
      },
    });
  }
}
