// GLPK for Node (CLI, tests, benchmarks): glpk.js's synchronous build, which reads its wasm
// from disk. Loaded once per process.
import { glpConstants, type MilpSolver } from '../../compiler/tiling/milp';

let loading: Promise<MilpSolver> | undefined;

export function nodeMilp(): Promise<MilpSolver> {
  loading ??= import('glpk.js/node').then(async (m) => {
    const glpk = await m.default();
    const glp = glpConstants(glpk);
    return {
      glp,
      solve: async (lp, opts) => glpk.solve(lp, { msglev: glpk.GLP_MSG_OFF, tmlim: opts.timeLimitSec, presol: true }),
    };
  });
  return loading;
}
