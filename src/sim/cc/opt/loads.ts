// Redundant loads: a load from an address that every path to it already loaded or stored, with
// nothing in between that may write those bytes (a store, a call, memcpy/memset, inline asm
// with side effects; alias.ts says which may), reads the value known there instead. What is
// known at a block's start is what all its predecessors agree on (the same value for the same
// address and type): available loads, a forward dataflow problem solved to its fixpoint, loops
// starting from "everything" so a value survives a loop that does not write it. A kernel's
// parameters read from L2 in the set-up code of each branch, `col->rows` read again in every
// block of the GEMM's row loop, a value read back right after it was stored: one load each.
// Volatile accesses are never forwarded.
import type { Inst, IrFunction, IrType } from '../ir';
import { Aliasing, accessBytes } from './alias';
import { newMap, predecessors, renameUses, reversePostorder } from './util';

type Known = Map<number, { v: number; ty: IrType }>;

export function forwardLoads(f: IrFunction): boolean {
  // Only addresses accessed twice or more (a load among them) can gain: the others are not
  // tracked at all (most functions have none, and this runs in every scalar round).
  const seen = new Map<number, number>(), loaded = new Set<number>();
  for (const b of f.blocks) {
    for (const x of b.insts) {
      if ((x.op === 'load' || x.op === 'store') && !x.volatile) {
        seen.set(x.args[0], (seen.get(x.args[0]) ?? 0) + 1);
        if (x.op === 'load') loaded.add(x.args[0]);
      }
    }
  }
  const tracked = new Set([...loaded].filter((a) => seen.get(a)! > 1));
  if (!tracked.size) return false;
  const preds = predecessors(f);
  const order = reversePostorder(f);
  let alias: Aliasing | undefined;
  // The effect of one instruction on what is known; `use` replaces a load by a known value.
  const step = (known: Known, x: Inst, use?: (load: Inst, v: number) => void): void => {
    switch (x.op) {
      case 'load': {
        if (x.volatile || !tracked.has(x.args[0])) break;
        const k = known.get(x.args[0]);
        if (k && k.ty === x.ty) use?.(x, k.v); else known.set(x.args[0], { v: x.dst, ty: x.ty });
        break;
      }
      case 'store': case 'memcpy': case 'memset': case 'call': case 'asm': {
        if (known.size) {
          alias ??= new Aliasing(f);
          for (const [a, k] of known) if (alias.mayWrite(x, a, accessBytes(k.ty))) known.delete(a);
        }
        if (x.op === 'store' && !x.volatile && tracked.has(x.args[0])) known.set(x.args[0], { v: x.args[1], ty: x.ty });
        break;
      }
    }
  };
  // Blocks that neither access a tracked address nor write memory pass what is known through
  // unchanged (the same map, not a copy).
  const transparent = f.blocks.map((b) => b.insts.every((x) => x.op === 'load' ? !tracked.has(x.args[0]) || !!x.volatile
    : x.op !== 'store' && x.op !== 'memcpy' && x.op !== 'memset' && x.op !== 'call' && x.op !== 'asm'));
  // undefined: not reached yet (the meet skips it: "everything").
  const atEnd: (Known | undefined)[] = new Array(f.blocks.length);
  const EMPTY: Known = new Map();
  const atStart = (b: number, copy: boolean): Known => {
    if (b === 0) return copy ? new Map() : EMPTY;
    let m: Known | undefined, shared = true;
    for (const p of preds[b]) {
      const k = atEnd[p];
      if (!k) continue;
      if (!m) { m = k; continue; }
      if (m === k) continue;
      if (shared) { m = new Map(m); shared = false; }
      for (const [a, e] of m) { const o = k.get(a); if (!o || o.v !== e.v || o.ty !== e.ty) m.delete(a); }
    }
    if (!m) return copy ? new Map() : EMPTY;
    return shared && copy ? new Map(m) : m;
  };
  const same = (a: Known, b: Known): boolean => a === b || (a.size === b.size && [...a].every(([k, e]) => { const o = b.get(k); return !!o && o.v === e.v && o.ty === e.ty; }));
  // Rounds in reverse postorder until a round saw every block's predecessors as they ended it
  // (no block that a loop's back edge leaves changed in it): the loads that round found known are
  // the ones forwarded. Without loops, the first round is that one.
  const map = newMap(f);
  const rank = new Int32Array(f.blocks.length).fill(-1);
  order.forEach((b, i) => { rank[b] = i; });
  const backEdgeSources: number[] = [];
  for (const b of order) for (const p of preds[b]) if (rank[p] >= rank[b]) backEdgeSources.push(p);
  const changedIn = new Uint8Array(f.blocks.length);
  for (let rounds = 0; rounds < 10; rounds++) {
    let found = false;
    map.fill(-1);
    changedIn.fill(0);
    for (const b of order) {
      const k = atStart(b, !transparent[b]);
      if (!transparent[b]) for (const x of f.blocks[b].insts) step(k, x, (load, v) => { map[load.dst] = v; found = true; });
      if (!atEnd[b] || !same(atEnd[b]!, k)) { atEnd[b] = k; changedIn[b] = 1; }
    }
    if (backEdgeSources.some((p) => changedIn[p])) continue;
    if (!found) return false;
    // A forwarded value may itself have been a load forwarded here.
    const resolve = (r: number): number => { while (map[r] >= 0) r = map[r]; return r; };
    for (let r = 0; r < map.length; r++) if (map[r] >= 0) map[r] = resolve(map[r]);
    renameUses(f, map);
    return true;
  }
  // Not settled after 10 rounds (deep loop nests): what was computed may be too optimistic.
  return false;
}
