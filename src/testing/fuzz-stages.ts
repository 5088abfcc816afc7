// The fuzzer's full stage list in Node: the compiler's stages (GLPK from disk for tiling), then
// our C compiler on the generated program. The test and the benchmark run the same list.
import type { FuzzStage } from '../compiler/fuzz/stages';
import { compilerStages, FRONT_END_STAGES } from '../compiler/fuzz/stages';
import { nodeMilp } from '../pipeline/node/milp';
import { ccFrontEndStage } from '../sim/fuzz-stages';
import { loadCLibrary } from './c-library';

export type StageSet = 'front' | 'all';

export function fuzzStages(set: StageSet = 'all'): FuzzStage[] {
  if (set === 'front') return FRONT_END_STAGES;
  return [...compilerStages(nodeMilp), ccFrontEndStage(loadCLibrary())];
}
