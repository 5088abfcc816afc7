// mem2reg: slots whose address never escapes (every use of it is the address of a load or a
// store, all of one size) become SSA values: phis at the iterated dominance frontiers of the
// stores, then a walk of the dominator tree renames loads to the value reaching them. A load
// before any store reads an undefined value: zero. i8/i16 values keep the IR's rule (upper bits
// undefined, every reader extends or stores them); where a load's result has another reader
// (an asm input, a call argument), it is re-normalised as a load would give it (zero-extended).
import type { Inst, IrFunction, IrType } from '../ir';
import { dominators, frontiers } from './dom';
import { constInst, filterInsts, newMap, removeUnreachable, renameUses } from './util';

const SIZE: Record<IrType, number> = { i8: 1, i16: 2, i32: 4, ptr: 4, i64: 8 };

/** Promotes what it can; returns the number of slots promoted. */
export function mem2reg(f: IrFunction): number {
  const nslots = f.slots.length;
  if (!nslots) return 0;
  // Which slot each address vreg names, and whether each slot stays promotable.
  const slotOf = new Int32Array(f.nregs).fill(-1);
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'slot') slotOf[x.dst] = x.imm as number;
  const ok = new Uint8Array(nslots).fill(1);
  const ty: (IrType | undefined)[] = new Array(nslots);
  let any = false;
  for (const b of f.blocks) for (const x of b.insts) {
    for (let i = 0; i < x.args.length; i++) {
      const s = slotOf[x.args[i]];
      if (s < 0) continue;
      any = true;
      if ((x.op === 'load' || x.op === 'store') && i === 0) {
        const t = ty[s];
        if (t === undefined) ty[s] = x.ty;
        else if (SIZE[t] !== SIZE[x.ty]) ok[s] = 0;
        else if (t !== x.ty && t !== 'ptr') ty[s] = x.ty; // i32 and ptr share bits; i32 wins
      } else ok[s] = 0;
    }
  }
  if (!any) return 0;
  const promoted: number[] = [];
  for (let s = 0; s < nslots; s++) if (ok[s] && ty[s] !== undefined) promoted.push(s);
  // Slots only ever addressed but never accessed are left to DCE.
  if (!promoted.length) return 0;
  removeUnreachable(f);
  const idx = new Int32Array(nslots).fill(-1);
  promoted.forEach((s, i) => { idx[s] = i; });
  const d = dominators(f);
  const df = frontiers(d);
  // Phis at the iterated dominance frontier of each promoted slot's stores.
  const phiSlot = new Map<Inst, number>();
  const newPhis: Inst[][] = f.blocks.map(() => []);
  const defBlocks: Set<number>[] = promoted.map(() => new Set());
  const hasLoad: Set<number>[] = promoted.map(() => new Set());
  f.blocks.forEach((b, bi) => {
    for (const x of b.insts) {
      if ((x.op === 'store' || x.op === 'load') && slotOf[x.args[0]] >= 0 && idx[slotOf[x.args[0]]] >= 0) {
        (x.op === 'store' ? defBlocks : hasLoad)[idx[slotOf[x.args[0]]]].add(bi);
      }
    }
  });
  promoted.forEach((s, i) => {
    if (!hasLoad[i].size) return; // never read: the stores just go
    const placed = new Set<number>();
    const work = [...defBlocks[i]];
    while (work.length) {
      const b = work.pop()!;
      for (const y of df[b]) {
        if (placed.has(y)) continue;
        placed.add(y);
        const phi: Inst = { op: 'phi', ty: ty[s]!, dst: f.nregs++, args: d.preds[y].map(() => -1), targets: [...d.preds[y]], loc: f.blocks[y].insts[0].loc };
        phiSlot.set(phi, i);
        newPhis[y].push(phi);
        if (!defBlocks[i].has(y)) work.push(y);
      }
    }
  });
  const repl: number[] = [];
  const resolve = (r: number): number => { let v = r; while (repl[v] !== undefined) v = repl[v]; return v; };
  // Undefined initial values: one zero per promoted slot, made on demand in the entry block.
  const zeros: number[] = new Array(promoted.length).fill(-1);
  const entryConsts: Inst[] = [];
  const zero = (i: number): number => {
    if (zeros[i] < 0) {
      zeros[i] = f.nregs++;
      entryConsts.push(constInst(ty[promoted[i]]!, 0, zeros[i], f.loc));
    }
    return zeros[i];
  };
  const narrowReaders = new Set<number>();
  // Rename in a preorder walk of the dominator tree (iterative: unrolled code makes deep trees);
  // each slot's current value is restored when the walk leaves a block's subtree.
  const cur: number[] = new Array(promoted.length).fill(-1);
  const dead = new Set<Inst>();
  const stack: { b: number; saved?: number[] }[] = [{ b: 0 }];
  while (stack.length) {
    const top = stack.pop()!;
    if (top.saved) { for (let i = 0; i < cur.length; i++) cur[i] = top.saved[i]; continue; }
    const bi = top.b;
    stack.push({ b: bi, saved: [...cur] });
    for (const phi of newPhis[bi]) cur[phiSlot.get(phi)!] = phi.dst;
    const insts = f.blocks[bi].insts;
    for (const x of insts) {
      if (x.op !== 'load' && x.op !== 'store') continue;
      const s = slotOf[x.args[0]];
      if (s < 0 || idx[s] < 0) continue;
      const i = idx[s];
      if (x.op === 'store') cur[i] = resolve(x.args[1]);
      else {
        repl[x.dst] = cur[i] >= 0 ? cur[i] : zero(i);
        if (ty[s] === 'i8' || ty[s] === 'i16') narrowReaders.add(x.dst);
      }
      dead.add(x);
    }
    for (const succ of new Set(insts[insts.length - 1].targets ?? [])) {
      for (const phi of newPhis[succ]) {
        const i = phiSlot.get(phi)!;
        phi.targets!.forEach((p, k) => { if (p === bi) phi.args[k] = cur[i] >= 0 ? cur[i] : zero(i); });
      }
    }
    for (let c = d.children[bi].length - 1; c >= 0; c--) stack.push({ b: d.children[bi][c] });
  }
  // A load of an i8/i16 slot read by something other than an extension, a truncation, a store
  // or a phi gets the zero-extended byte it would have loaded.
  const normalise = new Set<number>();
  if (narrowReaders.size) {
    for (const b of f.blocks) for (const x of b.insts) {
      if (dead.has(x)) continue;
      if (x.op === 'sext' || x.op === 'zext' || x.op === 'trunc' || x.op === 'phi' || (x.op === 'store' && x.args[0] !== x.args[1])) continue;
      for (const a of x.args) if (narrowReaders.has(a)) normalise.add(a);
    }
  }
  // Apply: promoted accesses go; loads that need it are re-normalised in place.
  const normValue = new Map<number, number>();
  for (const r of normalise) { normValue.set(r, resolve(r)); delete repl[r]; }
  f.blocks.forEach((b, bi) => {
    const out: Inst[] = [...newPhis[bi]];
    for (const x of b.insts) {
      if (x.op === 'load' && normalise.has(x.dst)) {
        const w = f.nregs++;
        out.push({ op: 'zext', ty: 'i32', from: x.ty, dst: w, args: [normValue.get(x.dst)!], loc: x.loc, pragmas: x.pragmas });
        out.push({ op: 'trunc', ty: x.ty, from: 'i32', dst: x.dst, args: [w], loc: x.loc });
      } else out.push(x);
    }
    b.insts = out;
    filterInsts(b, (x) => !dead.has(x));
  });
  f.blocks[0].insts.unshift(...entryConsts);
  const m = newMap(f);
  for (const k in repl) m[Number(k)] = resolve(Number(k));
  renameUses(f, m);
  return promoted.length;
}
