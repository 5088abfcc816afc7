// Algebraic simplification and copy propagation, instruction by instruction until nothing
// changes: identities (x+0, x*1, x&-1, x^x...), strength reduction (x*2^k -> shl, unsigned
// x/2^k -> lshr, x%2^k -> and), constants gathered on the right and re-associated ((x+c1)+c2),
// extension chains (zext(trunc x) -> and x, mask), 0/1 compare results tested against 0, and
// branches on `x != 0`. Folding of all-constant operands is SCCP's job (sccp.ts).
import type { Inst, IrFunction, IrType, Op } from '../ir';
import { foldInst, type Val } from './fold';
import { become, constInst, isCompare, newMap, renameUses } from './util';

const COMMUTATIVE = new Set<Op>(['add', 'mul', 'and', 'or', 'xor', 'eq', 'ne']);
const INVERSE: Partial<Record<Op, Op>> = { eq: 'ne', ne: 'eq', slt: 'sge', sge: 'slt', sgt: 'sle', sle: 'sgt', ult: 'uge', uge: 'ult', ugt: 'ule', ule: 'ugt' };
const SWAPPED: Partial<Record<Op, Op>> = { eq: 'eq', ne: 'ne', slt: 'sgt', sgt: 'slt', sle: 'sge', sge: 'sle', ult: 'ugt', ugt: 'ult', ule: 'uge', uge: 'ule' };
const MASK: Partial<Record<IrType, number>> = { i8: 0xff, i16: 0xffff };

/** One pass over the function (the caller repeats while anything changes). */
export function simplify(f: IrFunction): boolean {
  return simplifyOnce(f);
}

