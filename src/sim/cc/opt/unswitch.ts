// Loop unswitching: a loop that branches on a value computed outside it (a kernel's `is_signed`
// or `t == DPG_S8` tested on every element) is copied, and the preheader picks the copy in
// which that branch always goes one way: each copy is a straight loop (often one block, so a
// hardware loop) instead of a test per iteration. Only small innermost loops, once each, and
// only when the loop's values reach the code after it through the exit blocks' phis (so the
// copies need no new phis elsewhere).
import type { Inst, IrFunction } from '../ir';
import { dominators, findLoops, loopPreheader, type Loop } from './dom';
import { cloneInst, defBlocks, definitions, defsOf, fixPhis, predecessors, terminator } from './util';

/** Loops up to this many instructions are copied. */
const MAX_SIZE = 120;

/** At most this many loops are unswitched per function (each copy doubles a loop). */
const MAX_PER_FUNCTION = 4;

export function unswitchLoops(f: IrFunction): boolean {
  let n = 0;
  for (; n < MAX_PER_FUNCTION; n++) {
    const d = dominators(f);
    // Innermost loops; one at a time, the dominators and loops found again after each copy.
    if (!findLoops(f, d).some((l) => !l.inner.length && unswitch(f, l, d.preds))) break;
  }
  return n > 0;
}

function unswitch(f: IrFunction, l: Loop, preds: number[][]): boolean {
  if (preds[l.header].filter((p) => !l.blocks.has(p)).length !== 1) return false;
  let size = 0;
  for (const b of l.blocks) size += f.blocks[b].insts.length;
  if (size > MAX_SIZE) return false;
  const defBlock = defBlocks(f), def = definitions(f);
  const inLoop = (v: number): boolean => l.blocks.has(defBlock[v]);
  // The branch: on a value from outside, both ways different.
  let sw: { b: number; x: Inst } | undefined;
  for (const b of l.blocks) {
    const t = terminator(f.blocks[b]);
    if (t.op === 'br' && t.targets![0] !== t.targets![1] && !inLoop(t.args[0]) && def[t.args[0]]?.op !== 'const') { sw = { b, x: t }; break; }
  }
  if (!sw) return false;
  // Loop values used after the loop only by phis of exit blocks, on edges from the loop.
  for (let bi = 0; bi < f.blocks.length; bi++) {
    if (l.blocks.has(bi)) continue;
    for (const y of f.blocks[bi].insts) {
      y.args.forEach((a, k) => {
        if (!inLoop(a)) return;
        if (y.op !== 'phi' || !l.blocks.has(y.targets![k])) sw = undefined;
      });
      if (!sw) return false;
    }
  }
  const { b: swb, x: br } = sw;
  // A preheader of its own, to hold the choice (the entry is often the rotation's guard).
  const pre = loopPreheader(f, l, preds);
  const pt = terminator(f.blocks[pre]);
  // Copy the loop's blocks, renaming what they define.
  const blockMap = new Map<number, number>();
  for (const b of l.blocks) blockMap.set(b, f.blocks.length + blockMap.size);
  const regMap = new Map<number, number>();
  for (const b of l.blocks) for (const x of f.blocks[b].insts) for (const r of defsOf(x)) regMap.set(r, f.nregs++);
  const mapReg = (r: number): number => regMap.get(r) ?? r;
  const copies: { insts: Inst[] }[] = [];
  for (const b of l.blocks) {
    copies.push({
      insts: f.blocks[b].insts.map((x) => {
        const y = cloneInst(x);
        y.args = y.args.map(mapReg);
        if (y.dst >= 0) y.dst = mapReg(y.dst);
        if (y.asm) y.asm.outs = y.asm.outs.map(mapReg);
        if (y.op === 'phi') y.targets = y.targets!.map((t) => blockMap.get(t) ?? t);
        else if (y.targets) y.targets = y.targets.map((t) => blockMap.get(t) ?? t);
        if (y.pragmas) delete y.pragmas; // one copy keeps the loop's pragmas
        return y;
      }),
    });
  }
  // Exit blocks' phis: an entry for each copied edge.
  for (let bi = 0; bi < f.blocks.length; bi++) {
    if (l.blocks.has(bi)) continue;
    for (const y of f.blocks[bi].insts) {
      if (y.op !== 'phi') break;
      const n = y.targets!.length;
      for (let k = 0; k < n; k++) {
        const from = y.targets![k];
        if (!l.blocks.has(from)) continue;
        y.targets!.push(blockMap.get(from)!);
        y.args.push(mapReg(y.args[k]));
      }
    }
  }
  f.blocks.push(...copies);
  // The original takes the true side, the copy the false side; the preheader chooses.
  const [tt, ft] = br.targets!;
  const { loc, ty } = br, cond = br.args[0];
  Object.assign(br, { op: 'jmp', args: [], targets: [tt] });
  const cbr = terminator(f.blocks[blockMap.get(swb)!]);
  Object.assign(cbr, { op: 'jmp', args: [], targets: [blockMap.get(ft) ?? ft] });
  Object.assign(pt, { op: 'br', ty, args: [cond], targets: [l.header, blockMap.get(l.header)!], loc });
  fixPhis(f, predecessors(f));
  return true;
}
