// A remainder beside the quotient of the same operands (`u % n` and `u / n`, the usual pair
// when a flat index is split into coordinates): a - (a / b) * b, a multiply and a subtract, not a
// second division (tens of cycles on CV32E40P's divider). The quotient must dominate the
// remainder; when the remainder comes first, the quotient moves up to it (it traps exactly
// when the remainder does: same divisor).
import type { Inst, IrFunction } from '../ir';
import { dominates, dominators } from './dom';

const PAIR: Record<string, string> = { urem: 'udiv', srem: 'sdiv' };

export function pairDivRem(f: IrFunction): boolean {
  const at = new Map<Inst, [number, number]>(); // instruction -> [block, index]
  const divs = new Map<string, Inst[]>();
  const rems: Inst[] = [];
  f.blocks.forEach((b, bi) => b.insts.forEach((x, i) => {
    if (x.op === 'udiv' || x.op === 'sdiv') {
      at.set(x, [bi, i]);
      const k = `${x.op} ${x.ty} ${x.args.join(',')}`;
      (divs.get(k) ?? divs.set(k, []).get(k)!).push(x);
    } else if (x.op === 'urem' || x.op === 'srem') { at.set(x, [bi, i]); rems.push(x); }
  }));
  if (!rems.length || !divs.size) return false;
  const d = dominators(f);
  const before = (x: Inst, y: Inst): boolean => {
    const [bx, ix] = at.get(x)!, [by, iy] = at.get(y)!;
    return bx === by ? ix < iy : bx < d.idom.length && by < d.idom.length && dominates(d, bx, by);
  };
  let changed = false;
  for (const r of rems) {
    const cands = divs.get(`${PAIR[r.op]} ${r.ty} ${r.args.join(',')}`);
    if (!cands) continue;
    let q = cands.find((x) => before(x, r));
    if (!q) {
      // The remainder dominates a quotient: that quotient is computed at the remainder instead.
      q = cands.find((x) => before(r, x));
      if (!q) continue;
      const [qb] = at.get(q)!, [rb] = at.get(r)!;
      f.blocks[qb].insts.splice(f.blocks[qb].insts.indexOf(q), 1);
      f.blocks[rb].insts.splice(f.blocks[rb].insts.indexOf(r), 0, q);
      f.blocks.forEach((b, bi) => { if (bi === qb || bi === rb) b.insts.forEach((x, i) => { if (at.has(x)) at.set(x, [bi, i]); }); });
    }
    // r = a - q * b, in r's place
    const ri = f.blocks[at.get(r)![0]].insts;
    const m: Inst = { op: 'mul', ty: r.ty, dst: f.nregs++, args: [q.dst, r.args[1]], loc: r.loc };
    ri.splice(ri.indexOf(r), 0, m);
    r.op = 'sub';
    r.args = [r.args[0], m.dst];
    f.blocks.forEach((b, bi) => b.insts.forEach((x, i) => { if (at.has(x)) at.set(x, [bi, i]); }));
    changed = true;
  }
  return changed;
}
