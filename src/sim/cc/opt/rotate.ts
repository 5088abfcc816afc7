// Loop rotation: a loop testing its condition at the top (header: test, then body or exit) is
// turned into a guarded bottom-tested loop by copying the header into the entry path: the
// entry runs the copy (the guard) once, the original header stays as the bottom test. Each
// iteration then takes one branch instead of a branch and a jump, and code in the body that
// runs on every iteration runs at least once whenever the guard lets the loop start, so LICM
// may hoist loads out of it. SSA is kept by demotion: the header's values are put in slots for
// the copy, and mem2reg (run right after) builds the phis again.
import type { Inst, IrFunction, IrType } from '../ir';
import { dominators, findLoops } from './dom';
import { cloneInst, defsOf, terminator, vregTypes } from './util';

const MAX_HEADER = 12;
const SIZE = { i8: 1, i16: 2, i32: 4, ptr: 4, i64: 8 } as const;

/**
 * Rotates the loops it can on one look at the CFG: a loop is left for the next call when an
 * earlier rotation of this call touched its header, its header's predecessors or its blocks
 * (its loop facts are stale then). Returns how many it rotated; mem2reg must run afterwards.
 */
export function rotateLoops(f: IrFunction): number {
  const d = dominators(f);
  const loops = findLoops(f, d);
  const types = vregTypes(f);
  let n = 0;
  // Blocks whose edges or phis a rotation changed.
  const dirty = new Set<number>();
  // The blocks where each register is read (a phi reads in its own block here), kept a superset
  // as rotations add readers: each rotation then looks at its header's readers only.
  const readIn = new Map<number, number[]>();
  const noteReads = (bi: number, insts: Inst[]): void => {
    for (const x of insts) for (const r of x.args) {
      const l = readIn.get(r);
      if (!l) readIn.set(r, [bi]);
      else if (l[l.length - 1] !== bi) l.push(bi);
    }
  };
  f.blocks.forEach((b, bi) => noteReads(bi, b.insts));
  for (const l of loops) {
    const h = l.header;
    const hb = f.blocks[h];
    const t = terminator(hb);
    if (t.op !== 'br') continue;
    const [a, b] = t.targets!;
    if (l.blocks.has(a) === l.blocks.has(b)) continue; // not exiting, or both ways out
    if (l.latches.includes(h)) continue; // already bottom-tested
    if (headerSize(hb.insts) > MAX_HEADER) continue;
    if (hb.insts.some((x) => x.op === 'call' || x.op === 'asm' || x.op === 'vastart')) continue;
    const outside = [...new Set(d.preds[h].filter((p) => !l.blocks.has(p)))];
    if (!outside.length) continue;
    if (dirty.size && (dirty.has(h) || d.preds[h].some((p) => dirty.has(p)) || [...dirty].some((x) => l.blocks.has(x)))) continue;
    rotate(f, h, outside, types, readIn, noteReads);
    dirty.add(h);
    for (const p of outside) dirty.add(p);
    for (const s of t.targets!) dirty.add(s);
    n++;
  }
  return n;
}

