// The fuzzer's stages: what one case runs, in order, on its mutated model and configuration.
// Each stage reads what earlier ones left in the case's state and adds its own result. The
// compiler's stages are here (parse, shapes, interpret, lower, tile, codegen); the ones past
// codegen (our C compiler, a bounded run on the simulator) live in src/sim and are appended
// by the caller, so the list grows with the toolchain without this layer importing it.
// The stages call the compiler the way src/pipeline/stages.ts does, so a case fails where
// the playground would.
import type { CodegenResult } from '../codegen/types';
import { generateCode } from '../codegen/codegen';
import { testDataFor } from '../codegen/test-data';
import type { Config } from '../config';
import { validateConfig } from '../config';
import { fail, PlaygroundError } from '../../common/errors';
import type { Graph } from '../ir/graph';
import { interpret, type TensorValue } from '../interpret/interpret';
import { bindNpzInputs } from '../interpret/npz-io';
import { lowerFailure, lowerGraph } from '../lower/lower';
import type { LowerResult } from '../lower/types';
import type { NpyArray } from '../npz';
import { readOnnx } from '../onnx/read';
import { analyze, MAX_GRAPH_ELEMENTS } from '../shapes/infer';
import type { MilpSolver } from '../tiling/milp';
import { planMemory } from '../tiling/plan';
import type { TilePlan } from '../tiling/types';
import { allocTensor, DTYPES, numel } from '../ir/dtype';
import type { Rng } from './prng';
import { int } from './prng';

/** What a case carries from stage to stage. */
export interface CaseState {
  /** The mutated model. */
  bytes: Uint8Array;
  config: Config;
  /** Draws for the case's random inputs (after the mutation's draws: still one seed per case). */
  rng: Rng;
  /** The model's own inputs.npz arrays, used when they still fit the mutated graph. */
  npz?: readonly NpyArray[];
  parsed?: Graph;
  typed?: Graph;
  /** The interpreter's inputs and outputs. */
  inputs?: TensorValue[];
  outputs?: TensorValue[];
  /** True when `inputs` are the model's inputs.npz (the pipeline then types inputs by their values). */
  fromNpz?: boolean;
  lower?: LowerResult;
  plan?: TilePlan;
  code?: CodegenResult;
  /** Set by a stage that stopped at a bound it was given (the run's cycle limit): the case is cut short, not refused. */
  bounded?: string;
  /** Set by a stage that does not apply to the case (the simulator run of generic code): later stages do not run. */
  skipped?: string;
}

export interface FuzzStage {
  name: string;
  run(s: CaseState): void | Promise<void>;
}

/** An earlier stage's result; its absence is a bug in the stage list. */
export function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) fail('internal', `the fuzz case has no ${what} (the stage list is out of order)`, 'fuzz');
  return v;
}

export const parseStage: FuzzStage = {
  name: 'parse',
  run: (s) => {
    s.parsed = readOnnx(s.bytes, 'network.onnx');
  },
};

export const shapesStage: FuzzStage = {
  name: 'shapes',
  run: (s) => {
    s.typed = analyze(need(s.parsed, 'parsed graph')).graph;
  },
};

/**
 * The reference interpreter on the model's inputs.npz when they fit, else on seeded inputs.
 * Shape inference has refused every graph over the element budget by now: one that gets here
 * over it is a finding.
 */
export const interpretStage: FuzzStage = {
  name: 'interpret',
  run: (s) => {
    const typed = need(s.typed, 'typed graph');
    const elements = graphElements(typed);
    if (elements > MAX_GRAPH_ELEMENTS)
      fail('internal', `shape inference let through a graph of ${elements} elements, over the limit of ${MAX_GRAPH_ELEMENTS}`, 'fuzz',
        'the graph budget check in shapes/infer.ts missed a tensor');
    const bound = boundNpz(typed, s.npz);
    s.fromNpz = !!bound;
    s.inputs = bound ?? randomInputs(typed, s.rng);
    s.outputs = interpret(need(s.parsed, 'parsed graph'), s.inputs);
  },
};

/** Lowering for the case's platform, as the pipeline's lower stage does it (semantic checks included). */
export const lowerStage: FuzzStage = {
  name: 'lower',
  run: (s) => {
    validateConfig(s.config);
    const result = lowerGraph(need(s.typed, 'typed graph'), s.config, { inputs: s.fromNpz ? s.inputs : undefined });
    const failure = lowerFailure(result);
    if (failure) fail(failure.code, failure.what, failure.where, failure.hint);
    s.lower = result;
  },
};

/** Tiling and memory allocation; `solver` loads the MILP solver (GLPK, loaded once by the host). */
export function tileStage(solver: () => Promise<MilpSolver>): FuzzStage {
  return {
    name: 'tile',
    run: async (s) => {
      s.plan = await planMemory(need(s.lower, 'lowering'), s.config, { solver: await solver() });
    },
  };
}

/** The C program, with the harness checking the interpreter's outputs (inputs.npz) or its own seeded inputs. */
export const codegenStage: FuzzStage = {
  name: 'codegen',
  run: (s) => {
    const lower = need(s.lower, 'lowering');
    const data = s.fromNpz ? testDataFor(need(s.typed, 'typed graph'), lower, s.inputs, s.outputs) : testDataFor(need(s.typed, 'typed graph'), lower);
    s.code = generateCode({ lower, plan: need(s.plan, 'memory plan'), ...data });
  },
};

/** The compiler's stages, in pipeline order. */
export function compilerStages(solver: () => Promise<MilpSolver>): FuzzStage[] {
  return [parseStage, shapesStage, interpretStage, lowerStage, tileStage(solver), codegenStage];
}

/** The front end only (no solver needed): what the fuzzer ran before it reached lower. */
export const FRONT_END_STAGES: FuzzStage[] = [parseStage, shapesStage, interpretStage];

// ---- inputs ---------------------------------------------------------------------------------------

/** Elements of every typed tensor and initializer: an upper bound on what the interpreter holds. */
export function graphElements(g: Graph): number {
  let n = 0;
  for (const t of Object.values(g.types)) n += numel(t.shape);
  for (const t of Object.values(g.initializers)) n += numel(t.shape);
  return n;
}

function boundNpz(g: Graph, npz: readonly NpyArray[] | undefined): TensorValue[] | undefined {
  if (!npz) return undefined;
  try {
    return bindNpzInputs(g, npz, 'inputs.npz').inputs;
  } catch (e) {
    if (e instanceof PlaygroundError) return undefined;
    throw e;
  }
}

/** Integers in int8 range (the graph's own type's range when narrower), one array per graph input. */
export function randomInputs(g: Graph, rng: Rng): TensorValue[] {
  return g.inputs.map((v) => {
    const n = numel(v.shape);
    const info = DTYPES[v.dtype];
    if (!info.array) return { dtype: v.dtype, shape: v.shape, data: new Float64Array(n) };
    const data = allocTensor(v.dtype, n);
    const lo = Math.max(info.min ?? -128, -128), hi = Math.min(info.max ?? 127, 127);
    for (let i = 0; i < n; i++) {
      const x = int(rng, lo, hi);
      (data as unknown as (number | bigint)[])[i] = typeof data[0] === 'bigint' ? BigInt(x) : x;
    }
    return { dtype: v.dtype, shape: v.shape, data };
  });
}