function simplifyOnce(f: IrFunction): boolean {
  const def: (Inst | undefined)[] = [];
  for (const b of f.blocks) for (const x of b.insts) if (x.dst >= 0) def[x.dst] = x;
  const map = newMap(f);
  let changed = false;
  const cval = (r: number): Val | undefined => { const d = def[r]; return d?.op === 'const' ? d.imm : undefined; };
  const is = (r: number, v: number): boolean => { const c = cval(r); return c !== undefined && (typeof c === 'bigint' ? c === BigInt(v) : c === v); };
  const isBool = (r: number): boolean => { const d = def[r]; return !!d && (isCompare(d.op) || (d.op === 'const' && (d.imm === 0 || d.imm === 1))); };
  let out: Inst[] = [];
  let x!: Inst;
  const k = (ty: IrType, v: Val): number => {
    const c = constInst(ty, v, f.nregs++, '');
    out.push(c);
    def[c.dst] = c;
    return c.dst;
  };
  /** A new instruction placed before the current one; its result. */
  const before = (y: Omit<Inst, 'loc' | 'dst'>): number => {
    const n: Inst = { ...y, dst: f.nregs++, loc: x.loc };
    out.push(n);
    def[n.dst] = n;
    return n.dst;
  };
  const rep = (r: number): void => { map[x.dst] = r; changed = true; };
  const to = (y: Omit<Inst, 'loc' | 'dst'>): void => { become(x, { ...y, dst: x.dst }); changed = true; };
  const c = (v: number): Val => (x.ty === 'i64' ? BigInt(v) : v);
  for (const b of f.blocks) {
    out = [];
    for (x of b.insts) {
      const a = x.args;
      const ty = x.ty;
      const wide = ty === 'i64';
      for (let i = 0; i < a.length; i++) { let r = a[i]; while (map[r] >= 0) r = map[r]; a[i] = r; }
      switch (x.op) {
        case 'copy': rep(a[0]); break;
        case 'add': case 'mul': case 'and': case 'or': case 'xor': case 'eq': case 'ne':
        case 'sub': case 'shl': case 'lshr': case 'ashr': case 'udiv': case 'urem': case 'sdiv': case 'srem':
        case 'slt': case 'sle': case 'sgt': case 'sge': case 'ult': case 'ule': case 'ugt': case 'uge': {
          // constants to the right
          if (cval(a[0]) !== undefined && cval(a[1]) === undefined) {
            if (COMMUTATIVE.has(x.op)) { [a[0], a[1]] = [a[1], a[0]]; changed = true; }
            else if (SWAPPED[x.op]) { x.op = SWAPPED[x.op]!; [a[0], a[1]] = [a[1], a[0]]; changed = true; }
          }
          // p + (x + c) -> (p + x) + c: the constant becomes the access's offset (see shl below).
          if (x.op === 'add' && ty === 'ptr' && cval(a[0]) === undefined && cval(a[1]) === undefined) {
            const j = [1, 0].find((i) => { const d = def[a[i]]; return d?.op === 'add' && d.ty === 'i32' && cval(d.args[1]) !== undefined && cval(d.args[0]) === undefined; });
            if (j !== undefined) {
              const d = def[a[j]]!;
              to({ op: 'add', ty: 'ptr', args: [before({ op: 'add', ty: 'ptr', args: [a[1 - j], d.args[0]] }), d.args[1]] });
              break;
            }
          }
          const r = cval(a[1]);
          const op = x.op;
          if (r !== undefined && cval(a[0]) === undefined) {
            const rn = typeof r === 'bigint' ? r : BigInt(r);
            if (rn === 0n && (op === 'add' || op === 'sub' || op === 'or' || op === 'xor' || op === 'shl' || op === 'lshr' || op === 'ashr')) { rep(a[0]); break; }
            if (rn === 1n && (op === 'mul' || op === 'sdiv' || op === 'udiv')) { rep(a[0]); break; }
            if (rn === -1n && op === 'and') { rep(a[0]); break; }
            if (rn === 0n && (op === 'mul' || op === 'and')) { to({ op: 'const', ty, args: [], imm: c(0) }); break; }
            if ((rn === 1n) && (op === 'urem' || op === 'srem')) { to({ op: 'const', ty, args: [], imm: c(0) }); break; }
            const pow = log2(rn, wide);
            if (pow > 0 && op === 'mul') { to({ op: 'shl', ty, args: [a[0], k(ty, c(pow))] }); break; }
            if (pow > 0 && op === 'udiv') { to({ op: 'lshr', ty, args: [a[0], k(ty, c(pow))] }); break; }
            if (pow > 0 && op === 'urem') { to({ op: 'and', ty, args: [a[0], k(ty, wide ? (1n << BigInt(pow)) - 1n : (2 ** pow - 1) | 0)] }); break; }
            // x - c -> x + (-c), then (x + c1) + c2 -> x + (c1 + c2)
            if (op === 'sub' && !wide) { to({ op: 'add', ty, args: [a[0], k(ty, (-(r as number)) | 0)] }); break; }
            const inner = def[a[0]];
            if (op === 'add' && !wide && inner?.op === 'add' && cval(inner.args[1]) !== undefined && cval(inner.args[0]) === undefined) {
              const sum = ((cval(inner.args[1]) as number) + (r as number)) | 0;
              to({ op: 'add', ty, args: [inner.args[0], k(ty, sum)] });
              break;
            }
            // (x + c1) << c2 -> (x << c2) + (c1 << c2), (x + c1) * c2 -> x * c2 + c1 * c2: the
            // constant moves outwards, where an address folds it into the access's offset
            // (a[i + 1] and a[i + 2] then share a + (i << 2)).
            if ((op === 'shl' || op === 'mul') && !wide && inner?.op === 'add' && inner.ty === 'i32' && cval(inner.args[1]) !== undefined &&
                cval(inner.args[0]) === undefined && (op === 'mul' || ((r as number) >= 0 && (r as number) < 32))) {
              const c1 = cval(inner.args[1]) as number, c2 = r as number;
              const scaled = before({ op, ty, args: [inner.args[0], a[1]] });
              to({ op: 'add', ty, args: [scaled, k(ty, op === 'shl' ? (c1 << c2) | 0 : Math.imul(c1, c2))] });
              break;
            }
            // (x << a) << b -> x << (a + b) while the sum stays below the width
            if (op === 'shl' && !wide && inner?.op === 'shl' && cval(inner.args[1]) !== undefined && (cval(inner.args[1]) as number) >= 0 && (cval(inner.args[1]) as number) + (r as number) < 32 && (r as number) >= 0) {
              to({ op: 'shl', ty, args: [inner.args[0], k(ty, (cval(inner.args[1]) as number) + (r as number))] });
              break;
            }
            if ((op === 'and' || op === 'or' || op === 'xor') && inner?.op === op && cval(inner.args[1]) !== undefined && cval(inner.args[0]) === undefined) {
              const v = foldInst(x, (i) => (i === 0 ? cval(inner.args[1])! : r))!;
              to({ op, ty, args: [inner.args[0], k(ty, v)] });
              break;
            }
            // A 0/1 value: x & 1 (any odd mask) is x, x != 0 is x, x == 0 is its inverse compare.
            if (op === 'and' && !wide && ((r as number) & 1) && isBool(a[0])) { rep(a[0]); break; }
            if ((op === 'ne' || op === 'eq') && rn === 0n && ty !== 'i64' && isBool(a[0])) {
              if (op === 'ne') { rep(a[0]); break; }
              const d = def[a[0]]!;
              if (isCompare(d.op)) { to({ op: INVERSE[d.op]!, ty: d.ty, args: [...d.args] }); break; }
            }
            // zext(x) & mask-of-x's-width is zext(x)
            if (op === 'and' && !wide && inner?.op === 'zext' && MASK[inner.from!] !== undefined && ((r as number) & MASK[inner.from!]!) === MASK[inner.from!]) { rep(a[0]); break; }
          }
          if (a[0] === a[1] && !wide) {
            if (op === 'and' || op === 'or') { rep(a[0]); break; }
            if (op === 'sub' || op === 'xor') { to({ op: 'const', ty, args: [], imm: 0 }); break; }
            if (op === 'eq' || op === 'sle' || op === 'sge' || op === 'ule' || op === 'uge') { to({ op: 'const', ty: 'i32', args: [], imm: 1 }); break; }
            if (op === 'ne' || op === 'slt' || op === 'sgt' || op === 'ult' || op === 'ugt') { to({ op: 'const', ty: 'i32', args: [], imm: 0 }); break; }
          }
          break;
        }
        case 'zext': case 'sext': {
          const d = def[a[0]];
          // ext(trunc v to T) where v is 32-bit: zext -> v & mask; the same width back: v itself
          if (d?.op === 'trunc' && d.from === 'i32' && x.ty === 'i32' && x.from === d.ty && x.op === 'zext') {
            to({ op: 'and', ty: 'i32', args: [d.args[0], k('i32', MASK[d.ty]!)] });
            break;
          }
          // ext(ext y): one extension from y's width when the kinds agree (or the inner is zext)
          if ((d?.op === 'zext' || d?.op === 'sext') && (d.op === x.op || d.op === 'zext')) {
            to({ op: d.op, ty: x.ty, from: d.from, args: [d.args[0]] });
            break;
          }
          // i8/i16 -> i32 of a 0/1 truncated value
          if (d?.op === 'trunc' && isBool(d.args[0]) && x.ty === 'i32') { rep(d.args[0]); break; }
          break;
        }
        case 'trunc': {
          const d = def[a[0]];
          // trunc(ext y) back to y's width: y (its upper bits were undefined anyway)
          if ((d?.op === 'zext' || d?.op === 'sext') && d.from === x.ty) { rep(d.args[0]); break; }
          // trunc(v & mask) to the mask's width: trunc v
          if (d?.op === 'and' && d.ty !== 'i64' && MASK[x.ty] !== undefined && cval(d.args[1]) !== undefined && ((cval(d.args[1]) as number) & MASK[x.ty]!) === MASK[x.ty]) {
            a[0] = d.args[0];
            changed = true;
          }
          break;
        }
        case 'br': {
          const d = def[a[0]];
          // br (x != 0) -> br x; br (x == 0) -> br x with the arms swapped
          if (d && (d.op === 'ne' || d.op === 'eq') && d.ty !== 'i64' && is(d.args[1], 0)) {
            a[0] = d.args[0];
            if (d.op === 'eq') x.targets = [x.targets![1], x.targets![0]];
            x.ty = d.ty;
            changed = true;
          } else if (d?.op === 'zext' && d.from === 'i8' && isBool(def[d.args[0]]?.op === 'trunc' ? def[d.args[0]]!.args[0] : -1)) {
            a[0] = def[d.args[0]]!.args[0];
            x.ty = 'i32';
            changed = true;
          }
          break;
        }
      }
      out.push(x);
    }
    b.insts = out;
  }
  // New constants were put before their users; phis must stay first.
  for (const b of f.blocks) {
    const firstNonPhi = b.insts.findIndex((x) => x.op !== 'phi');
    if (firstNonPhi > 0 && b.insts.slice(firstNonPhi).some((x) => x.op === 'phi')) {
      b.insts = [...b.insts.filter((x) => x.op === 'phi'), ...b.insts.filter((x) => x.op !== 'phi')];
    }
  }
  renameUses(f, map);
  return changed;
}

/** k if v is 2^k (k >= 1) within the type's width, else -1. */
function log2(v: bigint, wide: boolean): number {
  const u = BigInt.asUintN(wide ? 64 : 32, v);
  if (u < 2n || (u & (u - 1n)) !== 0n) return -1;
  return u.toString(2).length - 1;
}
