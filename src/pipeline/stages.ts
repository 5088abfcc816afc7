// The implementation of each pipeline stage.
// Each stage reads earlier results from `ctx` and returns plain data.
import type { Graph } from '../compiler/ir/graph';
import { checkOutputs } from '../compiler/interpret/compare';
import { interpret } from '../compiler/interpret/interpret';
import { bindNpzInputs } from '../compiler/interpret/npz-io';
import type { NpyArray } from '../compiler/npz';
import { readNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { inferTypes } from '../compiler/shapes/infer';
import { lowerFailure, lowerGraph } from '../compiler/lower/lower';
import type { MilpSolver } from '../compiler/tiling/milp';
import { planMemory } from '../compiler/tiling/plan';
import { fail } from '../common/errors';
import { generateCode } from '../compiler/codegen/codegen';
import { testDataFor } from '../compiler/codegen/test-data';
import { RunError } from '../sim/run/error';
import type { Runner } from '../sim/run/types';
import { SkipStage, StageError } from './stage-error';
import type { Config } from '../compiler/config';
import type { GraphStats, ParseResult, ReferenceResult, Results, StageName, StageResults } from './results';
import type { PipelineInput } from './run';

export interface StageContext {
  /** The model and its npz files (absent when only the run stage runs again: rerunProgram). */
  input?: PipelineInput;
  config: Config;
  /** Results of earlier stages, by name, for later stages to read. */
  ctx: Results;
  progress: (fraction: number, message: string) => void;
  /** Loads the MILP solver (the host's GLPK build). */
  milp?: () => Promise<MilpSolver>;
  /** Runs the generated program (see RunOptions.runner). */
  runner?: Runner;
  /** Why there is no runner, when the host says (the run stage's skip reason). */
  noRunner?: string;
  /** Aborted: the stages that can stop midway (the run) stop. */
  signal?: AbortSignal;
  /** The code pane's edits, by path: the run builds them instead of the generated or library files. */
  edits?: Readonly<Record<string, string>>;
  /** The run's cycle budget (the runner's default otherwise). */
  maxCycles?: number;
  profile?: boolean;
}

export type { Runner } from '../sim/run/types';

/** A stage: its result, or undefined when it has nothing to report (reference without inputs.npz). */
export type StageImpl<S extends StageName> = (s: StageContext) => Promise<StageResults[S] | undefined> | StageResults[S] | undefined;

/** The pipeline's input, which every stage but the run needs. */
function needInput(input: PipelineInput | undefined): PipelineInput {
  if (!input) fail('internal', 'the pipeline has no input model', 'pipeline');
  return input;
}

/** An earlier stage's result, which this stage cannot do without. */
function need<S extends StageName>(ctx: Results, stage: S): StageResults[S] {
  const r = ctx[stage];
  if (r === undefined) fail('internal', `the ${stage} stage has no result`, 'pipeline');
  return r;
}

function stats(g: Graph): GraphStats {
  const ops: Record<string, number> = {};
  for (const n of g.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
  let constantBytes = 0;
  for (const t of Object.values(g.initializers)) constantBytes += t.data.byteLength;
  return { nodes: g.nodes.length, ops, inputs: g.inputs.length, outputs: g.outputs.length, constantBytes };
}

const parse: StageImpl<'parse'> = (s) => {
  const input = needInput(s.input);
  const graph = inferTypes(readOnnx(input.model, input.modelName));
  return { graph, stats: stats(graph) } satisfies ParseResult;
};

/** Runs the reference interpreter on inputs.npz and checks outputs.npz, when they are given. */
const reference: StageImpl<'reference'> = ({ input: given, ctx }) => {
  const input = needInput(given);
  if (!input.inputs) return undefined;
  const { graph } = need(ctx, 'parse');
  const t0 = performance.now();
  const bound = bindNpzInputs(graph, readNpz(input.inputs, 'inputs.npz'), 'inputs.npz');
  const values = interpret(graph, bound.inputs, { inputsName: 'inputs.npz' });
  const outputs: NpyArray[] = values.map((v, i) => ({ name: graph.outputs[i].name, ...v }));
  const ms = performance.now() - t0;
  const comparison = input.outputs ? checkOutputs(values, readNpz(input.outputs, 'outputs.npz'), 'outputs.npz') : undefined;
  return { outputs, comparison, unusedInputs: bound.unused, ms } satisfies ReferenceResult;
};

/**
 * Lowers the parsed graph for the configured platform (passes, kernel binding, semantic check
 * on inputs.npz when given). A node without a kernel, or a pass that changed the outputs,
 * fails the stage with an error naming the node or pass, after reporting the result so the
 * graph pane can still show every snapshot.
 */
const lower: StageImpl<'lower'> = ({ input: given, config, ctx, progress }) => {
  const input = needInput(given);
  const { graph } = need(ctx, 'parse');
  const inputs = input.inputs ? bindNpzInputs(graph, readNpz(input.inputs, 'inputs.npz'), 'inputs.npz').inputs : undefined;
  const result = lowerGraph(graph, config, { inputs, progress });
  const failure = lowerFailure(result);
  if (failure) throw new StageError(failure, { stage: 'lower', result });
  return result;
};

/**
 * Tiles every layer for L1 and allocates every memory level (tile/plan.ts). Configurations
 * that do not fit fail with the layer or level and the smallest size that would fit.
 */
const tile: StageImpl<'tile'> = async ({ config, ctx, progress, milp }) => {
  const lower = need(ctx, 'lower');
  if (!milp) fail('internal', 'no MILP solver was given to the pipeline', 'tile stage');
  const solver = await milp();
  return planMemory(lower, config, { solver, progress });
};

/**
 * Generates the C program for the lowered graph from the tile stage's memory plan (tiled layers
 * run their tile loops; every buffer at its planned address), with a harness checking inputs.npz
 * against outputs.npz (or seeded random inputs against the reference interpreter when the files
 * are missing).
 */
const codegen: StageImpl<'codegen'> = ({ input: given, ctx }) => {
  const input = needInput(given);
  const lower = need(ctx, 'lower');
  const plan = need(ctx, 'tile');
  const { graph } = need(ctx, 'parse');
  const npzInputs = input.inputs ? bindNpzInputs(graph, readNpz(input.inputs, 'inputs.npz'), 'inputs.npz').inputs : undefined;
  const golden = npzInputs && input.outputs ? readNpz(input.outputs, 'outputs.npz') : ctx.reference?.outputs;
  return generateCode({ lower, plan, ...testDataFor(graph, lower, npzInputs, golden) });
};

/**
 * Builds and runs the program with the runner the host supplies (the worker: the builtin
 * toolchain on the simulator; the CLI: --cc builtin, clang or host), with progress, cancel and
 * the code pane's edits; skipped without one.
 */
const run: StageImpl<'run'> = async ({ config, ctx, runner, noRunner, progress, signal, edits, maxCycles, profile }) => {
  if (!runner) throw new SkipStage(noRunner ?? 'no runner for the generated C was given (the CLI runs it: dpg run --cc builtin, clang or host)');
  try {
    return await runner(need(ctx, 'codegen'), config, { progress, signal, edits, maxCycles, profile });
  } catch (e) {
    // A run that went wrong midway: report its result so far, then the error.
    if (e instanceof RunError) throw new StageError(e.data, { stage: 'run', result: e.result });
    throw e;
  }
};

export const STAGE_IMPLS: { [S in StageName]: StageImpl<S> } = {
  parse,
  reference,
  lower,
  tile,
  codegen,
  run,
};

