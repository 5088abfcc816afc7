// Loop-invariant code motion: pure computations of a loop whose operands are all defined
// outside it (or are themselves hoisted) move to the loop's preheader, which is made when the
// loop's single entry edge comes from a block with other successors. Divisions stay (they may
// trap on a path that never ran them), loads leave only when nothing in the loop may write what
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
    // Loads may leave a loop when nothing in it may write what they read (no store, call,
    // memcpy/memset, or asm with effects that could reach it), from a block every iteration
    // runs before it can leave (so the load ran anyway whenever the loop was entered), unless
    // its address could be a device register.
    const writers: Inst[] = [];
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
        if (!(hoistable(x) || invariantLoad(x)) || !x.args.every((a) => !l.blocks.has(defBlock[a]) || defInst[a]?.op === 'const')) { keep.push(x); continue; }
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

function hoistable(x: Inst): boolean {
  if (x.dst < 0 || !isPure(x) || x.op === 'const' || x.op === 'copy') return false;
  if (x.op === 'sdiv' || x.op === 'udiv' || x.op === 'srem' || x.op === 'urem') return false;
  return !x.pragmas;
}
