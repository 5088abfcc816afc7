// The implementation of each pipeline stage, or null while it does not exist yet.
// Each stage reads earlier results from `ctx` and returns plain data.
import type { Graph } from '../compiler/ir/graph';
import { checkOutputs, type OutputCheck } from '../compiler/interpret/compare';
import { interpret } from '../compiler/interpret/interpret';
import { bindNpzInputs } from '../compiler/interpret/npz-io';
import type { NpyArray } from '../compiler/npz';
import { readNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { inferTypes } from '../compiler/shapes/infer';
import { lowerFailure, lowerGraph } from '../compiler/lower/lower';
import type { LowerResult } from '../compiler/lower/types';
import type { MilpSolver } from '../compiler/tiling/milp';
import { planMemory } from '../compiler/tiling/plan';
import type { TilePlan } from '../compiler/tiling/types';
import { fail } from '../common/errors';
import { generateCode } from '../compiler/codegen/codegen';
import { testDataFor } from '../compiler/codegen/test-data';
import type { CodegenResult } from '../compiler/codegen/types';
import { SkipStage, StageError } from './stage-error';
import type { CoreStats, SiracusaResult } from '../sim/siracusa';
import type { Trap } from '../sim/machine';
import type { Config } from './config';
import type { StageName } from './events';
import type { PipelineInput } from './run';

export interface StageContext {
  input: PipelineInput;
  config: Config;
  /** Results of earlier stages, by name, for later stages to read. */
  ctx: Partial<Record<StageName, unknown>>;
  progress: (fraction: number, message: string) => void;
  /** Loads the MILP solver (the host's GLPK build). */
  milp?: () => Promise<MilpSolver>;
  /** Runs the generated program (see RunOptions.runner). */
  runner?: Runner;
}

/** What running the generated program reports. Plain data. */
export interface RunResult {
  /** 'host': built with the host C compiler and run natively; 'simulator': the Siracusa simulator. */
  target: 'host' | 'simulator';
  compiler: string;
  /** The program's console output. */
  stdout: string;
  exitCode: number;
  /** From `Runtime: N cycles` and `Errors: E out of T`; undefined when the program printed none. */
  cycles?: number;
  errors?: number;
  total?: number;
  /** The simulator's statistics (target 'simulator'). */
  sim?: SimRunStats;
}

/** What a run on the Siracusa simulator measured. Plain data. */
export interface SimRunStats {
  /** Harts 0..7 (the workers) and 8 (the controller). */
  cores: CoreStats[];
  dma: SiracusaResult['dma'];
  l3: SiracusaResult['l3'];
  /** N-EUREKA: tasks run, busy cycles, bytes over its L1 port, bytes from the weight memory. */
  neureka: SiracusaResult['neureka'];
  /** Instructions retired by all cores. */
  instructions: number;
  /** Simulated instructions per second of wall-clock time, in millions. */
  mips: number;
  buildMs: number;
  runMs: number;
  /** Set when a core trapped; fn is the function holding pc and line its source line (file:line), from the ELF's debug info. */
  trap?: Trap & { fn?: string; line?: string };
}

export type Runner = (code: CodegenResult, config: Config) => Promise<RunResult> | RunResult;

export type StageImpl = (s: StageContext) => Promise<unknown> | unknown;

export interface GraphStats {
  nodes: number;
  ops: Record<string, number>;
  inputs: number;
  outputs: number;
  /** Constant bytes in the file's own element type. */
  constantBytes: number;
}

export interface ParseResult {
  graph: Graph;
  stats: GraphStats;
}

export interface ReferenceResult {
  outputs: NpyArray[];
  /** Present when golden outputs were given: Deeploy's "Errors: E out of T". */
  comparison?: OutputCheck;
  /** Trailing inputs.npz arrays that are not graph inputs (Deeploy's kernel tests add weights). */
  unusedInputs: string[];
  ms: number;
}

function stats(g: Graph): GraphStats {
  const ops: Record<string, number> = {};
  for (const n of g.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
  let constantBytes = 0;
  for (const t of Object.values(g.initializers)) constantBytes += t.data.byteLength;
  return { nodes: g.nodes.length, ops, inputs: g.inputs.length, outputs: g.outputs.length, constantBytes };
}

const parse: StageImpl = ({ input }) => {
  const graph = inferTypes(readOnnx(input.model, input.modelName));
  return { graph, stats: stats(graph) } satisfies ParseResult;
};

/** Runs the reference interpreter on inputs.npz and checks outputs.npz, when they are given. */
const reference: StageImpl = ({ input, ctx }) => {
  if (!input.inputs) return undefined;
  const { graph } = ctx.parse as ParseResult;
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
const lower: StageImpl = ({ input, config, ctx, progress }) => {
  const { graph } = ctx.parse as ParseResult;
  const inputs = input.inputs ? bindNpzInputs(graph, readNpz(input.inputs, 'inputs.npz'), 'inputs.npz').inputs : undefined;
  const result: LowerResult = lowerGraph(graph, config, { inputs, progress });
  const failure = lowerFailure(result);
  if (failure) throw new StageError(failure, result);
  return result;
};

/**
 * Tiles every layer for L1 and allocates every memory level (tile/plan.ts). Configurations
 * that do not fit fail with the layer or level and the smallest size that would fit.
 */
const tile: StageImpl = async ({ config, ctx, progress, milp }) => {
  const lower = ctx.lower as LowerResult;
  if (!milp) fail('internal', 'no MILP solver was given to the pipeline', 'tile stage');
  const solver = await milp();
  return (await planMemory(lower, config, { solver, progress })) satisfies TilePlan;
};

/**
 * Generates the C program for the lowered graph from the tile stage's memory plan (tiled layers
 * run their tile loops; every buffer at its planned address), with a harness checking inputs.npz against outputs.npz (or seeded random inputs against the
 * reference interpreter when the files are missing).
 */
const codegen: StageImpl = ({ input, config, ctx }) => {
  const lower = ctx.lower as LowerResult;
  const { graph } = ctx.parse as ParseResult;
  const npzInputs = input.inputs ? bindNpzInputs(graph, readNpz(input.inputs, 'inputs.npz'), 'inputs.npz').inputs : undefined;
  const golden = npzInputs && input.outputs ? readNpz(input.outputs, 'outputs.npz') : (ctx.reference as ReferenceResult | undefined)?.outputs;
  const plan = ctx.tile as TilePlan | undefined;
  return generateCode({ lower, cores: config.cores, ...testDataFor(graph, lower, npzInputs, golden), ...(plan ? { planned: { plan, config } } : {}) }) satisfies CodegenResult;
};

/** Runs the program with the runner the caller supplies (the CLI's host compiler); skipped without one. */
const run: StageImpl = ({ config, ctx, runner }) => {
  if (!runner)
    throw new SkipStage('the run stage is not implemented yet here: running the generated C needs the Siracusa simulator\'s cluster, DMA and NPU (issue #7); ' +
      'the CLI\'s --cc host builds and runs it on the host instead');
  return runner(ctx.codegen as CodegenResult, config);
};

export const STAGE_IMPLS: Record<StageName, StageImpl | null> = {
  parse,
  reference,
  lower,
  tile,
  codegen,
  run,
};

