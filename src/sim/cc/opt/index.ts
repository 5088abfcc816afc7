// The IR optimiser: passes over an IrModule that keep its meaning (interp.ts is the judge).
//
// OPT_PASSES is the schedule: one ordered table of named passes, which optimize() walks and
// `dpg cc --passes` prints. Where a pass runs is its stage:
//   module    once, on the whole module, at its place in the table;
//   scalar    the clean-up: per function, the scalar passes in table order to a fixed point
//             (another round only when a pass marked `again` changed something, at most
//             SCALAR_ROUNDS), then the `closing` ones once more; it runs at its place in a walk
//             and after every other function pass that changed something;
//   function  once per function, in its walk;
//   rounds    the consecutive `rounds` passes repeat as a group while one of them finds work
//             (at most LOOP_ROUNDS).
// The function passes between two module passes form one walk over the functions: callees
// first (call-graph order) when a pass of the walk asks for it, so a callee is optimised before
// inlining copies it.
import type { IrFunction, IrModule } from '../ir';
import { checkPassNames, type PassInfo } from '../pass-info';
import { pruneUnreachable } from '../prune';
import { simplifyCfg } from './cfg';
import { compactSlots, dce } from './dce';
import { gvn } from './gvn';
import { licm } from './licm';
import { strengthReduce } from './ivsr';
import { forwardLoads } from './loads';
import { unswitchLoops } from './unswitch';
import { callOrder, dropUnused, inlineCalls, recursiveFunctions, references } from './inline';
import { dominators, findLoops } from './dom';
import { mem2reg } from './mem2reg';
import { rotateLoops } from './rotate';
import { sccp } from './sccp';
import { simplify } from './simplify';
import { sroa } from './sroa';
import { unrollLoops } from './unroll';
import { pairDivRem } from './divrem';
import { compactRegs } from './util';
import { verifyFunction } from './verify';

export interface OptOptions {
  /** 1: the cheap passes; 2: all of them. */
  level: 1 | 2;
  /** -fno-builtin: loops that look like memset / memcpy stay loops. */
  noBuiltin?: boolean;
  /** Check the IR's invariants after every pass (tests). */
  verify?: boolean;
  /** Passes (OPT_PASSES names) not to run; an unknown name is an error naming the known ones. */
  disable?: readonly string[];
}

export type OptStage = 'module' | 'scalar' | 'function' | 'rounds';

/** What a walk gives its passes when it starts (before the first function is touched). */
export interface Walk {
  module: IrModule;
  /** The call graph's strongly connected components, callees first (computed on first use). */
  sccs(): IrFunction[][];
}

export type OptPass = PassInfo & (
  | { stage: 'module'; run: (m: IrModule) => boolean }
  | {
    stage: 'scalar' | 'function' | 'rounds';
    /** Called once per walk, at its start: the pass for each function (true: it changed something). */
    start: (walk: Walk) => (f: IrFunction) => boolean;
    /** scalar: a change asks for another round. */
    again?: boolean;
    /** scalar: runs once more after the last round. */
    closing?: boolean;
    /** Its walk visits callees before callers. */
    calleesFirst?: boolean;
    /** scalar: passes whose changes cannot give it new work (it is not run again for them). */
    unmovedBy?: readonly string[];
  }
);

/** At most this many rounds of the scalar passes per clean-up. */
export const SCALAR_ROUNDS = 6;
/** At most this many rounds of the `rounds` group (SROA, unrolling) per function. */
export const LOOP_ROUNDS = 8;

const each = (run: (f: IrFunction) => boolean | number) => () => (f: IrFunction) => !!run(f);

