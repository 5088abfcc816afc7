// Common subexpression elimination over the dominator tree: a pure instruction computing what
// one dominating it already computed (same op, type, operands; operands sorted for commutative
// ops) is replaced by that one. Constants are only merged within a block, so they stay next to
// their uses (cheap to rematerialise; merged across blocks they would only lengthen live ranges).
// Loads are never merged (memory may change between them). An operand that is a constant keys
// as its value, so `x + 4` is found again past a block holding its own copy of 4. Merging
// constants, slot or global addresses alone is not a change worth another round of the scalar
// passes (SCCP and the simplifier read them by value, not by register).
import type { Inst, IrFunction, Op } from '../ir';
import { dominators } from './dom';
import { isPure, newMap, renameUses } from './util';

const COMMUTATIVE = new Set<Op>(['add', 'mul', 'and', 'or', 'xor', 'eq', 'ne', 'vadd', 'veq', 'vne']);
/** Leaves: merging them is bookkeeping, not a change that opens work for the other passes. */
const ADDRESSES = new Set<Op>(['const', 'slot', 'addr']);

function key(x: Inst, consts: Map<number, string>): string {
  let a: (number | string)[] = x.args.map((r) => consts.get(r) ?? r);
  if (COMMUTATIVE.has(x.op) && String(a[0]) > String(a[1])) a = [a[1], a[0]];
  return `${x.op} ${x.ty} ${x.from ?? ''} ${x.imm ?? ''} ${x.sym ?? ''} ${x.lane ?? ''} ${a.join(',')}`;
}

export function gvn(f: IrFunction): boolean {
  const d = dominators(f);
  const map = newMap(f);
  const table = new Map<string, number>();
  const consts = new Map<number, string>();
  for (const b of f.blocks) for (const x of b.insts) if (x.op === 'const' && x.dst >= 0) consts.set(x.dst, `#${x.ty}:${x.imm}`);
  let changed = false, merged = false;
  const resolve = (r: number): number => { while (map[r] >= 0) r = map[r]; return r; };
  const stack: { b: number; undo?: string[] }[] = [{ b: 0 }];
  while (stack.length) {
    const top = stack.pop()!;
    if (top.undo) { for (const k of top.undo) table.delete(k); continue; }
    const undo: string[] = [];
    const local = new Map<string, number>();
    for (const x of f.blocks[top.b].insts) {
      for (let i = 0; i < x.args.length; i++) x.args[i] = resolve(x.args[i]);
      if (x.dst < 0 || !isPure(x) || x.op === 'copy') continue;
      const k = key(x, consts);
      const scope = x.op === 'const' ? local : table;
      const prev = scope.get(k);
      if (prev !== undefined) { map[x.dst] = prev; merged = true; if (!ADDRESSES.has(x.op)) changed = true; continue; }
      scope.set(k, x.dst);
      if (scope === table) undo.push(k);
    }
    stack.push({ b: top.b, undo });
    for (const c of d.children[top.b]) stack.push({ b: c });
  }
  if (merged) renameUses(f, map);
  return changed;
}
