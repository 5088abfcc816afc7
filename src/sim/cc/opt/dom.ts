// Dominators (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder), the
// dominator tree, dominance frontiers, and natural loops found from back edges.
import type { IrFunction } from '../ir';
import { predecessors, reversePostorder, successors, terminator } from './util';

export interface DomInfo {
  /** Reachable blocks in reverse postorder (the entry first). */
  rpo: number[];
  /** Immediate dominator of each block (the entry's is itself; -1 for unreachable blocks). */
  idom: Int32Array;
  /** Dominator-tree children. */
  children: number[][];
  /** Preorder / postorder numbers in the dominator tree, for O(1) dominance tests. */
  pre: Int32Array;
  post: Int32Array;
  preds: number[][];
}

export function dominators(f: IrFunction): DomInfo {
  const n = f.blocks.length;
  const preds = predecessors(f);
  const order = new Int32Array(n).fill(-1);
  const rpo = reversePostorder(f);
  rpo.forEach((b, i) => { order[b] = i; });
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (order[a] > order[b]) a = idom[a];
      while (order[b] > order[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 1; i < rpo.length; i++) {
      const b = rpo[i];
      let d = -1;
      for (const p of preds[b]) {
        if (idom[p] < 0) continue;
        d = d < 0 ? p : intersect(p, d);
      }
      if (d !== idom[b]) { idom[b] = d; changed = true; }
    }
  }
  const children: number[][] = Array.from({ length: n }, () => []);
  for (const b of rpo) if (b !== 0) children[idom[b]].push(b);
  const pre = new Int32Array(n).fill(-1), postN = new Int32Array(n).fill(-1);
  let c = 0;
  const st: [number, number][] = [[0, 0]];
  pre[0] = c++;
  while (st.length) {
    const top = st[st.length - 1];
    if (top[1] < children[top[0]].length) {
      const ch = children[top[0]][top[1]++];
      pre[ch] = c++;
      st.push([ch, 0]);
    } else { postN[top[0]] = c++; st.pop(); }
  }
  return { rpo, idom, children, pre, post: postN, preds };
}

/** Does block a dominate block b (both reachable)? */
export function dominates(d: DomInfo, a: number, b: number): boolean {
  return d.pre[a] <= d.pre[b] && d.post[b] <= d.post[a];
}

/** Dominance frontiers (Cooper, Harvey and Kennedy's runner walk). */
export function frontiers(d: DomInfo): Set<number>[] {
  const df: Set<number>[] = d.idom.length ? Array.from({ length: d.idom.length }, () => new Set<number>()) : [];
  for (const b of d.rpo) {
    const ps = d.preds[b];
    if (ps.length < 2) continue;
    for (const p of new Set(ps)) {
      if (d.idom[p] < 0) continue;
      let r = p;
      while (r !== d.idom[b]) { df[r].add(b); r = d.idom[r]; }
    }
  }
  return df;
}

export interface Loop {
  header: number;
  /** Every block of the loop, the header included. */
  blocks: Set<number>;
  /** Blocks with an edge back to the header. */
  latches: number[];
  /** Loops nested directly inside. */
  inner: Loop[];
  depth: number;
}

/** Natural loops (back edges to a dominating header; loops sharing a header are merged), innermost first. */
export function findLoops(f: IrFunction, d: DomInfo): Loop[] {
  const byHeader = new Map<number, Loop>();
  for (const b of d.rpo) {
    for (const s of successors(f.blocks[b])) {
      if (d.idom[s] < 0 || !dominates(d, s, b)) continue;
      let l = byHeader.get(s);
      if (!l) { l = { header: s, blocks: new Set([s]), latches: [], inner: [], depth: 0 }; byHeader.set(s, l); }
      if (!l.latches.includes(b)) l.latches.push(b);
      const work = [b];
      while (work.length) {
        const x = work.pop()!;
        if (l.blocks.has(x)) continue;
        l.blocks.add(x);
        for (const p of d.preds[x]) if (d.idom[p] >= 0) work.push(p);
      }
    }
  }
  const loops = [...byHeader.values()];
  // Nesting: the parent of a loop is the smallest other loop containing its header.
  for (const l of loops) {
    let parent: Loop | undefined;
    for (const o of loops) if (o !== l && o.blocks.has(l.header) && o.blocks.size > l.blocks.size && (!parent || o.blocks.size < parent.blocks.size)) parent = o;
    parent?.inner.push(l);
  }
  const setDepth = (l: Loop, k: number): void => { l.depth = k; for (const i of l.inner) setDepth(i, k + 1); };
  for (const l of loops) if (!loops.some((o) => o.inner.includes(l))) setDepth(l, 1);
  return loops.sort((a, b) => a.blocks.size - b.blocks.size);
}

/** The loop's preheader (made if needed), or -1 when the loop has several entry edges. */
export function loopPreheader(f: IrFunction, l: Loop, preds: number[][]): number {
  const outside = preds[l.header].filter((p) => !l.blocks.has(p));
  if (outside.length !== 1) return -1;
  const p = outside[0];
  const t = terminator(f.blocks[p]);
  if (t.op === 'jmp') return p;
  // Split the entry edge: a new block between p and the header.
  const n = f.blocks.length;
  f.blocks.push({ insts: [{ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [l.header], loc: t.loc }] });
  t.targets = t.targets!.map((x) => (x === l.header ? n : x));
  for (const x of f.blocks[l.header].insts) {
    if (x.op !== 'phi') break;
    x.targets = x.targets!.map((q) => (q === p ? n : q));
  }
  preds[l.header] = preds[l.header].map((q) => (q === p ? n : q));
  preds.push([p]);
  return n;
}
