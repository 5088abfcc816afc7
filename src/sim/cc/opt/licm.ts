// Loop-invariant code motion: pure computations of a loop whose operands are all defined
// outside it (or are themselves hoisted) move to the loop's preheader, which is made when the
// loop's single entry edge comes from a block with other successors. Divisions stay unless their
// divisor is known non-zero there (they could trap on a path that never ran them), loads leave only when nothing in the loop may write what
// they read (alias.ts), constants stay where they are used but are copied out when a hoisted
// computation needs them.
import type { Inst, IrFunction } from '../ir';
import { Aliasing, accessBytes } from './alias';
import { dominators, findLoops, loopPreheader } from './dom';
import { asmHasSideEffects, defBlocks, isPure, successors } from './util';
import { dominates } from './dom';

export function licm(f: IrFunction): boolean {
  const d = dominators(f);
  const loops = findLoops(f, d); // innermost first: what an inner loop hoists, the outer one may hoist further
  if (!loops.length) return false;
  let changed = false;
  const defBlock = Array.from(defBlocks(f));
  const defInst: (Inst | undefined)[] = [];
  for (const b of f.blocks) for (const x of b.insts) if (x.dst >= 0) defInst[x.dst] = x;
  const preOf = new Map<number, number>(); // header -> the preheader made for it
  const alias = new Aliasing(f);
  for (const l of loops) {
    const pre = loopPreheader(f, l, d.preds);
    if (pre >= d.idom.length) { preOf.set(l.header, pre); changed = true; } // made now: not in d.rpo
    if (pre < 0) continue;
    // A new preheader belongs to the loops around this one.
    for (const o of loops) if (o !== l && o.blocks.has(l.header)) o.blocks.add(pre);
    const hoisted: Inst[] = [];
    // A division may leave, from a block every iteration runs (it costs tens of cycles: not
    // for a path that may not run), when its divisor cannot be 0 there (it traps nowhere then): a
    // constant, or a value a branch on the way into the loop found non-zero (`if (run == 0)
    // return;` before a loop dividing by run). Signed ones only by constants other than -1.
    const nonZero = nonZeroOnEntry(f, d, l.header, defInst);
    const constOf = (r: number): number | bigint | undefined => (defInst[r]?.op === 'const' ? defInst[r]!.imm : undefined);
    const safeDivision = (x: Inst): boolean => {
      if (x.pragmas || x.dst < 0) return false;
      const c = constOf(x.args[1]);
      if (x.op === 'udiv' || x.op === 'urem') return (c !== undefined && BigInt(c) !== 0n) || nonZero.has(x.args[1]);
      if (x.op === 'sdiv' || x.op === 'srem') return c !== undefined && BigInt(c) !== 0n && BigInt(c) !== -1n;
      return false;
    };
    // Loads may leave a loop when nothing in it may write what they read (no store, call,
    // memcpy/memset, or asm with effects that could reach it), from a block every iteration
    // runs before it can leave (so the load ran anyway whenever the loop was entered), unless
    // its address could be a device register.
    const writers: Inst[] = [];
    // A loop that calls: what leaves it must live in a callee-saved register across the calls
    // (or be spilled and reloaded, no cheaper than computing it again): only what costs more
    // than one cycle leaves (multiplications, divisions, loads).
    const calls = [...l.blocks].some((b) => f.blocks[b].insts.some((x) => x.op === 'call'));
    const exiting: number[] = [...l.latches];
    for (const b of l.blocks) {
      for (const x of f.blocks[b].insts) {
        if (x.op === 'store' || x.op === 'memcpy' || x.op === 'memset' || x.op === 'call' || (x.op === 'asm' && asmHasSideEffects(x))) writers.push(x);
      }
      if (successors(f.blocks[b]).some((t) => !l.blocks.has(t))) exiting.push(b);
    }
    const everyIteration = (b: number): boolean => b < d.idom.length && exiting.every((e) => e < d.idom.length && dominates(d, b, e));
    // Reverse postorder, with inner loops' preheaders made here before their headers.
    const order = d.rpo.flatMap((b) => (!l.blocks.has(b) ? [] : preOf.has(b) && b !== l.header && l.blocks.has(preOf.get(b)!) ? [preOf.get(b)!, b] : [b]));
    for (const b of order) {
      const keep: Inst[] = [];
      const loadsOk = everyIteration(b);
      // A load inside a stack slot cannot fault: it may leave from any block.
      const invariantLoad = (x: Inst): boolean => x.op === 'load' && !x.volatile
        && (loadsOk ? !fixedAddress(x.args[0], defInst) : alias.inSlot(f, x.args[0], accessBytes(x.ty)))
        && writers.every((w) => !alias.mayWrite(w, x.args[0], accessBytes(x.ty)));
      for (const x of f.blocks[b].insts) {
        if (!((hoistable(x) && (!calls || costly(x))) || safeDivision(x) || invariantLoad(x)) || !x.args.every((a) => !l.blocks.has(defBlock[a]) || defInst[a]?.op === 'const')) { keep.push(x); continue; }
        // Pure code other than division cannot fault: running it speculatively is harmless.
        const args = x.args.map((a) => {
          if (!l.blocks.has(defBlock[a])) return a;
          const c = defInst[a]!;
          const r = f.nregs++;
          hoisted.push({ ...c, dst: r, args: [] });
          defBlock[r] = pre;
          return r;
        });
        x.args = args;
        hoisted.push(x);
        defBlock[x.dst] = pre;
        changed = true;
      }
      f.blocks[b].insts = keep;
    }
    if (hoisted.length) {
      const p = f.blocks[pre].insts;
      p.splice(p.length - 1, 0, ...hoisted);
    }
  }
  return changed;
}

