// SROA (scalar replacement of aggregates): a slot whose address only reaches loads, stores,
// memsets and memcpys at constant offsets (through additions of constants) is split into one
// slot per scalar accessed, which mem2reg then promotes. Accesses must not partly overlap; a
// memset of constants becomes stores to the pieces inside it; a memcpy to or from the slot
// becomes loads and stores of the pieces (copying out of the slot, they must tile the bytes).
import type { Inst, IrFunction, IrType } from '../ir';
import { constInst, definitions } from './util';

const SIZE: Record<IrType, number> = { i8: 1, i16: 2, i32: 4, ptr: 4, i64: 8 };

interface Use { x: Inst; block: number; off: number; arg: number }
interface Piece { off: number; size: number; ty: IrType; slot: number }

/** Splits what it can; returns the number of slots split. */
export function sroa(f: IrFunction): number {
  if (!f.slots.length) return 0;
  const def = definitions(f);
  const constOf = (r: number): number | undefined => {
    const d = def[r];
    return d?.op === 'const' && typeof d.imm === 'number' ? d.imm : undefined;
  };
  const users: Map<number, { x: Inst; block: number; i: number }[]> = new Map();
  const slotRoots: number[][] = f.slots.map(() => []);
  f.blocks.forEach((b, bi) => {
    for (const x of b.insts) {
      if (x.op === 'slot') slotRoots[x.imm as number].push(x.dst);
      x.args.forEach((a, i) => {
        let l = users.get(a);
        if (!l) users.set(a, (l = []));
        l.push({ x, block: bi, i });
      });
    }
  });
  let split = 0;
  const nslots = f.slots.length;
  // memcpys already rewritten for another slot this round: the next round sees their new form.
  const rewritten = new Set<Inst>();
  for (let s = 0; s < nslots; s++) {
    const slotSize = f.slots[s].size;
    const uses: Use[] = [];
    let ok = slotRoots[s].length > 0;
    const work: [number, number][] = slotRoots[s].map((r) => [r, 0]);
    while (ok && work.length) {
      const [r, off] = work.pop()!;
      for (const u of users.get(r) ?? []) {
        const x = u.x;
        if ((x.op === 'load' || x.op === 'store') && u.i === 0) {
          if (off < 0 || off + SIZE[x.ty] > slotSize) { ok = false; break; }
          uses.push({ x, block: u.block, off, arg: 0 });
        } else if ((x.op === 'add' || x.op === 'sub') && (x.ty === 'ptr' || x.ty === 'i32')) {
          const c = constOf(x.args[1 - u.i]);
          if (c === undefined || (x.op === 'sub' && u.i !== 0)) { ok = false; break; }
          work.push([x.dst, x.op === 'add' ? off + c : off - c]);
        } else if (x.op === 'copy') work.push([x.dst, off]);
        else if ((x.op === 'memset' && u.i === 0) || (x.op === 'memcpy' && u.i < 2 && x.args[0] !== x.args[1])) {
          const n = constOf(x.args[2]);
          if (n === undefined || off < 0 || off + n > slotSize || (x.op === 'memset' && constOf(x.args[1]) === undefined)) { ok = false; break; }
          if (uses.some((v) => v.x === x)) { ok = false; break; } // memcpy within the slot
          uses.push({ x, block: u.block, off, arg: u.i });
        } else { ok = false; break; }
      }
    }
    if (!ok || !uses.length || uses.some((u) => rewritten.has(u.x))) continue;
    // The pieces: distinct (offset, size) of the loads and stores, none overlapping another.
    const byOff = new Map<number, Piece>();
    for (const u of uses) {
      if (u.x.op !== 'load' && u.x.op !== 'store') continue;
      const size = SIZE[u.x.ty];
      const p = byOff.get(u.off);
      if (!p) byOff.set(u.off, { off: u.off, size, ty: u.x.ty, slot: -1 });
      else if (p.size !== size) { ok = false; break; }
      else if (p.ty !== u.x.ty && p.ty === 'ptr') p.ty = u.x.ty;
    }
    if (!ok) continue;
    const pieces = [...byOff.values()].sort((a, b) => a.off - b.off);
    for (let i = 1; i < pieces.length; i++) if (pieces[i - 1].off + pieces[i - 1].size > pieces[i].off) ok = false;
    if (!ok) continue;
    const hasBlock = uses.some((u) => u.x.op === 'memset' || u.x.op === 'memcpy');
    // One piece covering the whole slot without memset/memcpy: mem2reg's case already.
    if (!hasBlock && pieces.length === 1 && pieces[0].off === 0 && pieces[0].size === slotSize) continue;
    // Block operations: a memset's range holds whole pieces; a memcpy's range is tiled exactly.
    for (const u of uses) {
      if (u.x.op !== 'memset' && u.x.op !== 'memcpy') continue;
      const lo = u.off, hi = u.off + constOf(u.x.args[2])!;
      let at = lo;
      for (const p of pieces) {
        const end = p.off + p.size;
        if (end <= lo || p.off >= hi) continue;
        if (p.off < lo || end > hi) { ok = false; break; }
        if (u.x.op === 'memcpy' && u.arg === 1 && p.off !== at) { ok = false; break; }
        at = end;
      }
      // Copied out of the slot: every byte must be some piece's. Into it: bytes no piece holds
      // are never read.
      if (u.x.op === 'memcpy' && u.arg === 1 && at !== hi) ok = false;
      if (!ok) break;
    }
    if (!ok) continue;
    for (const p of pieces) {
      p.slot = f.slots.length;
      f.slots.push({ size: p.size, align: Math.min(SIZE[p.ty], Math.max(1, f.slots[s].align)), name: f.slots[s].name ? `${f.slots[s].name}+${p.off}` : '' });
    }
    rewrite(f, uses, pieces, constOf);
    for (const u of uses) if (u.x.op === 'memcpy') rewritten.add(u.x);
    split++;
  }
  return split;
}

