// The UI's handle on the pipeline worker. One run at a time: a new compile cancels the
// previous one. cancel() asks the worker to stop (it keeps its compiled objects); a worker that
// has not stopped within a grace period (a stage stuck in a loop) is terminated and a fresh one
// started, and the next run waits for that.
import * as Comlink from 'comlink';
import type { PlaygroundErrorData } from '../common/errors';
import { toErrorData } from '../common/errors';
import type { CodegenResult } from '../compiler/codegen/types';
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
  /** Settles when the worker's call returns (or the worker is gone). */
  ended: Promise<unknown>;
}

/** How long a cancelled run may take to stop before its worker is terminated. */
export const CANCEL_GRACE_MS = 1500;

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
    ...(input.ops ? { ops: input.ops } : {}),
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
  /** Settles once a cancelled run has stopped or its worker was replaced. */
  private settling: Promise<void> = Promise.resolve();

  constructor(private readonly factory: WorkerFactory = defaultFactory, private readonly graceMs = CANCEL_GRACE_MS) {}

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
    return this.start(onEvent, (api, callback) => {
      const { input: copy, buffers } = copyInput(input);
      return api.compile(Comlink.transfer(copy, buffers), config, callback, opts);
    });
  }

  /** Builds and runs an earlier compile's program again with the code pane's edits (the run stage alone). */
  run(code: CodegenResult, config: Config, onEvent: (e: PipelineEvent) => void,
    opts: Pick<WorkerRunOptions, 'edits' | 'maxCycles' | 'profile'> = {}): Promise<RunOutcome> {
    return this.start(onEvent, (api, callback) => api.run(code, config, callback, opts));
  }

  private start(onEvent: (e: PipelineEvent) => void,
    call: (api: Comlink.Remote<PipelineWorkerApi>, callback: (e: PipelineEvent) => void) => Promise<boolean>): Promise<RunOutcome> {
    this.cancel();
    const id = this.nextId++;
    let finish!: (outcome: RunOutcome) => void;
    let ended!: () => void;
    const outcome = new Promise<RunOutcome>((resolve) => {
      let settled = false;
      finish = (o: RunOutcome) => {
        if (settled) return;
        settled = true;
        if (this.active?.id === id) this.active = null;
        resolve(o);
      };
    });
    this.active = { id, finish, ended: new Promise<void>((r) => (ended = r)) };
    const isCurrent = () => this.active?.id === id;
    // After a cancel, wait until the old run stopped (or its worker was replaced).
    void this.settling.then(() => {
      if (!isCurrent()) return ended();
      const { api } = this.ensureWorker();
      const callback = Comlink.proxy((e: PipelineEvent) => {
        if (isCurrent()) onEvent(e);
      });
      call(api, callback).then(
        (ok) => finish({ kind: 'done', ok }),
        (err: unknown) => finish({ kind: 'crashed', error: toErrorData(err, 'worker') }),
      ).finally(ended);
    });
    return outcome;
  }

  /** Stops the current run, if any: asks the worker to stop, and terminates it if it does not within the grace period. */
  cancel(): boolean {
    const run = this.active;
    if (!run) return false;
    this.active = null;
    run.finish({ kind: 'cancelled' });
    const spawned = this.spawned;
    if (spawned) {
      void Promise.resolve(spawned.api.cancel()).catch(() => undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), this.graceMs)));
      this.settling = Promise.race([run.ended.then(() => 'stopped' as const), late]).then((how) => {
        clearTimeout(timer);
        if (how === 'late' && this.spawned === spawned) this.respawn();
      });
    }
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
