// CFG simplification: branches with equal targets become jumps, single-entry phis become their
// value, a block is merged into its only predecessor when that predecessor only jumps to it,
// empty blocks that only jump are bypassed, and unreachable blocks are deleted.
import type { IrFunction } from '../ir';
import { compactBlocks, filterInsts, fixPhis, newMap, predecessors, reachable, renameUses, successors, terminator } from './util';

export function simplifyCfg(f: IrFunction): boolean {
  let changed = false;
  for (let round = 0; round < 8; round++) {
    let c = foldBranches(f);
    c = bypassEmpty(f) || c;
    c = mergeChains(f) || c;
    const keep = reachable(f);
    if (!keep.every(Boolean)) { compactBlocks(f, keep); c = true; }
    c = simplePhis(f) || c;
    if (!c) break;
    changed = true;
  }
  return changed;
}

/** br c ? X : X and switches whose targets are all one block become jumps. */
function foldBranches(f: IrFunction): boolean {
  let changed = false;
  for (const b of f.blocks) {
    const t = terminator(b);
    if ((t.op === 'br' || t.op === 'switch') && t.targets!.every((x) => x === t.targets![0])) {
      b.insts[b.insts.length - 1] = { op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [t.targets![0]], loc: t.loc, pragmas: t.pragmas };
      changed = true;
    }
  }
  if (changed) fixPhis(f);
  return changed;
}

/** Phis with one distinct value (ignoring themselves) become that value. */
export function simplePhis(f: IrFunction): boolean {
  if (!f.blocks.some((b) => b.insts[0].op === 'phi')) return false;
  const map = newMap(f);
  let changed = false;
  for (let again = true; again;) {
    again = false;
    for (const b of f.blocks) for (const x of b.insts) {
      if (x.op !== 'phi') break;
      if (map[x.dst] >= 0) continue;
      let v = -1;
      let single = true;
      for (let a of x.args) {
        while (map[a] >= 0) a = map[a];
        if (a === x.dst) continue;
        if (v < 0) v = a; else if (v !== a) { single = false; break; }
      }
      if (single && v >= 0) { map[x.dst] = v; again = true; changed = true; }
    }
  }
  if (!changed) return false;
  for (const b of f.blocks) filterInsts(b, (x) => x.op !== 'phi' || map[x.dst] < 0);
  renameUses(f, map);
  return true;
}

/** B's only predecessor P ends in `jmp B`: B's instructions move into P. */
function mergeChains(f: IrFunction): boolean {
  const preds = predecessors(f);
  const gone = new Array(f.blocks.length).fill(false);
  const map = newMap(f);
  let changed = false;
  for (let p = 0; p < f.blocks.length; p++) {
    if (gone[p]) continue;
    for (;;) {
      const pb = f.blocks[p];
      const t = terminator(pb);
      if (t.op !== 'jmp') break;
      const b = t.targets![0];
      if (b === p || b === 0 || preds[b].length !== 1 || gone[b]) break;
      const bb = f.blocks[b];
      // Single-entry phis of B: their value (the pass simplePhis normally got them first).
      if (bb.insts[0].op === 'phi') {
        for (const x of bb.insts) { if (x.op !== 'phi') break; map[x.dst] = x.args[0]; }
        filterInsts(bb, (x) => x.op !== 'phi');
      }
      pb.insts.pop();
      if (t.pragmas) bb.insts[0].pragmas = [...(bb.insts[0].pragmas ?? []), ...t.pragmas];
      pb.insts.push(...bb.insts);
      bb.insts = [];
      gone[b] = true;
      // B's successors now come from P.
      for (const s of new Set(successors(pb))) {
        for (const x of f.blocks[s].insts) {
          if (x.op !== 'phi') break;
          x.targets = x.targets!.map((q) => (q === b ? p : q));
        }
        preds[s] = preds[s].map((q) => (q === b ? p : q));
      }
      changed = true;
    }
  }
  if (changed) {
    renameUses(f, map);
    // Merged blocks are unreachable shells: give them a terminator so compaction drops them.
    f.blocks.forEach((b, i) => { if (gone[i]) b.insts = [{ op: 'unreachable', ty: 'i32', dst: -1, args: [], loc: f.loc }]; });
  }
  return changed;
}

/** A block holding only `jmp T` (no phis) is bypassed: its predecessors jump to T directly. */
function bypassEmpty(f: IrFunction): boolean {
  const preds = predecessors(f);
  let changed = false;
  for (let b = 1; b < f.blocks.length; b++) {
    const bb = f.blocks[b];
    if (bb.insts.length !== 1 || bb.insts[0].op !== 'jmp') continue;
    const t = bb.insts[0].targets![0];
    if (t === b || !preds[b].length) continue;
    const tb = f.blocks[t];
    const tPhis = tb.insts[0].op === 'phi';
    // With phis in T, a predecessor of B that already reaches T could need two values: keep B.
    if (tPhis && preds[b].some((p) => preds[t].includes(p))) continue;
    // A loop header's pragmas live on its first instruction: don't lose them.
    if (bb.insts[0].pragmas) continue;
    for (const p of new Set(preds[b])) {
      const pt = terminator(f.blocks[p]);
      pt.targets = pt.targets!.map((x) => (x === b ? t : x));
    }
    if (tPhis) {
      for (const x of tb.insts) {
        if (x.op !== 'phi') break;
        const k = x.targets!.indexOf(b);
        const v = x.args[k];
        const args: number[] = [], targets: number[] = [];
        x.targets!.forEach((q, i) => { if (q !== b) { args.push(x.args[i]); targets.push(q); } });
        for (const p of preds[b]) { args.push(v); targets.push(p); }
        x.args = args;
        x.targets = targets;
      }
    }
    preds[t] = [...preds[t].filter((q) => q !== b), ...preds[b]];
    preds[b] = [];
    // Nothing reaches B now; it must not count as T's predecessor any more.
    bb.insts = [{ op: 'unreachable', ty: 'i32', dst: -1, args: [], loc: bb.insts[0].loc }];
    changed = true;
  }
  if (changed) fixPhis(f);
  return changed;
}
