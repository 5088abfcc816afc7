// Inlining: a call to a function of the same module is replaced by a copy of its body when the
// callee is always_inline, or small, or static with a single call site (never noinline ones,
// variadic ones, calls whose arguments do not match the parameters, or calls inside the same
// cycle of the call graph, so recursion cannot unfold forever). The caller's block is split at
// the call; the copy's returns jump to the continuation, whose phi gathers the result. The
// callee's slots become the caller's (each call starts with undefined contents, as before).
import type { Inst, IrFunction, IrModule } from '../ir';
import { cloneInst, constInst, size, successors } from './util';

export interface InlineOptions {
  /** Callees up to this many instructions are inlined anywhere. */
  small: number;
  /** Static callees with one call site are inlined up to this size. */
  single: number;
  /** A caller stops taking (not-always_inline) callees beyond this size. */
  callerLimit: number;
}

const TINY = 12;

export const INLINE_DEFAULTS: InlineOptions = { small: 60, single: 800, callerLimit: 6000 };

/** Strongly connected components of the module's direct call graph, callees first (Tarjan). */
export function callOrder(m: IrModule): IrFunction[][] {
  const byName = new Map<string, IrFunction>();
  for (const f of m.functions) byName.set(f.name, f);
  const index = new Map<IrFunction, number>(), low = new Map<IrFunction, number>();
  const onStack = new Set<IrFunction>();
  const stack: IrFunction[] = [];
  const out: IrFunction[][] = [];
  let counter = 0;
  const callees = (f: IrFunction): IrFunction[] => {
    const s = new Set<IrFunction>();
    for (const b of f.blocks) for (const x of b.insts) if (x.op === 'call' && !x.indirect) { const g = byName.get(x.sym!); if (g) s.add(g); }
    return [...s];
  };
  // Iterative Tarjan: the call graph of generated code can be deep.
  for (const root of m.functions) {
    if (index.has(root)) continue;
    const work: [IrFunction, IrFunction[], number][] = [];
    const enter = (f: IrFunction): void => {
      index.set(f, counter); low.set(f, counter); counter++;
      stack.push(f); onStack.add(f);
      work.push([f, callees(f), 0]);
    };
    enter(root);
    while (work.length) {
      const top = work[work.length - 1];
      const [f, cs] = top;
      if (top[2] < cs.length) {
        const g = cs[top[2]++];
        if (!index.has(g)) enter(g);
        else if (onStack.has(g)) low.set(f, Math.min(low.get(f)!, index.get(g)!));
        continue;
      }
      work.pop();
      if (work.length) { const p = work[work.length - 1][0]; low.set(p, Math.min(low.get(p)!, low.get(f)!)); }
      if (low.get(f) === index.get(f)) {
        const scc: IrFunction[] = [];
        let g: IrFunction;
        do { g = stack.pop()!; onStack.delete(g); scc.push(g); } while (g !== f);
        out.push(scc);
      }
    }
  }
  return out;
}

/** Functions on a cycle of the call graph (an SCC of several, or calling themselves). */
export function recursiveFunctions(sccs: IrFunction[][]): Set<IrFunction> {
  const out = new Set<IrFunction>();
  for (const scc of sccs) {
    if (scc.length > 1) for (const f of scc) out.add(f);
    else if (selfCalls(scc[0]) > 0) out.add(scc[0]);
  }
  return out;
}

/** How many direct call sites each function of the module has, and which are referenced otherwise. */
export function references(m: IrModule): { calls: Map<string, number>; taken: Set<string> } {
  const calls = new Map<string, number>();
  const taken = new Set<string>();
  for (const f of m.functions) for (const b of f.blocks) for (const x of b.insts) {
    if (x.op === 'call' && !x.indirect) calls.set(x.sym!, (calls.get(x.sym!) ?? 0) + 1);
    else if (x.op === 'addr') taken.add(x.sym!);
  }
  for (const g of m.globals) for (const r of g.relocs) taken.add(r.symbol);
  return { calls, taken };
}

/** Can this call be replaced by the callee's body? */
export function inlinable(call: Inst, g: IrFunction): boolean {
  if (g.attrs.noinline || g.variadic) return false;
  if (call.args.length !== g.params.length) return false;
  if ((call.nfixed ?? call.args.length) !== call.args.length) return false;
  for (let i = 0; i < g.params.length; i++) {
    const t = call.argTys?.[i];
    if (t && (t === 'i64') !== (g.params[i] === 'i64')) return false;
  }
  if ((call.dst >= 0) && (g.ret === 'i64') !== (call.ty === 'i64')) return false;
  for (const b of g.blocks) for (const x of b.insts) if (x.op === 'vastart') return false;
  return true;
}

/**
 * Inlines the call at f.blocks[bi].insts[ii] (a direct call to g). Returns the continuation
 * block (where the caller's code after the call now is).
 */
