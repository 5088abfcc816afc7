// The MILP solver the tiler uses: GLPK compiled to wasm (glpk.js). The compiler itself stays
// free of environment checks: the host hands it a solver. Node loads 'glpk.js/node' (synchronous,
// reads its wasm from disk; src/pipeline/node/milp.ts); the browser worker loads 'glpk.js', which runs GLPK
// in a worker of its own (src/worker/milp-browser.ts).
import type { LP, Result } from 'glpk.js/node';

export type { LP, Result };

export interface MilpSolver {
  solve(lp: LP, opts: { timeLimitSec: number }): Promise<Result>;
  /** GLPK's constants (directions, bound types, statuses). */
  readonly glp: GlpConstants;
}

export interface GlpConstants {
  GLP_MIN: number; GLP_MAX: number;
  GLP_FR: number; GLP_LO: number; GLP_UP: number; GLP_DB: number; GLP_FX: number;
  GLP_UNDEF: number; GLP_FEAS: number; GLP_INFEAS: number; GLP_NOFEAS: number; GLP_OPT: number; GLP_UNBND: number;
  GLP_MSG_OFF: number;
}

export function glpConstants(g: GlpConstants): GlpConstants {
  const { GLP_MIN, GLP_MAX, GLP_FR, GLP_LO, GLP_UP, GLP_DB, GLP_FX, GLP_UNDEF, GLP_FEAS, GLP_INFEAS, GLP_NOFEAS, GLP_OPT, GLP_UNBND, GLP_MSG_OFF } = g;
  return { GLP_MIN, GLP_MAX, GLP_FR, GLP_LO, GLP_UP, GLP_DB, GLP_FX, GLP_UNDEF, GLP_FEAS, GLP_INFEAS, GLP_NOFEAS, GLP_OPT, GLP_UNBND, GLP_MSG_OFF };
}

/** A small builder so models read as math: rows of named coefficients. */
export class Model {
  private readonly rows: LP['subjectTo'] = [];
  private readonly bins: string[] = [];
  private readonly bnds: NonNullable<LP['bounds']> = [];
  private objective: { name: string; coef: number }[] = [];
  constructor(private readonly glp: GlpConstants, readonly name: string) {}

  binary(name: string): string { this.bins.push(name); return name; }
  /** A continuous variable in [lb, ub]. */
  continuous(name: string, lb: number, ub: number): string {
    this.bnds.push({ name, type: this.glp.GLP_DB, lb, ub });
    return name;
  }
  /** sum(coef * var) <= ub */
  le(name: string, vars: [string, number][], ub: number): void {
    this.rows.push({ name, vars: vars.map(([n, c]) => ({ name: n, coef: c })), bnds: { type: this.glp.GLP_UP, ub, lb: 0 } });
  }
  eq(name: string, vars: [string, number][], v: number): void {
    this.rows.push({ name, vars: vars.map(([n, c]) => ({ name: n, coef: c })), bnds: { type: this.glp.GLP_FX, ub: v, lb: v } });
  }
  minimize(vars: [string, number][]): void { this.objective = vars.map(([n, c]) => ({ name: n, coef: c })); }

  get size(): { vars: number; rows: number } {
    const names = new Set<string>([...this.bins, ...this.bnds.map((b) => b.name)]);
    return { vars: names.size, rows: this.rows.length };
  }

  lp(): LP {
    return {
      // A label only; GLPK aborts on a name over 255 bytes (node names are the model's).
      name: Array.from(this.name).slice(0, 60).join(''),
      objective: { direction: this.glp.GLP_MIN, name: 'cost', vars: this.objective },
      subjectTo: this.rows,
      bounds: this.bnds,
      binaries: this.bins,
    };
  }
}
