// Dead code elimination, mark and sweep: an instruction lives if it has an effect (stores,
// calls, memcpy/memset, control flow, asm that is volatile, clobbers memory or has no outputs)
// or something living reads it. Cycles of dead phis go too. A dead load goes unless it is
// volatile or reads a constant address (a memory-mapped register).
import type { Inst, IrFunction } from '../ir';
import { definitions, filterInsts, hasSideEffects } from './util';

export function dce(f: IrFunction): boolean {
  const def = definitions(f);
  const asmOf: (Inst | undefined)[] = [];
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'asm') for (const o of x.asm!.outs) asmOf[o] = x;
  // Live vregs, marked from the roots' operands; an instruction lives if it is a root or one
  // of the vregs it defines lives.
  const live = new Uint8Array(f.nregs);
  const work: number[] = [];
  const root = (x: Inst): boolean => hasSideEffects(x) || (x.op === 'load' && !removableLoad(x, def));
  const markArgs = (x: Inst): void => { for (const a of x.args) if (!live[a]) { live[a] = 1; work.push(a); } };
  for (const b of f.blocks) for (const x of b.insts) if (root(x)) markArgs(x);
  while (work.length) {
    const r = work.pop()!;
    const x = def[r] ?? asmOf[r];
    if (x) markArgs(x);
  }
  const keep = (x: Inst): boolean => {
    if (x.op === 'asm') return root(x) || x.asm!.outs.some((o) => live[o]);
    return x.dst >= 0 ? !!live[x.dst] || root(x) : true;
  };
  let changed = false;
  for (const b of f.blocks) {
    const n = b.insts.length;
    filterInsts(b, keep);
    if (b.insts.length !== n) changed = true;
  }
  return changed;
}

/**
 * A dead load may go unless it is volatile or its address is a constant (plus constant
 * offsets): a memory-mapped register, which the HAL may read for its effect (the event unit's
 * sleep) through a plain pointer. Anything else read and not used is only a cost.
 */
function removableLoad(x: Inst, def: (Inst | undefined)[]): boolean {
  if (x.volatile) return false;
  let a = def[x.args[0]];
  for (let i = 0; a && i < 64; i++) {
    if (a.op === 'const') return false;
    if (a.op === 'copy' || ((a.op === 'add' || a.op === 'sub') && def[a.args[1]]?.op === 'const')) { a = def[a.args[0]]; continue; }
    if (a.op === 'add' && def[a.args[0]]?.op === 'const') { a = def[a.args[1]]; continue; }
    return true;
  }
  return true;
}

/** Drops slots no instruction addresses any more and renumbers the rest (smaller frames). */
export function compactSlots(f: IrFunction): boolean {
  const used = new Uint8Array(f.slots.length);
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'slot') used[x.imm as number] = 1;
  if (used.every((u) => u)) return false;
  const renum = new Int32Array(f.slots.length).fill(-1);
  const slots: IrFunction['slots'] = [];
  f.slots.forEach((s, i) => { if (used[i]) { renum[i] = slots.length; slots.push(s); } });
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'slot') x.imm = renum[x.imm as number];
  f.slots = slots;
  return true;
}
