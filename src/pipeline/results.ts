// The stages in order and what each one produces: one typed map from stage name to result
// type, so the pipeline, the CLI and the UI read results without casts. Every result is
// plain, serialisable data (the worker posts it to the UI; the CLI prints and writes it).
import type { CodegenResult } from '../compiler/codegen/types';
import type { OutputCheck } from '../compiler/interpret/compare';
import type { Graph } from '../compiler/ir/graph';
import type { LowerResult } from '../compiler/lower/types';
import type { NpyArray } from '../compiler/npz';
import type { IntType } from '../compiler/passes/ranges';
import type { TilePlan } from '../compiler/tiling/types';
import type { RunResult } from '../sim/run/types';

export const STAGES = ['parse', 'reference', 'lower', 'tile', 'codegen', 'run'] as const;
export type StageName = (typeof STAGES)[number];

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

/** Per snapshot of the lowering: tensor name -> the integer type its values fit (src/worker/element-types.ts). */
export type ElementTypes = Record<string, IntType>[];

/** The lowering; in the browser, with the element type each tensor really has in every snapshot. */
export type LowerStageResult = LowerResult & { elementTypes?: ElementTypes };

/** What each stage produces. */
export interface StageResults {
  parse: ParseResult;
  reference: ReferenceResult;
  lower: LowerStageResult;
  tile: TilePlan;
  codegen: CodegenResult;
  run: RunResult;
}

/** The results of a run so far (a stage may have none: skipped, failed, or not reached). */
export type Results = Partial<StageResults>;

/** A stage with its result: a union discriminated by `stage`, so `stage === 'tile'` types `result`. */
export type StageOutcome = { [S in StageName]: { stage: S; result: StageResults[S] } }[StageName];

/** Builds the outcome of stage `s` (the one place that ties a generic stage name to its result). */
export function outcome<S extends StageName>(stage: S, result: StageResults[S]): StageOutcome {
  return { stage, result } as StageOutcome;
}

/** Keeps a stage's result in `results` (the CLI and the UI collect them from the events). */
export function record(results: Results, o: StageOutcome): void {
  put(results, o.stage, o.result);
}

function put<S extends StageName>(results: Results, stage: S, result: StageResults[S]): void {
  results[stage] = result;
}
