// Strength reduction of addresses on induction variables. In a loop with one latch, a header phi
// i = [init, i + s] (s a constant) is an induction variable; an address P + (k*i + c) with P
// outside the loop and k, c constants (built from i by +, -, <<, * of constants: tab[255 - p]
// of int16 is P + (510 - 2p); or k*i times a stride from outside the loop) becomes a pointer of its own, q = [P + k*init + c, q + k*s]: one
// add per iteration instead of the scaling and the add, and an access off q followed by q's
// step is a post-increment one (isel). Addresses with the same P, i and k share one pointer,
// their different c an offset each. Plain P + i (k = 1, c = 0) stays when only loads and stores
// read it: a register+register access costs nothing more (inline asm operands get the pointer). The arithmetic is modulo 2^32 either way, so the addresses are the
// same bit for bit.
import type { Inst, IrFunction } from '../ir';
import { dominators, findLoops, type Loop } from './dom';
import { become, constInst, defBlocks, definitions, terminator } from './util';

/** k*i + c, times `sym` (a loop-invariant value: a run-time stride) when it is set, before c. */
interface Affine { iv: number; k: number; c: number; sym?: number }

export function strengthReduce(f: IrFunction): boolean {
  const d = dominators(f);
  const loops = findLoops(f, d);
  let changed = false;
  for (const l of loops) if (reduceLoop(f, l, d.preds)) changed = true;
  return changed;
}

