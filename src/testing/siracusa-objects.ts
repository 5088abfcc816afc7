// Node only, for tests and the benchmark: the objects `dpg run --cc clang` builds for a test
// folder under a config (clang-19, cached), without linking them, so that two linkers can be
// compared on the very same objects.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../compiler/config';
import type { CodegenResult } from '../compiler/codegen/types';
import { nodeMilp } from '../pipeline/node/milp';
import { runPipeline } from '../pipeline/run';
import { siracusaObjects } from '../sim/run/simulate';

/** Runs the pipeline up to codegen for the folder and returns the generated code. */
export async function codegenFor(dir: string, config: Config): Promise<CodegenResult> {
  let code: CodegenResult | undefined;
  const stop = new Error('codegen done');
  await runPipeline({
    model: readFileSync(join(dir, 'network.onnx')), modelName: 'network.onnx',
    inputs: readFileSync(join(dir, 'inputs.npz')), outputs: readFileSync(join(dir, 'outputs.npz')),
  }, config, () => {}, { milp: nodeMilp, runner: async (c) => { code = c; throw stop; } });
  if (!code) throw new Error(`no code generated for ${dir}`);
  return code;
}

/** The folder's Siracusa objects (in link order) and the runtime's link script. */
export async function siracusaObjectsFor(dir: string, config: Config): Promise<{ objects: string[]; linkScript: string }> {
  return siracusaObjects(await codegenFor(dir, config));
}
