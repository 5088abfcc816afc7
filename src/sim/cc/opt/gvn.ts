// Common subexpression elimination over the dominator tree: a pure instruction computing what
// one dominating it already computed (same op, type, operands; operands sorted for commutative
// ops) is replaced by that one. Constants are only merged within a block, so they stay next to
// their uses (cheap to rematerialise; merged across blocks they would only lengthen live ranges).
// Loads are never merged (memory may change between them).
import type { Inst, IrFunction, Op } from '../ir';
import { dominators } from './dom';
import { isPure, newMap, renameUses } from './util';

const COMMUTATIVE = new Set<Op>(['add', 'mul', 'and', 'or', 'xor', 'eq', 'ne']);

function key(x: Inst): string {
  let a = x.args;
  if (COMMUTATIVE.has(x.op) && a[0] > a[1]) a = [a[1], a[0]];
  return `${x.op} ${x.ty} ${x.from ?? ''} ${x.imm ?? ''} ${x.sym ?? ''} ${a.join(',')}`;
}

export function gvn(f: IrFunction): boolean {
  const d = dominators(f);
  const map = newMap(f);
  const table = new Map<string, number>();
  let changed = false;
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
      const k = key(x);
      const scope = x.op === 'const' ? local : table;
      const prev = scope.get(k);
      if (prev !== undefined) { map[x.dst] = prev; changed = true; continue; }
      scope.set(k, x.dst);
      if (scope === table) undo.push(k);
    }
    stack.push({ b: top.b, undo });
    for (const c of d.children[top.b]) stack.push({ b: c });
  }
  if (changed) renameUses(f, map);
  return changed;
}