function reduceLoop(f: IrFunction, l: Loop, preds: number[][]): boolean {
  if (l.latches.length !== 1) return false;
  const latch = l.latches[0];
  const outside = preds[l.header].filter((p) => !l.blocks.has(p));
  if (outside.length !== 1) return false;
  const pre = outside[0];
  const def = definitions(f);
  const defBlock = defBlocks(f);
  const cval = (r: number): number | undefined => { const x = def[r]; return x?.op === 'const' && x.ty !== 'i64' ? (x.imm as number) : undefined; };
  // Induction variables: phi -> [init, step].
  const ivs = new Map<number, { init: number; step: number }>();
  for (const x of f.blocks[l.header].insts) {
    if (x.op !== 'phi') break;
    if (x.ty !== 'i32' || x.targets!.length !== 2) continue;
    const ip = x.targets!.indexOf(pre), il = x.targets!.indexOf(latch);
    if (ip < 0 || il < 0) continue;
    const n = def[x.args[il]];
    const s = n && n.op === 'add' && n.ty === 'i32' && n.args[0] === x.dst ? cval(n.args[1]) : undefined;
    if (s !== undefined) ivs.set(x.dst, { init: x.args[ip], step: s });
  }
  if (!ivs.size) return false;
  const inLoop = (r: number): boolean => l.blocks.has(defBlock[r]);
  const affine = (r: number, depth = 0): Affine | undefined => {
    if (ivs.has(r)) return { iv: r, k: 1, c: 0 };
    const x = def[r];
    if (!x || depth > 6 || x.ty !== 'i32' || !inLoop(r)) return undefined;
    const [a, b] = x.args;
    const ca = a === undefined ? undefined : cval(a), cb = b === undefined ? undefined : cval(b);
    let t: Affine | undefined;
    switch (x.op) {
      case 'add': if (cb !== undefined && (t = affine(a, depth + 1))) return { ...t, c: (t.c + cb) | 0 }; break;
      case 'sub':
        if (cb !== undefined && (t = affine(a, depth + 1))) return { ...t, c: (t.c - cb) | 0 };
        if (ca !== undefined && (t = affine(b, depth + 1))) return { ...t, k: -t.k | 0, c: (ca - t.c) | 0 };
        break;
      case 'shl': if (cb !== undefined && cb >= 0 && cb < 32 && (t = affine(a, depth + 1))) return { ...t, k: Math.imul(t.k, 2 ** cb), c: Math.imul(t.c, 2 ** cb) }; break;
      case 'mul':
        if (cb !== undefined && (t = affine(a, depth + 1))) return { ...t, k: Math.imul(t.k, cb), c: Math.imul(t.c, cb) };
        // i * stride, the stride a value from outside the loop: q steps by stride * s.
        for (const [u, w] of [[a, b], [b, a]]) {
          if (w === undefined || inLoop(w) || cval(w) !== undefined || def[w]?.ty === 'i64') continue;
          if ((t = affine(u, depth + 1)) && t.c === 0 && t.sym === undefined) return { ...t, sym: w };
        }
        break;
    }
    return undefined;
  };
  // P + i read only by loads and stores as their address: a register+register access already.
  let users: Map<number, Inst[]> | undefined;
  const onlyAddresses = (v: number): boolean => {
    if (!users) {
      users = new Map();
      for (const blk of f.blocks) for (const y of blk.insts) for (const r of y.args) { const l = users.get(r); if (l) l.push(y); else users.set(r, [y]); }
    }
    return (users.get(v) ?? []).every((y) => (y.op === 'load' || y.op === 'store') && y.args[0] === v && (y.op === 'load' || y.args[1] !== v));
  };
  // The addresses to reduce, grouped by (P, i, k).
  const groups = new Map<string, { base: number; a: Affine; uses: { x: Inst; c: number }[] }>();
  for (const b of l.blocks) {
    for (const x of f.blocks[b].insts) {
      if (x.op !== 'add' || x.ty !== 'ptr') continue;
      for (const j of [0, 1]) {
        const p = x.args[1 - j];
        if (inLoop(p) || def[p]?.op === 'const') continue;
        const a = affine(x.args[j]);
        if (!a || a.k === 0 || (a.k === 1 && a.c === 0 && a.sym === undefined && onlyAddresses(x.dst))) continue;
        const key = `${p}:${a.iv}:${a.k}:${a.sym ?? ''}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { base: p, a, uses: [] }));
        g.uses.push({ x, c: a.c });
        break;
      }
    }
  }
  if (!groups.size) return false;
  const preInsts: Inst[] = [], phis: Inst[] = [], latchInsts: Inst[] = [];
  const before = new Map<Inst, Inst[]>();
  const k32 = (v: number, loc: string, into: Inst[]): number => { const c = constInst('i32', v | 0, f.nregs++, loc); into.push(c); return c.dst; };
  for (const g of groups.values()) {
    const { init, step } = ivs.get(g.a.iv)!;
    const loc = g.uses[0].x.loc;
    const c0 = g.uses[0].c;
    // q0 = P + (k*init + c0), in the preheader.
    let scaled = f.nregs++;
    const off = f.nregs++, q0 = f.nregs++;
    preInsts.push({ op: 'mul', ty: 'i32', dst: scaled, args: [init, k32(g.a.k, loc, preInsts)], loc });
    let stride: number;
    if (g.a.sym !== undefined) {
      const t = f.nregs++;
      preInsts.push({ op: 'mul', ty: 'i32', dst: t, args: [scaled, g.a.sym], loc });
      scaled = t;
      stride = f.nregs++;
      preInsts.push({ op: 'mul', ty: 'i32', dst: stride, args: [g.a.sym, k32(Math.imul(g.a.k, step), loc, preInsts)], loc });
    } else stride = k32(Math.imul(g.a.k, step), loc, latchInsts);
    preInsts.push({ op: 'add', ty: 'i32', dst: off, args: [scaled, k32(c0, loc, preInsts)], loc });
    preInsts.push({ op: 'add', ty: 'ptr', dst: q0, args: [g.base, off], loc });
    const q = f.nregs++, qn = f.nregs++;
    phis.push({ op: 'phi', ty: 'ptr', dst: q, args: [q0, qn], targets: [pre, latch], loc });
    latchInsts.push({ op: 'add', ty: 'ptr', dst: qn, args: [q, stride], loc });
    for (const u of g.uses) {
      const pre: Inst[] = [];
      become(u.x, { op: 'add', ty: 'ptr', dst: u.x.dst, args: [q, k32(u.c - c0, u.x.loc, pre)] });
      before.set(u.x, pre);
    }
  }
  const pb = f.blocks[pre].insts;
  pb.splice(pb.indexOf(terminator(f.blocks[pre])), 0, ...preInsts);
  f.blocks[l.header].insts.unshift(...phis);
  for (const b of l.blocks) {
    const insts: Inst[] = [];
    for (const x of f.blocks[b].insts) {
      const pre = before.get(x);
      if (pre) insts.push(...pre);
      if (b === latch && x === terminator(f.blocks[b])) insts.push(...latchInsts);
      insts.push(x);
    }
    f.blocks[b].insts = insts;
  }
  return true;
}