/** The optimiser's schedule, in order. */
export const OPT_PASSES: readonly OptPass[] = [
  { name: 'prune', level: 2, stage: 'module', doc: 'drop the static functions nothing reachable uses (the headers\' unused inline helpers)',
    run: (m) => pruneUnreachable(m) > 0 },
  { name: 'cfg', level: 1, stage: 'scalar', closing: true, doc: 'fold constant branches, merge blocks, bypass empty blocks, drop unreachable ones',
    start: each(simplifyCfg) },
  { name: 'mem2reg', level: 1, stage: 'scalar', doc: 'locals used only by loads and stores become SSA values (phis)',
    start: each((f) => f.slots.length > 0 && mem2reg(f)) },
  { name: 'sccp', level: 1, stage: 'scalar', unmovedBy: ['dce'], again: true, doc: 'sparse conditional constant propagation; constant branches become jumps',
    start: each(sccp) },
  { name: 'simplify', level: 1, stage: 'scalar', again: true, doc: 'algebraic identities, strength reduction, constant reassociation, extension chains',
    start: each(simplify) },
  { name: 'gvn', level: 1, stage: 'scalar', unmovedBy: ['dce'], again: true, doc: 'common subexpressions over the dominator tree',
    start: each(gvn) },
  { name: 'load-forwarding', level: 1, stage: 'scalar', unmovedBy: ['dce'], doc: 'a load of what every path to it already loaded or stored, with nothing between that may write it (alias facts), reads that value',
    start: each(forwardLoads) },
  { name: 'dce', level: 1, stage: 'scalar', doc: 'drop computations nothing uses',
    start: each(dce) },
  { name: 'inline', level: 2, stage: 'function', calleesFirst: true, doc: 'inline always_inline, small and single-call static callees',
    start: inlineStart },
  { name: 'sroa', level: 2, stage: 'rounds', doc: 'split small aggregates with constant offsets into one local per scalar',
    start: each((f) => f.slots.length > 0 && sroa(f) > 0) },
  { name: 'unroll', level: 2, stage: 'rounds', doc: 'fully unroll small constant loops; #pragma GCC unroll N',
    start: each(unrollLoops) },
  { name: 'drop-unused', level: 2, stage: 'module', doc: 'drop the static functions nothing refers to any more (inlined everywhere)',
    run: (m) => dropUnused(m) > 0 },
  { name: 'rotate', level: 2, stage: 'function', doc: 'top-tested loops become guarded bottom-tested loops',
    start: each(rotate) },
  { name: 'div-rem', level: 2, stage: 'function', doc: 'a remainder beside the quotient of the same operands becomes a - q * b (one division, not two)',
    start: each(pairDivRem) },
  { name: 'licm', level: 2, stage: 'function', doc: 'hoist loop-invariant computations (and loads of loops that store nothing) to the preheader',
    start: each(licm) },
  { name: 'unswitch', level: 2, stage: 'function', doc: 'a small inner loop branching on a value from outside it is copied, one copy per way (the test leaves the loop)',
    start: each(unswitchLoops) },
  { name: 'ivsr', level: 2, stage: 'function', doc: 'addresses scaled from an induction variable become pointers stepped each iteration (strength reduction)',
    start: each(strengthReduce) },
];

/** Runs the optimiser's passes, in order, on a module; returns the optimised module. */
export function optimize(module: IrModule, opts: OptOptions): IrModule {
  checkPassNames(opts.disable ?? [], OPT_PASSES);
  const off = new Set(opts.disable);
  const runs = (p: OptPass) => p.level <= opts.level && !off.has(p.name);
  const check = opts.verify ? (f: IrFunction, when: string) => verifyFunction(f, when) : undefined;
  // The clean-up after a change is every scalar pass that runs, wherever the walk is.
  const scalar = OPT_PASSES.filter((p): p is FunctionPass => p.stage === 'scalar' && runs(p));
  // The whole table cut into module passes and walks (the function passes between them): a pass
  // that does not run leaves the walks as they are (rotation stays after all inlining).
  let walk: FunctionPass[] = [];
  const endWalk = () => { if (walk.length) runWalk(module, walk, scalar, check); walk = []; };
  for (const p of OPT_PASSES) {
    if (p.stage === 'module') { endWalk(); if (runs(p)) p.run(module); } else if (runs(p)) walk.push(p);
  }
  endWalk();
  return module;
}

type FunctionPass = Exclude<OptPass, { stage: 'module' }>;
type Check = (f: IrFunction, when: string) => void;

