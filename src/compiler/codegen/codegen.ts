// Code generation: from the lowered graph and its kernel bindings to a C program (network,
// weights, test harness). With the tile stage's memory plan, every tensor lives at its planned
// address and tiled layers run their tile loops (planned.ts); without one, every tensor gets
// a static buffer in the default memory (network.ts).
import { fail } from '../../common/errors';
import type { TensorValue } from '../interpret/interpret';
import type { LowerResult } from '../lower/types';
import { platformFor } from '../platforms';
import { harnessFiles } from './harness';
import { networkFiles } from './network';
import { plannedNetworkFiles } from './planned';
import type { TilePlan } from '../tiling/types';
import type { Config } from '../config';
import { tensorTable } from './tensors';
import type { CodegenResult } from './types';

export interface CodegenInput {
  lower: LowerResult;
  /** Configured cores (a layer gets at most what its engine has). */
  cores: number;
  /** One value array per input of the final graph (real values; the harness applies input typing). */
  inputs: readonly TensorValue[];
  /** One array per graph output. */
  golden: readonly TensorValue[];
  testData: CodegenResult['testData'];
  /** The tile stage's memory plan and the configuration it was made for. */
  planned?: { plan: TilePlan; config: Config };
}

export function generateCode(c: CodegenInput): CodegenResult {
  const { lower } = c;
  if (lower.failures.length) fail('unsupported-op', lower.failures[0].reason, `node "${lower.failures[0].node}" (${lower.failures[0].op})`);
  const platform = platformFor(lower.platform);
  const graph = lower.snapshots[lower.snapshots.length - 1].graph;
  const table = tensorTable(graph, lower.bindings, lower.inputTypes ?? []);
  const net = c.planned ? plannedNetworkFiles(lower, graph, table, platform, c.planned) : networkFiles(lower, graph, table, platform, c.cores);
  const harness = harnessFiles(graph, table, c.inputs, c.golden);
  const totalOutputs = graph.outputs.reduce((s, v) => s + (table.get(v.name)?.shape.reduce((a, b) => a * b, 1) ?? 0), 0);
  const cores = Math.max(1, ...net.layers.map((l) => (l.calls.length ? Math.min(c.cores, platform.engines.find((e) => e.name === l.engine)?.cores ?? 1) : 1)));
  return {
    platform: lower.platform, cores, files: [...net.files, ...harness], layers: net.layers, buffers: net.buffers,
    totalOutputs, testData: c.testData,
  };
}
