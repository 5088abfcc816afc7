// The implementation of each pipeline stage, or null while it does not exist yet.
// Each stage reads earlier results from `ctx` and returns plain data.
import { fail } from '../common/errors';
import type { Graph } from '../compiler/ir/graph';
import { numel } from '../compiler/ir/dtype';
import type { NpyArray } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import type { Config } from './config';
import type { StageName } from './events';
import type { PipelineInput } from './run';

export interface StageContext {
  input: PipelineInput;
  config: Config;
  /** Results of earlier stages, by name, for later stages to read. */
  ctx: Partial<Record<StageName, unknown>>;
  progress: (fraction: number, message: string) => void;
}

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

export interface Comparison {
  errors: number;
  total: number;
  /** Per graph output: mismatches and the first differing elements. */
  outputs: { name: string; errors: number; total: number; first: { index: number; got: number; want: number }[] }[];
}

export interface ReferenceResult {
  outputs: NpyArray[];
  /** Present when golden outputs were given. */
  comparison?: Comparison;
  ms: number;
}

function stats(g: Graph): GraphStats {
  const ops: Record<string, number> = {};
  for (const n of g.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
  let constantBytes = 0;
  for (const t of Object.values(g.initializers)) constantBytes += t.data.byteLength;
  void numel;
  return { nodes: g.nodes.length, ops, inputs: g.inputs.length, outputs: g.outputs.length, constantBytes };
}

const parse: StageImpl = ({ input }) => {
  const graph = readOnnx(input.model, input.modelName);
  return { graph, stats: stats(graph) } satisfies ParseResult;
};

export const STAGE_IMPLS: Record<StageName, StageImpl | null> = {
  parse,
  reference: null,
  lower: null,
  tile: null,
  codegen: null,
  run: null,
};

export { fail };