/** Rotates the loop headed by h; `types` are the vregs' types, kept up to date for the regs it makes. */
function rotate(f: IrFunction, h: number, outside: number[], types: IrType[], readIn: Map<number, number[]>, noteReads: (bi: number, insts: Inst[]) => void): void {
  const hb = f.blocks[h];
  const inH = new Set<number>();
  for (const x of hb.insts) for (const r of defsOf(x)) inH.add(r);
  const slotFor = new Map<number, number>();
  const slot = (r: number): number => {
    let s = slotFor.get(r);
    if (s === undefined) {
      s = f.slots.length;
      f.slots.push({ size: SIZE[types[r]], align: SIZE[types[r]], name: '' });
      slotFor.set(r, s);
    }
    return s;
  };
  const loc = terminator(hb).loc;
  const addr = (s: number, into: Inst[]): number => {
    const r = f.nregs++;
    types[r] = 'ptr';
    into.push({ op: 'slot', ty: 'ptr', dst: r, args: [], imm: s, loc });
    return r;
  };
  const storeAtEnd = (bi: number, s: number, v: number): void => {
    const ins = f.blocks[bi].insts;
    const pre: Inst[] = [];
    const a = addr(s, pre);
    pre.push({ op: 'store', ty: types[v] ?? 'i32', dst: -1, args: [a, v], loc });
    noteReads(bi, pre);
    ins.splice(ins.length - 1, 0, ...pre);
  };
  // 1. The header's phis become loads of slots stored at the end of each predecessor.
  const newHead: Inst[] = [];
  for (const x of hb.insts) {
    if (x.op !== 'phi') { newHead.push(x); continue; }
    const s = slot(x.dst);
    const seen = new Set<number>();
    x.targets!.forEach((p, i) => { if (!seen.has(p)) { seen.add(p); storeAtEnd(p, s, x.args[i]); } });
    const pre: Inst[] = [];
    const a = addr(s, pre);
    newHead.splice(newHead.length, 0, ...pre, { op: 'load', ty: x.ty, dst: x.dst, args: [a], loc: x.loc, pragmas: x.pragmas, ...(x.volatile ? { volatile: true } : {}) });
  }
  hb.insts = newHead;
  // 2. Values of the header read elsewhere go through slots too: stored after their definition,
  //    loaded before each reader (a phi reads at the end of its predecessor). Phi entries for
  //    edges leaving the header itself are handled when the copy is made.
  const candidates = new Set<number>();
  for (const r of inH) for (const bi of readIn.get(r) ?? []) candidates.add(bi);
  const { regs: readOutside, blocks: readers } = usedOutside(f, h, inH, [...candidates].sort((a, b) => a - b));
  const stores: Inst[] = [];
  for (const x of hb.insts) {
    stores.push(x);
    for (const r of defsOf(x)) {
      if (!readOutside.has(r)) continue;
      const s = slot(r);
      const a = f.nregs++;
      types[a] = 'ptr';
      stores.push({ op: 'slot', ty: 'ptr', dst: a, args: [], imm: s, loc }, { op: 'store', ty: types[r], dst: -1, args: [a, r], loc });
    }
  }
  const term = stores.findIndex((x) => x === terminator(hb));
  hb.insts = [...stores.slice(0, term), ...stores.slice(term + 1), stores[term]];
  noteReads(h, hb.insts);
  for (const bi of readers) {
    const b = f.blocks[bi];
    const out: Inst[] = [];
    for (const x of b.insts) {
      if (x.op === 'phi') {
        x.args.forEach((r, i) => {
          if (!inH.has(r) || x.targets![i] === h) return;
          const p = x.targets![i];
          const pi = f.blocks[p].insts;
          const pre: Inst[] = [];
          const a = addr(slotFor.get(r)!, pre);
          const v = f.nregs++;
          types[v] = types[r];
          pre.push({ op: 'load', ty: types[r], dst: v, args: [a], loc });
          pi.splice(pi.length - 1, 0, ...pre);
          x.args[i] = v;
        });
        out.push(x);
        continue;
      }
      for (let i = 0; i < x.args.length; i++) {
        const r = x.args[i];
        if (!inH.has(r)) continue;
        const a = addr(slotFor.get(r)!, out);
        const v = f.nregs++;
        types[v] = types[r];
        out.push({ op: 'load', ty: types[r], dst: v, args: [a], loc });
        x.args[i] = v;
      }
      out.push(x);
    }
    // phis first: loads made for non-phi readers come after them already
    b.insts = out;
    noteReads(bi, out);
  }
  // 3. The copy: entered from outside; the original header is entered from the latches only.
  const g = f.blocks.length;
  const map = new Map<number, number>();
  const copy: Inst[] = hb.insts.map((x) => {
    const y = cloneInst(x);
    delete y.pragmas;
    for (const r of defsOf(x)) { types[f.nregs] = types[r]; map.set(r, f.nregs++); }
    return y;
  });
  for (const y of copy) {
    y.args = y.args.map((r) => map.get(r) ?? r);
    if (y.dst >= 0) y.dst = map.get(y.dst)!;
    if (y.asm) y.asm.outs = y.asm.outs.map((r) => map.get(r)!);
  }
  f.blocks.push({ insts: copy });
  noteReads(g, copy);
  for (const p of outside) {
    const pt = terminator(f.blocks[p]);
    pt.targets = pt.targets!.map((x) => (x === h ? g : x));
  }
  for (const s of new Set(terminator(hb).targets!)) {
    for (const x of f.blocks[s].insts) {
      if (x.op !== 'phi') break;
      const k = x.targets!.length;
      for (let i = 0; i < k; i++) if (x.targets![i] === h) { x.targets!.push(g); x.args.push(map.get(x.args[i]) ?? x.args[i]); }
      noteReads(s, [x]);
    }
  }
}

/**
 * The registers of `defs` read outside block h (a phi reads at the end of its predecessor), and
 * the blocks reading them, among `candidates` (in order).
 */
function usedOutside(f: IrFunction, h: number, defs: Set<number>, candidates: number[]): { regs: Set<number>; blocks: number[] } {
  const regs = new Set<number>();
  const blocks: number[] = [];
  for (const bi of candidates) {
    if (bi === h) continue;
    let reads = false;
    for (const x of f.blocks[bi].insts) {
      if (x.op === 'phi') { x.args.forEach((a, i) => { if (defs.has(a) && x.targets![i] !== h) { regs.add(a); reads = true; } }); }
      else for (const a of x.args) if (defs.has(a)) { regs.add(a); reads = true; }
    }
    if (reads) blocks.push(bi);
  }
  return { regs, blocks };
}

/** A header's size, not counting phis and the slot traffic of earlier rotations' demotion. */
function headerSize(insts: Inst[]): number {
  const slots = new Set<number>();
  let n = 0;
  for (const x of insts) {
    if (x.op === 'slot') { slots.add(x.dst); continue; }
    if (x.op === 'phi' || ((x.op === 'load' || x.op === 'store') && slots.has(x.args[0]))) continue;
    n++;
  }
  return n;
}
