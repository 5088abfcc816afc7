// GLPK in the browser: glpk.js's browser build, which runs the solver in a worker of its own
// (started from the pipeline worker). Loaded once, on the first tile stage.
import { glpConstants, type MilpSolver } from '../compiler/tiling/milp';

let loading: Promise<MilpSolver> | undefined;

export function browserMilp(): Promise<MilpSolver> {
  loading ??= import('glpk.js').then(async (m) => {
    const glpk = await m.default();
    return {
      glp: glpConstants(glpk),
      solve: (lp, opts) => glpk.solve(lp, { msglev: glpk.GLP_MSG_OFF, tmlim: opts.timeLimitSec, presol: true }),
    };
  });
  return loading;
}