export function inlineCall(f: IrFunction, bi: number, ii: number, g: IrFunction): number {
  const call = f.blocks[bi].insts[ii];
  const regBase = f.nregs, slotBase = f.slots.length, blockBase = f.blocks.length;
  const reg = (r: number): number => (r < g.params.length ? call.args[r] : regBase + r);
  f.nregs += g.nregs;
  for (const s of g.slots) f.slots.push({ ...s });
  // The continuation: everything after the call.
  const cont = blockBase + g.blocks.length;
  const head = f.blocks[bi];
  const tail = head.insts.splice(ii);
  tail.shift(); // the call itself
  // The successors of the split block now have the continuation as their predecessor.
  for (const s of new Set(successors({ insts: tail }))) {
    for (const x of f.blocks[s].insts) {
      if (x.op !== 'phi') break;
      x.targets = x.targets!.map((p) => (p === bi ? cont : p));
    }
  }
  head.insts.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [blockBase], loc: call.loc });
  const rets: [number, number][] = []; // [block, value]
  for (let k = 0; k < g.blocks.length; k++) {
    const insts: Inst[] = [];
    for (const x of g.blocks[k].insts) {
      const y = cloneInst(x);
      y.args = y.args.map(reg);
      if (y.dst >= 0) y.dst = regBase + y.dst;
      if (y.asm) y.asm.outs = y.asm.outs.map((r) => regBase + r);
      if (y.op === 'slot') y.imm = slotBase + (y.imm as number);
      if (y.targets) y.targets = y.targets.map((t) => blockBase + t);
      if (y.op === 'ret') {
        if (call.dst >= 0) {
          let v = y.args[0];
          if (v === undefined) { v = f.nregs++; insts.push(constInst(call.ty, 0, v, y.loc)); }
          rets.push([blockBase + k, v]);
        }
        insts.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [cont], loc: y.loc });
        continue;
      }
      insts.push(y);
    }
    f.blocks.push({ insts });
  }
  const contInsts: Inst[] = [];
  if (call.dst >= 0) {
    if (rets.length) contInsts.push({ op: 'phi', ty: call.ty, dst: call.dst, args: rets.map((r) => r[1]), targets: rets.map((r) => r[0]), loc: call.loc });
    else contInsts.push(constInst(call.ty, 0, call.dst, call.loc));
  }
  f.blocks.push({ insts: [...contInsts, ...tail] });
  return cont;
}

/**
 * Is `g` worth inlining into `f` at this call? A callee declared `inline` gets twice the size
 * budget, a call passing the address of one of f's locals three times: inlined, the local can become a register (as clang's
 * inliner rewards arguments that are allocas).
 */
function wanted(f: IrFunction, g: IrFunction, gsize: number, opts: InlineOptions, singleSite: boolean, localArg: boolean): boolean {
  if (g.attrs.alwaysInline) return true;
  // A body no bigger than the call's own argument moves, save and return: cheaper inlined,
  // however big the caller already is.
  if (gsize <= TINY) return true;
  if (size(f) > opts.callerLimit) return false;
  // `inline` asks for it: twice the budget (clang's inline hint raises its threshold too).
  if (gsize <= (localArg ? 3 : 1) * (g.attrs.inlineHint ? 2 : 1) * opts.small) return true;
  return singleSite && gsize <= opts.single;
}

/**
 * Inlines the calls of `f` that `wanted` accepts, except to functions on a call-graph cycle
 * (`recursive`: a copy would bring the recursive call along). Returns the number inlined.
 */
export function inlineCalls(f: IrFunction, byName: Map<string, IrFunction>, recursive: Set<IrFunction>, singleSite: (g: IrFunction) => boolean,
                            opts: InlineOptions = INLINE_DEFAULTS): number {
  let n = 0;
  const sizes = new Map<IrFunction, number>();
  const slotRegs = new Set<number>();
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'slot') slotRegs.add(x.dst);
  for (let bi = 0; bi < f.blocks.length; bi++) {
    const insts = f.blocks[bi].insts;
    for (let ii = 0; ii < insts.length; ii++) {
      const x = insts[ii];
      if (x.op !== 'call' || x.indirect) continue;
      const g = byName.get(x.sym!);
      if (!g || g === f || recursive.has(g) || !inlinable(x, g)) continue;
      let gs = sizes.get(g);
      if (gs === undefined) { gs = size(g); sizes.set(g, gs); }
      if (!wanted(f, g, gs, opts, singleSite(g), x.args.some((a) => slotRegs.has(a)))) continue;
      inlineCall(f, bi, ii, g);
      n++;
      break; // the rest of this block moved to the continuation, visited later
    }
  }
  return n;
}

/** Drops static functions nothing refers to any more (calls, addresses, data, asm text). */
export function dropUnused(m: IrModule): number {
  let dropped = 0;
  for (;;) {
    const { calls, taken } = references(m);
    const asmText = m.functions.flatMap((f) => f.blocks.flatMap((b) => b.insts.filter((x) => x.op === 'asm').map((x) => x.asm!.template))).join('\n');
    // A name in asm text (a call from asm) keeps its function; a mnemonic containing it does not.
    const inAsm = (name: string): boolean => asmText.includes(name) && new RegExp(`(?<![\\w$.])${name.replace(/[$.]/g, '\\$&')}(?![\\w$])`).test(asmText);
    const dead = m.functions.filter((f) => f.isStatic && !calls.has(f.name) && !taken.has(f.name) && !inAsm(f.name));
    // A function only calling itself is unused too.
    const selfOnly = m.functions.filter((f) => f.isStatic && !taken.has(f.name) && !inAsm(f.name) && calls.get(f.name) === selfCalls(f));
    const gone = new Set([...dead, ...selfOnly]);
    if (!gone.size) return dropped;
    m.functions = m.functions.filter((f) => !gone.has(f));
    dropped += gone.size;
  }
}

function selfCalls(f: IrFunction): number {
  let n = 0;
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'call' && !x.indirect && x.sym === f.name) n++;
  return n;
}
