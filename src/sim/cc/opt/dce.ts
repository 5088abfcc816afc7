// Dead code elimination, mark and sweep: an instruction lives if it has an effect (stores,
// calls, memcpy/memset, control flow, asm that is volatile, clobbers memory or has no outputs)
// or something living reads it. Cycles of dead phis go too. A dead load goes only when its
// address is a slot or a global's: the IR does not mark volatile accesses, and those are always
// to fixed addresses (memory-mapped registers).
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

/** A load from a slot or a global (through constant offsets and copies): no device register. */
function removableLoad(x: Inst, def: (Inst | undefined)[]): boolean {
  if (x.volatile) return false;
  let a = def[x.args[0]];
  for (let i = 0; a && i < 64; i++) {
    if (a.op === 'slot' || a.op === 'addr') return true;
    if (a.op === 'copy') { a = def[a.args[0]]; continue; }
    if (a.op === 'add' || a.op === 'sub') {
      // base + offset: follow the operand that is not a constant (either may be the base)
      const l = def[a.args[0]], r = def[a.args[1]];
      if (r?.op === 'const' || a.op === 'sub') { a = l; continue; }
      if (l?.op === 'const') { a = r; continue; }
      // base + variable index: the base is the pointer-typed side when one is
      a = l?.ty === 'ptr' ? l : r?.ty === 'ptr' ? r : undefined;
      continue;
    }
    return false;
  }
  return false;
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
