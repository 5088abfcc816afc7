// The IR optimiser: passes over an IrModule that keep its meaning (interp.ts is the judge).
//
// Per function: CFG cleanup, mem2reg, SCCP, algebraic simplification, CSE, DCE (simplifyFunction).
// Level 2 also inlines (callees first, in call-graph order, so a callee is optimised before it
// is copied), splits small aggregates into scalars (SROA) and fully unrolls small constant
// loops, re-running the scalar passes after each, hoists loop-invariant computations, then drops
// static functions left unused.
import type { IrFunction, IrModule } from '../ir';
import { simplifyCfg } from './cfg';
import { compactSlots, dce } from './dce';
import { gvn } from './gvn';
import { licm } from './licm';
import { forwardLoads } from './loads';
import { strengthReduce } from './ivsr';
import { callOrder, dropUnused, inlineCalls, recursiveFunctions, references } from './inline';
import { dominators, findLoops } from './dom';
import { mem2reg } from './mem2reg';
import { rotateLoops } from './rotate';
import { sccp } from './sccp';
import { simplify } from './simplify';
import { sroa } from './sroa';
import { unrollLoops } from './unroll';
import { compactRegs } from './util';
import { verifyFunction } from './verify';

export interface OptOptions {
  /** 1: the cheap passes; 2: all of them. */
  level: 1 | 2;
  /** -fno-builtin: loops that look like memset / memcpy stay loops. */
  noBuiltin?: boolean;
  /** Check the IR's invariants after every pass (tests). */
  verify?: boolean;
}

/** Runs the optimiser's passes, in order, on a module; returns the optimised module. */
export function optimize(module: IrModule, opts: OptOptions): IrModule {
  const check = opts.verify ? (f: IrFunction, when: string) => verifyFunction(f, when) : undefined;
  if (opts.level < 2) {
    for (const f of module.functions) simplifyFunction(f, check);
    return module;
  }
  const sccs = callOrder(module);
  const recursive = recursiveFunctions(sccs);
  const byName = new Map(module.functions.map((f) => [f.name, f]));
  const { calls, taken } = references(module);
  const single = (g: IrFunction): boolean => g.isStatic && calls.get(g.name) === 1 && !taken.has(g.name);
  for (const scc of sccs) for (const f of scc) {
    simplifyFunction(f, check);
    if (inlineCalls(f, byName, recursive, single)) {
      check?.(f, 'inline');
      simplifyFunction(f, check);
    }
    loopPasses(f, check);
  }
  dropUnused(module);
  // Last, once nothing more is inlined (unrolling wants loops tested at the top): rotation and LICM.
  for (const f of module.functions) {
    if (rotate(f, check)) simplifyFunction(f, check);
    if (licm(f)) { check?.(f, 'licm'); simplifyFunction(f, check); }
    if (strengthReduce(f)) { check?.(f, 'ivsr'); simplifyFunction(f, check); }
  }
  return module;
}

/** Rotates the loops, then mem2reg rebuilds the SSA the rotations demoted to slots. */
function rotate(f: IrFunction, check?: (f: IrFunction, when: string) => void): boolean {
  const limit = findLoops(f, dominators(f)).length;
  let n = 0;
  for (let k = 1; n < limit && k; n += k) k = rotateLoops(f);
  if (!n) return false;
  mem2reg(f);
  check?.(f, 'rotate');
  return true;
}

/** SROA and full unrolling, each followed by the scalar passes, while they find work. */
function loopPasses(f: IrFunction, check?: (f: IrFunction, when: string) => void): void {
  for (let round = 0; round < 8; round++) {
    const split = f.slots.length ? sroa(f) : 0;
    if (split) { check?.(f, 'sroa'); simplifyFunction(f, check); }
    const unrolled = unrollLoops(f);
    if (unrolled) { check?.(f, 'unroll'); simplifyFunction(f, check); }
    if (!split && !unrolled) break;
  }
}

/**
 * The scalar passes, to a fixed point (bounded). Another round runs only when SCCP, the
 * simplifier or CSE changed something (CFG cleanup, mem2reg and DCE feed them, not each other).
 */
export function simplifyFunction(f: IrFunction, check?: (f: IrFunction, when: string) => void): void {
  compactRegs(f);
  for (let round = 0; round < 6; round++) {
    simplifyCfg(f);
    check?.(f, 'cfg');
    if (f.slots.length && mem2reg(f)) check?.(f, 'mem2reg');
    let again = sccp(f);
    check?.(f, 'sccp');
    again = simplify(f) || again;
    check?.(f, 'simplify');
    again = gvn(f) || again;
    check?.(f, 'gvn');
    again = forwardLoads(f) || again;
    check?.(f, 'loads');
    dce(f);
    check?.(f, 'dce');
    if (!again) break;
  }
  simplifyCfg(f);
  compactSlots(f);
  compactRegs(f);
  check?.(f, 'cfg');
}
