// The fuzzer's stage lists in Node: the compiler's stages (GLPK from disk for tiling), then the
// playground's own toolchain: the program compiled and linked, and run on the simulator under a
// small cycle bound. The test and the benchmark run the same lists.
import type { FuzzStage } from '../compiler/fuzz/stages';
import { compilerStages, FRONT_END_STAGES } from '../compiler/fuzz/stages';
import { nodeMilp } from '../pipeline/node/milp';
import { ccStage, runStage, type FuzzToolchain } from '../sim/fuzz-stages';
import type { Machine } from '../sim/machine';
import { nodeMachine } from '../sim/node';
import { MemoryObjectCache } from '../sim/run/builtin';

/** 'front': parse, shapes, interpret; 'compile': through our compiler and linker; 'all': and the bounded run. */
export type StageSet = 'front' | 'compile' | 'all';
export const STAGE_SETS: readonly StageSet[] = ['front', 'compile', 'all'];

/** The run's cycle bound: the kernel tests finish well within it, larger networks are cut short. */
export const FUZZ_MAX_CYCLES = 2_000_000;

let machine: Promise<Machine> | undefined;
/** One cache per process: the runtime and the kernel library compile once, a case's program units once for cc and run. */
const toolchain: FuzzToolchain = { cache: new MemoryObjectCache(128 << 20), machine: () => (machine ??= nodeMachine()) };

export function fuzzStages(set: StageSet = 'all'): FuzzStage[] {
  if (set === 'front') return FRONT_END_STAGES;
  const compile = [...compilerStages(nodeMilp), ccStage(toolchain)];
  return set === 'compile' ? compile : [...compile, runStage(toolchain, FUZZ_MAX_CYCLES)];
}
