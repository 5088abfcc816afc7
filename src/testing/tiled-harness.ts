// Node only, for tests and benches: a test folder (or a lowered graph) through tile and codegen
// from the plan, the way the pipeline does it, with the configuration under test (tiled or not).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import { bindNpzInputs } from '../compiler/interpret/npz-io';
import { lowerGraph } from '../compiler/lower/lower';
import type { LowerResult } from '../compiler/lower/types';
import { readNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { inferTypes } from '../compiler/shapes/infer';
import { nodeMilp } from '../pipeline/node/milp';
import { planMemory } from '../compiler/tiling/plan';
import type { TilePlan } from '../compiler/tiling/types';
import { generateCode } from '../compiler/codegen/codegen';
import { testDataFor, type TestData } from '../compiler/codegen/test-data';
import type { CodegenResult } from '../compiler/codegen/types';

export interface Folder {
  lower: LowerResult;
  data: TestData;
}

/** Parses and lowers a folder for a platform (lowering does not depend on the memory flags). */
export function loadFolder(dir: string, config: Config): Folder {
  const graph = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
  const inputs = bindNpzInputs(graph, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz').inputs;
  const golden = readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz');
  const lower = lowerGraph(graph, config, { inputs, check: 'none' });
  return { lower, data: testDataFor(graph, lower, inputs, golden) };
}

/** The memory plan and the program generated from it. */
export async function planAndGenerate(f: Folder, overrides: Partial<Config>): Promise<{ plan: TilePlan; code: CodegenResult; config: Config }> {
  const config: Config = { ...DEFAULT_CONFIG, ...overrides };
  const plan = await planMemory(f.lower, config, { solver: await nodeMilp() });
  const code = generateCode({ lower: f.lower, plan, ...f.data });
  return { plan, code, config };
}

/** The program for a lowered graph under `overrides` (platform and the rest as lowered; DEFAULT_CONFIG otherwise). */
export async function generateWithPlan(lower: LowerResult, data: TestData, overrides: Partial<Config>): Promise<CodegenResult> {
  return (await planAndGenerate({ lower, data }, { platform: lower.platform, ...overrides })).code;
}
