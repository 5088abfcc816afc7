// The whole pipeline, stage by stage. The worker and the CLI both call runPipeline, so the
// browser and Node run exactly the same code. Each stage's result is plain data.
import { installUserOps } from '../compiler/ops';
import type { UserOp } from '../compiler/ops/user/spec';
import { fail, toErrorData } from '../common/errors';
import type { Config } from '../compiler/config';
import { validateConfig } from '../compiler/config';
import type { EventSink } from './events';
import { outcome, STAGES, type Results, type StageName } from './results';
import { SkipStage, StageError } from './stage-error';
import { STAGE_IMPLS, type Runner } from './stages';
import type { MilpSolver } from '../compiler/tiling/milp';
import type { CodegenResult } from '../compiler/codegen/types';

export interface PipelineInput {
  /** The .onnx file's bytes. */
  model: Uint8Array;
  /** Shown in errors, e.g. "network.onnx". */
  modelName: string;
  /** Optional inputs.npz / outputs.npz bytes. */
  inputs?: Uint8Array;
  outputs?: Uint8Array;
  /** The session's user operators (spec and kernel): the model may use them like built-in ops. */
  ops?: readonly UserOp[];
}

export interface RunOptions {
  /** Stop after this stage (inclusive). */
  until?: StageName;
  /** The MILP solver for the tile stage: GLPK loads differently in Node and in the browser. */
  milp?: () => Promise<MilpSolver>;
  /** Runs the generated program (src/sim/run: the builtin toolchain, clang-19, the host build). Without one the run stage is skipped. */
  runner?: Runner;
  /** Why there is no runner (the run stage's skip reason). */
  noRunner?: string;
  /** Aborting it stops the pipeline: between stages, and inside the run stage (between compiled files and simulated chunks). */
  signal?: AbortSignal;
  /** The code pane's edits (path -> text), built and run instead of the generated or library files. */
  edits?: Readonly<Record<string, string>>;
  /** The run stage's cycle budget (the runner's default otherwise). */
  maxCycles?: number;
  /** Profile the run (RunResult.profile): where the cycles went, at no cost in simulated cycles. */
  profile?: boolean;
}

/**
 * Runs the stages in order and reports each one through `sink`. A stage that fails ends
 * the run with an 'error' event; a stage that cannot run here (no runner) reports 'skipped'.
 * Never throws.
 */
export async function runPipeline(input: PipelineInput, config: Config, sink: EventSink,
  opts: RunOptions = {}): Promise<boolean> {
  return execute(STAGES, {}, input, config, sink, opts);
}

/**
 * The run stage alone, on the codegen result of an earlier compile: the code pane's edits built
 * and run again without redoing the stages before. Reports like runPipeline; never throws.
 */
export async function rerunProgram(code: CodegenResult, config: Config, sink: EventSink, opts: RunOptions = {}): Promise<boolean> {
  return execute(['run'], { codegen: code }, undefined, config, sink, opts);
}

async function execute(stages: readonly StageName[], ctx: Results, input: PipelineInput | undefined, config: Config, sink: EventSink,
  opts: RunOptions): Promise<boolean> {
  const t0 = performance.now();
  let current: StageName = stages[0];
  /** Runs one stage; false when it was skipped. */
  const runStage = async <S extends StageName>(stage: S): Promise<boolean> => {
    const progress = (fraction: number, message: string) => sink({ type: 'progress', stage, fraction, message });
    progress(0, `${stage}…`);
    // Yield to the event loop so progress and cancel messages get through between stages.
    await new Promise((r) => setTimeout(r, 0));
    let result: Results[S];
    try {
      result = await STAGE_IMPLS[stage]({ input, config, ctx, progress, milp: opts.milp, runner: opts.runner, noRunner: opts.noRunner,
        signal: opts.signal, edits: opts.edits, maxCycles: opts.maxCycles, profile: opts.profile });
    } catch (e) {
      if (!(e instanceof SkipStage)) throw e;
      sink({ type: 'skipped', stage, reason: e.reason });
      return false;
    }
    ctx[stage] = result;
    if (result !== undefined) sink({ type: 'stage', ...outcome(stage, result) });
    progress(1, `${stage} done`);
    return true;
  };
  try {
    validateConfig(config);
    // Every compile states its user ops: those of an earlier compile do not linger.
    if (input) installUserOps(input.ops ?? []);
    for (const stage of stages) {
      current = stage;
      if (opts.signal?.aborted) fail('cancelled', `the compile was cancelled before the ${stage} stage`, stage);
      await runStage(stage);
      if (opts.until === stage) break;
    }
  } catch (err) {
    // A stage failing with a partial result (StageError) still shows it, then the error.
    if (err instanceof StageError) sink({ type: 'stage', ...err.partial });
    sink({ type: 'error', stage: current, error: toErrorData(err, current) });
    sink({ type: 'done', ok: false, ms: performance.now() - t0 });
    return false;
  }
  sink({ type: 'done', ok: true, ms: performance.now() - t0 });
  return true;
}
