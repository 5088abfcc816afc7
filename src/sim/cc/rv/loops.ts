// Loop nesting depth of each MIR block (spill costs weigh a use in a loop ten times more per
// level): dominators by Cooper, Harvey and Kennedy's iteration, natural loops of back edges.
import type { MFunction } from './mir';

export function computeLoopDepth(mf: MFunction): void {
  const n = mf.blocks.length;
  const preds: number[][] = mf.blocks.map(() => []);
  mf.blocks.forEach((b, i) => { for (const s of b.succs) preds[s].push(i); });
  // Reverse postorder from the entry.
  const rpo: number[] = [];
  const seen = new Uint8Array(n);
  const stack: [number, number][] = [[mf.order[0] ?? 0, 0]];
  seen[stack[0][0]] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const succs = mf.blocks[top[0]].succs;
    if (top[1] < succs.length) {
      const s = succs[top[1]++];
      if (!seen[s]) { seen[s] = 1; stack.push([s, 0]); }
    } else { rpo.push(top[0]); stack.pop(); }
  }
  rpo.reverse();
  const index = new Int32Array(n).fill(-1);
  rpo.forEach((b, i) => { index[b] = i; });
  const idom = new Int32Array(n).fill(-1);
  idom[rpo[0]] = rpo[0];
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (index[a] > index[b]) a = idom[a];
      while (index[b] > index[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const b of rpo.slice(1)) {
      let d = -1;
      for (const p of preds[b]) if (idom[p] >= 0) d = d < 0 ? p : intersect(p, d);
      if (d >= 0 && idom[b] !== d) { idom[b] = d; changed = true; }
    }
  }
  const dominates = (a: number, b: number): boolean => {
    for (let x = b; ; x = idom[x]) {
      if (x === a) return true;
      if (x === idom[x] || x < 0) return false;
    }
  };
  for (const b of mf.blocks) b.depth = 0;
  for (const h of rpo) {
    // Back edges p -> h (h dominates p): the loop is h plus everything reaching p without h.
    const latches = preds[h].filter((p) => index[p] >= 0 && dominates(h, p));
    if (!latches.length) continue;
    const body = new Set<number>([h]);
    const work = [...latches];
    while (work.length) {
      const x = work.pop()!;
      if (body.has(x)) continue;
      body.add(x);
      for (const p of preds[x]) if (index[p] >= 0) work.push(p);
    }
    for (const x of body) mf.blocks[x].depth++;
  }
}
