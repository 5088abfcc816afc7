// Block layout clean-ups before allocation. A loop whose latch ends in `j header`, where the
// header is only a test, pays a jump and a branch each iteration: the latch gets its own copy of
// the test (the loop is rotated; the header stays for the entry), as clang's layout ends loops
// with the backward conditional branch.
import { INVERT, type MFunction } from './mir';

const MAX_TEST = 6;

export function rotateLoops(mf: MFunction): void {
  const at = new Map<number, number>();
  mf.order.forEach((b, i) => at.set(b, i));
  for (const b of mf.order) {
    const blk = mf.blocks[b];
    const last = blk.insts[blk.insts.length - 1];
    // Only a latch that jumps alone: behind a conditional branch the jump is the way out of an
    // inner loop (an unrolled copy's exit test), and the copied test would make the way on a branch.
    if (!last || last.fmt !== 'J' || blk.succs.length !== 1) continue;
    const h = last.target!;
    if (h === b || (at.get(h) ?? Infinity) > at.get(b)!) continue;
    const head = mf.blocks[h];
    const n = head.insts.length;
    if (n < 2 || n > MAX_TEST) continue;
    const term = head.insts[n - 1], cond = head.insts[n - 2];
    if (term.fmt !== 'J' || (cond.fmt !== 'B' && cond.fmt !== 'BI')) continue;
    if (head.insts.slice(0, n - 2).some((x) => x.target !== undefined || x.fmt === 'CALL' || x.fmt === 'ASM' || x.fmt === 'RET')) continue;
    blk.insts.pop();
    for (const x of head.insts) blk.insts.push({ ...x, defs: [...x.defs], uses: [...x.uses] });
    blk.succs = blk.succs.filter((s) => s !== h);
    for (const s of head.succs) if (!blk.succs.includes(s)) blk.succs.push(s);
  }
}

/** Branches to a block that only jumps on (an edge block without copies) go straight to its target. */
export function threadJumps(mf: MFunction): void {
  const fwd = (b: number): number => {
    // Follow jump-only blocks; a cycle of them (an empty endless loop) stays as it is.
    const seen = new Set<number>([b]);
    let t = b;
    for (;;) {
      const insts = mf.blocks[t].insts;
      if (insts.length !== 1 || insts[0].fmt !== 'J') return t;
      const n = insts[0].target!;
      if (seen.has(n)) return b;
      seen.add(n);
      t = n;
    }
  };
  for (const blk of mf.blocks) {
    for (const x of blk.insts) if (x.target !== undefined) x.target = fwd(x.target);
    blk.succs = [...new Set(blk.succs.map(fwd))];
  }
  // Blocks nothing reaches any more are not laid out.
  const seen = new Set<number>([mf.order[0]]);
  const work = [mf.order[0]];
  while (work.length) for (const s of mf.blocks[work.pop()!].succs) if (!seen.has(s)) { seen.add(s); work.push(s); }
  mf.order = mf.order.filter((b) => seen.has(b));
}

/**
 * The final block order: chains of blocks that fall through into each other. After a block, the
 * block its jump goes to comes next when nothing else enters it (the jump disappears), or the
 * target of its conditional branch over that jump (the branch is inverted): an unrolled loop's
 * copies, split by their exit tests, then run straight on instead of taking a branch and a jump
 * per copy. When both could follow, the one deeper in loops does: the loop's way on falls
 * through and the exit takes the branch. A hardware loop's body stays right after its setup.
 * Otherwise the order is kept.
 */
export function chainBlocks(mf: MFunction): void {
  // (Loop depths as register allocation computed them.)
  const preds = new Int32Array(mf.blocks.length);
  for (const b of mf.order) for (const s of mf.blocks[b].succs) preds[s]++;
  const placed = new Uint8Array(mf.blocks.length);
  const out: number[] = [];
  const next = (b: number): number | undefined => {
    const insts = mf.blocks[b].insts;
    const setup = insts.find((x) => x.fmt === 'HWSETUP');
    if (setup) return setup.target;
    const last = insts[insts.length - 1], prev = insts[insts.length - 2];
    if (last?.fmt !== 'J') return undefined;
    const t = last.target!;
    const inverts = prev && (prev.fmt === 'B' || prev.fmt === 'BI') && INVERT[prev.op] && preds[prev.target!] === 1 && !placed[prev.target!];
    if (inverts && mf.blocks[prev.target!].depth > mf.blocks[t].depth) return prev.target;
    if (preds[t] === 1 && !placed[t]) return t;
    return inverts ? prev.target : undefined;
  };
  for (const b0 of mf.order) {
    for (let b: number | undefined = b0; b !== undefined && !placed[b]; b = next(b)) {
      placed[b] = 1;
      out.push(b);
    }
  }
  mf.order = out;
}
