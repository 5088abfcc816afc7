// The fuzzer's stage lists in Node: the compiler's stages (GLPK from disk for tiling), our C
// compiler on the generated program, and a bounded run on the simulator. The test
// and the benchmark run the same lists.
import { fail, PlaygroundError } from '../common/errors';
import type { FuzzStage } from '../compiler/fuzz/stages';
import { compilerStages, FRONT_END_STAGES } from '../compiler/fuzz/stages';
import { nodeMilp } from '../pipeline/node/milp';
import { ccStage, runStage, type FuzzRunner } from '../sim/fuzz-stages';
import { runOnSimulator } from '../sim/run/simulate';
import { loadCLibrary } from './c-library';

/** 'front': parse, shapes, interpret; 'compile': through our C compiler (to objects); 'all': and the bounded run. */
export type StageSet = 'front' | 'compile' | 'all';
export const STAGE_SETS: readonly StageSet[] = ['front', 'compile', 'all'];

/** The run's cycle bound: the kernel tests finish well within it, larger networks are cut short. */
export const FUZZ_MAX_CYCLES = 2_000_000;

/**
 * clang-19 and ld.lld-19, until the playground's own compiler builds whole programs. A program
 * too large for a memory is refused as our linker refuses it ('does-not-fit', src/sim/link),
 * not reported as the failed build it is to `--cc clang`.
 */
const clangRunner: FuzzRunner = async (code, config, maxCycles) => {
  try {
    return await runOnSimulator(code, config, { maxCycles });
  } catch (e) {
    const region = e instanceof PlaygroundError && /error: section '[^']+' will not fit in region '\w+': overflowed by \d+ bytes/.exec(e.data.what);
    if (region) fail('does-not-fit', `the program does not fit: ${region[0].replace(/^error: /, '')}`, 'link', 'shrink the program or move buffers to another memory');
    throw e;
  }
};

export function fuzzStages(set: StageSet = 'all'): FuzzStage[] {
  if (set === 'front') return FRONT_END_STAGES;
  const compile = [...compilerStages(nodeMilp), ccStage(loadCLibrary())];
  return set === 'compile' ? compile : [...compile, runStage(clangRunner, FUZZ_MAX_CYCLES)];
}