/** Values that branches on every way into block h (from the entry, down the dominator tree) found non-zero. */
function nonZeroOnEntry(f: IrFunction, d: ReturnType<typeof dominators>, h: number, def: (Inst | undefined)[]): Set<number> {
  const known = new Set<number>();
  for (let x = h; d.idom[x] >= 0 && d.idom[x] !== x; x = d.idom[x]) {
    const p = d.idom[x], t = f.blocks[p].insts[f.blocks[p].insts.length - 1];
    if (t.op !== 'br') continue;
    // The side of the branch that leads to x: a target entered only from p that dominates x.
    if (t.targets![0] === t.targets![1]) continue;
    const side = t.targets!.map((s) => d.preds[s].length === 1 && dominates(d, s, x));
    if (side[0] === side[1]) continue;
    const taken = side[0];
    if (taken) known.add(t.args[0]);
    const c = def[t.args[0]];
    if (!c || c.args.length !== 2) continue;
    const zero = (r: number): boolean => def[r]?.op === 'const' && BigInt(def[r]!.imm!) === 0n;
    const v = zero(c.args[1]) ? c.args[0] : zero(c.args[0]) ? c.args[1] : -1;
    if (v < 0) continue;
    if ((c.op === 'ne' && taken) || (c.op === 'eq' && !taken)) known.add(v);
    if (c.op === 'ugt' && taken && v === c.args[0]) known.add(v);
    if (c.op === 'ult' && taken && v === c.args[1]) known.add(v);
  }
  return known;
}

/** Is the address a constant, or a constant plus offsets (memory-mapped registers are)? */
function fixedAddress(r: number, def: (Inst | undefined)[]): boolean {
  for (let i = 0; i < 32; i++) {
    const d = def[r];
    if (!d) return false;
    if (d.op === 'const') return true;
    if ((d.op === 'add' || d.op === 'sub' || d.op === 'copy') && d.args.length) { r = d.args[0]; continue; }
    return false;
  }
  return true;
}

/** More than one cycle on CV32E40P (and worth a register across a loop's calls). */
function costly(x: Inst): boolean {
  return x.op === 'mul' || x.op === 'udiv' || x.op === 'sdiv' || x.op === 'urem' || x.op === 'srem' || x.ty === 'i64';
}

function hoistable(x: Inst): boolean {
  if (x.dst < 0 || !isPure(x) || x.op === 'const' || x.op === 'copy') return false;
  if (x.op === 'sdiv' || x.op === 'udiv' || x.op === 'srem' || x.op === 'urem') return false;
  return !x.pragmas;
}