/** One walk over the functions: each through the walk's passes in order (see the stages above). */
function runWalk(module: IrModule, passes: FunctionPass[], scalarPasses: FunctionPass[], check?: Check): void {
  let sccs: IrFunction[][] | undefined;
  const w: Walk = { module, sccs: () => (sccs ??= callOrder(module)) };
  const run = passes.map((p) => ({ p, fn: p.start(w) }));
  const order = passes.some((p) => p.calleesFirst) ? w.sccs().flat() : [...module.functions];
  const scalar = scalarPasses.map((p) => ({ p, fn: p.start(w) }));
  const clean = (f: IrFunction) => cleanUp(f, scalar, check);
  for (const f of order) {
    for (let i = 0; i < run.length;) {
      const { p } = run[i];
      if (p.stage === 'scalar') {
        clean(f);
        while (i < run.length && run[i].p.stage === 'scalar') i++;
      } else if (p.stage === 'function') {
        if (run[i].fn(f)) { check?.(f, p.name); clean(f); }
        i++;
      } else {
        let j = i;
        while (j < run.length && run[j].p.stage === 'rounds') j++;
        const group = run.slice(i, j);
        for (let round = 0; round < LOOP_ROUNDS; round++) {
          let found = false;
          for (const r of group) if (r.fn(f)) { check?.(f, r.p.name); clean(f); found = true; }
          if (!found) break;
        }
        i = j;
      }
    }
  }
}

/**
 * The scalar passes to a fixed point (bounded), then the closing ones; slots and registers
 * renumbered. A pass whose last run changed nothing is skipped while no other pass has changed
 * anything since: on the same IR it would find nothing again (the check rounds cost half the
 * clean-up otherwise).
 */
function cleanUp(f: IrFunction, scalar: { p: FunctionPass; fn: (f: IrFunction) => boolean }[], check?: Check): void {
  compactRegs(f);
  // The passes that changed something, in order; each pass's place in it when it last found nothing.
  const changes: FunctionPass[] = [];
  const idleAt = new Map<FunctionPass, number>();
  const runPass = (p: FunctionPass, fn: (f: IrFunction) => boolean): boolean => {
    const idle = idleAt.get(p);
    if (idle !== undefined && changes.slice(idle).every((q) => p.unmovedBy?.includes(q.name))) return false;
    const changed = fn(f);
    check?.(f, p.name);
    if (changed) changes.push(p); else idleAt.set(p, changes.length);
    return changed;
  };
  for (let round = 0; round < SCALAR_ROUNDS; round++) {
    let again = false;
    for (const { p, fn } of scalar) if (runPass(p, fn) && p.again) again = true;
    if (!again) break;
  }
  for (const { p, fn } of scalar) if (p.closing) runPass(p, fn);
  compactSlots(f);
  compactRegs(f);
  check?.(f, 'clean-up');
}

/** The scalar passes of level 1 (the clean-up every other pass is followed by), with none disabled. */
export function simplifyFunction(f: IrFunction, check?: Check): void {
  const w: Walk = { module: { functions: [f], globals: [], externs: [] }, sccs: () => [[f]] };
  cleanUp(f, OPT_PASSES.filter((p): p is FunctionPass => p.stage === 'scalar').map((p) => ({ p, fn: p.start(w) })), check);
}

/** Inlining in a walk: the call graph and each function's call sites are counted once, at the walk's start. */
function inlineStart(w: Walk): (f: IrFunction) => boolean {
  const recursive = recursiveFunctions(w.sccs());
  const byName = new Map(w.module.functions.map((f) => [f.name, f]));
  const { calls, taken } = references(w.module);
  const single = (g: IrFunction): boolean => g.isStatic && calls.get(g.name) === 1 && !taken.has(g.name);
  return (f) => inlineCalls(f, byName, recursive, single) > 0;
}

/** Rotates the loops, then mem2reg rebuilds the SSA the rotations demoted to slots. */
function rotate(f: IrFunction): boolean {
  const limit = findLoops(f, dominators(f)).length;
  let n = 0;
  for (let k = 1; n < limit && k; n += k) k = rotateLoops(f);
  if (!n) return false;
  mem2reg(f);
  return true;
}
