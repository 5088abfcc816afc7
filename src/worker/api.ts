// The contract between the UI thread and the pipeline worker. Only types live here, so the
// client can import it without pulling the compiler into the main bundle.
import type { CodegenResult } from '../compiler/codegen/types';
import type { Config } from '../compiler/config';
import type { PipelineEvent } from '../pipeline/events';
import type { PipelineInput, RunOptions } from '../pipeline/run';

export interface WorkerRunOptions extends Pick<RunOptions, 'until' | 'edits' | 'maxCycles' | 'profile'> {
  /**
   * Test hook: block the worker's thread for this many milliseconds before the pipeline
   * starts, like a stage that hangs. Only cancel (which terminates the worker) ends it.
   */
  stallMs?: number;
  /** After the parse stage, check inputs.npz / outputs.npz against the graph (the load check). */
  checkNpz?: boolean;
}

export interface PipelineWorkerApi {
  /** Runs the pipeline; events stream through onEvent. Resolves with the run's success. */
  compile(input: PipelineInput, config: Config,
    onEvent: (e: PipelineEvent) => void | Promise<void>, opts?: WorkerRunOptions): Promise<boolean>;
  /**
   * Builds and runs `code` (an earlier compile's codegen result) again with the code pane's
   * edits: the run stage alone. Resolves with its success.
   */
  run(code: CodegenResult, config: Config, onEvent: (e: PipelineEvent) => void | Promise<void>,
    opts?: Pick<WorkerRunOptions, 'edits' | 'maxCycles' | 'profile'>): Promise<boolean>;
  /**
   * Stops the current compile or run where it can stop (between stages, compiled files and
   * simulated chunks), keeping the worker and its caches; the client terminates a worker that
   * does not stop soon.
   */
  cancel(): void;
  /**
   * Compiles the units every Siracusa program shares into the worker's object cache now (the
   * worker also does it by itself while idle); the next call stops it. Resolves with how many
   * units it compiled (0: all cached already, or no simulator in this worker).
   */
  prebuild(): Promise<number>;
}