function rewrite(f: IrFunction, uses: Use[], pieces: Piece[], constOf: (r: number) => number | undefined): void {
  const before = new Map<Inst, Inst[]>();
  const replace = new Map<Inst, Inst[]>();
  const slotAddr = (p: Piece, loc: string, into: Inst[]): number => {
    const r = f.nregs++;
    into.push({ op: 'slot', ty: 'ptr', dst: r, args: [], imm: p.slot, loc });
    return r;
  };
  for (const u of uses) {
    const x = u.x;
    if (x.op === 'load' || x.op === 'store') {
      const p = pieces.find((q) => q.off === u.off)!;
      const pre: Inst[] = [];
      x.args[0] = slotAddr(p, x.loc, pre);
      before.set(x, pre);
      continue;
    }
    const lo = u.off, hi = u.off + constOf(x.args[2])!;
    const inside = pieces.filter((p) => p.off >= lo && p.off + p.size <= hi);
    const out: Inst[] = [];
    if (x.op === 'memset') {
      const byte = constOf(x.args[1])! & 0xff;
      for (const p of inside) {
        const v = f.nregs++;
        out.push(constInst(p.ty, splat(byte, p.size), v, x.loc));
        out.push({ op: 'store', ty: p.ty, dst: -1, args: [slotAddr(p, x.loc, out), v], loc: x.loc });
      }
    } else {
      // memcpy: which side is this slot? (args[0] destination, args[1] source)
      const toSlot = u.arg === 0;
      const other = x.args[toSlot ? 1 : 0];
      for (const p of inside) {
        const k = f.nregs++;
        out.push(constInst('ptr', p.off - lo, k, x.loc));
        const addr = f.nregs++;
        out.push({ op: 'add', ty: 'ptr', dst: addr, args: [other, k], loc: x.loc });
        const v = f.nregs++;
        const mine = slotAddr(p, x.loc, out);
        out.push({ op: 'load', ty: p.ty, dst: v, args: [toSlot ? addr : mine], loc: x.loc });
        out.push({ op: 'store', ty: p.ty, dst: -1, args: [toSlot ? mine : addr, v], loc: x.loc });
      }
    }
    replace.set(x, out);
  }
  for (const b of f.blocks) {
    if (!b.insts.some((x) => before.has(x) || replace.has(x))) continue;
    const out: Inst[] = [];
    for (const x of b.insts) {
      const pre = before.get(x);
      if (pre) out.push(...pre);
      const rep = replace.get(x);
      if (rep) {
        if (x.pragmas) { if (rep.length) rep[0].pragmas = x.pragmas; }
        out.push(...rep);
      } else out.push(x);
    }
    b.insts = out;
  }
}

function splat(byte: number, size: number): number | bigint {
  if (size === 8) return BigInt.asIntN(64, BigInt(byte) * 0x0101010101010101n);
  let v = 0;
  for (let i = 0; i < size; i++) v = (v << 8) | byte;
  return v | 0;
}
