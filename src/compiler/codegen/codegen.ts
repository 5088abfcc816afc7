// Code generation: from the lowered graph, its kernel bindings and the tile stage's memory plan
// to a C program (network, weights, test harness). The plan is the whole contract with tiling:
// every tensor lives at its planned address, tiled layers run the plan's tiles, and the plan
// carries the settings the code follows (cores, L1, double buffering, profiling). An untiled
// configuration is a plan without tiled layers.
import { fail } from '../../common/errors';
import type { TensorValue } from '../interpret/interpret';
import type { LowerResult } from '../lower/types';
import { platformFor } from '../platforms';
import type { TilePlan } from '../tiling/types';
import { harnessFiles } from './harness';
import { coresFor, networkFiles } from './network';
import { tensorTable } from './tensors';
import type { CodegenResult } from './types';

export interface CodegenInput {
  lower: LowerResult;
  /** The tile stage's memory plan for `lower`. */
  plan: TilePlan;
  /** One value array per input of the final graph (real values; the harness applies input typing). */
  inputs: readonly TensorValue[];
  /** One array per graph output. */
  golden: readonly TensorValue[];
  testData: CodegenResult['testData'];
}

export function generateCode(c: CodegenInput): CodegenResult {
  const { lower, plan } = c;
  if (lower.failures.length) fail('unsupported-op', lower.failures[0].reason, `node "${lower.failures[0].node}" (${lower.failures[0].op})`);
  const platform = platformFor(lower.platform);
  const graph = lower.snapshots[lower.snapshots.length - 1].graph;
  const table = tensorTable(graph, lower.bindings, lower.inputTypes ?? []);
  const net = networkFiles(lower, graph, table, platform, plan);
  const harness = harnessFiles(graph, table, c.inputs, c.golden);
  const totalOutputs = graph.outputs.reduce((s, v) => s + (table.get(v.name)?.shape.reduce((a, b) => a * b, 1) ?? 0), 0);
  const cores = Math.max(1, ...net.layers.map((l) => (l.calls.length ? coresFor(platform, l.engine, plan.cores) : 1)));
  return {
    platform: lower.platform, cores, files: [...net.files, ...harness], layers: net.layers, buffers: net.buffers,
    totalOutputs, testData: c.testData,
  };
}
