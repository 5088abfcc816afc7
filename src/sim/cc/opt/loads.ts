// Redundant loads: a load from an address that this block, or the chain of single predecessors
// leading to it, already loaded or stored, with nothing in between that may write those bytes
// (a store, a call, memcpy/memset, inline asm with side effects; alias.ts says which may),
// reads the value known there instead. Across joins nothing is assumed. `col->rows` read again in every block of the
// GEMM's row loop, or a value read back right after it was stored, costs a load no more.
// Volatile accesses are never forwarded.
import type { Inst, IrFunction, IrType } from '../ir';
import { Aliasing, accessBytes } from './alias';
import { newMap, predecessors, renameUses } from './util';

type Known = Map<number, { v: number; ty: IrType }>;

export function forwardLoads(f: IrFunction): boolean {
  const preds = predecessors(f);
  const map = newMap(f);
  const resolve = (r: number): number => { while (map[r] >= 0) r = map[r]; return r; };
  const atEnd = new Map<number, Known>();
  let alias: Aliasing | undefined;
  const forget = (known: Known, x: Inst): void => {
    if (!known.size) return;
    alias ??= new Aliasing(f);
    for (const [a, k] of known) if (alias.mayWrite(x, a, accessBytes(k.ty))) known.delete(a);
  };
  let changed = false;
  // In block order (no dominator tree: this runs in every round of the scalar passes); a block
  // whose one predecessor comes later starts from nothing.
  for (let b = 0; b < f.blocks.length; b++) {
    const p = preds[b];
    const known: Known = p.length === 1 && atEnd.has(p[0]) ? new Map(atEnd.get(p[0])) : new Map();
    for (const x of f.blocks[b].insts) {
      for (let i = 0; i < x.args.length; i++) x.args[i] = resolve(x.args[i]);
      switch (x.op) {
        case 'load': {
          if (x.volatile) break;
          const k = known.get(x.args[0]);
          if (k && k.ty === x.ty) { map[x.dst] = k.v; changed = true; } else known.set(x.args[0], { v: x.dst, ty: x.ty });
          break;
        }
        case 'store':
          forget(known, x);
          if (!x.volatile) known.set(x.args[0], { v: x.args[1], ty: x.ty });
          break;
        case 'memcpy': case 'memset': case 'call': case 'asm': forget(known, x); break;
      }
    }
    atEnd.set(b, known);
  }
  if (changed) renameUses(f, map);
  return changed;
}
