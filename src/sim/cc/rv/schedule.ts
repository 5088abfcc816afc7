// Instruction scheduling around the load-use stall, before register allocation. CV32E40P stalls
// one cycle when an instruction reads the register the load just before it wrote (the result
// comes back a stage late); every other instruction it runs here issues back to back (mulh and
// division stall whatever follows). So within each stretch of a block between calls and control
// flow, the instructions are listed again in their order, except that when the next
// one would read a load's result, the earliest ready instruction that would not goes first; a
// load may also move up past two ready instructions, so that its result is ready in time.
// Nothing moves across another instruction it depends on: registers (read after write, write
// after read, write after write), and memory (a store stays ordered with every load and store;
// volatile accesses and inline asm with side effects stay ordered with everything that touches
// memory; asm without them is a computation like any other).
import type { MBlock, MFunction, MInst } from './mir';
import { removeDeadCode } from './regalloc';

/** How far (in instructions of the original order) a load may be listed ahead of its place. */
const LOAD_LEAD = 2;

const BARRIER = new Set(['CALL', 'RET', 'B', 'BI', 'J', 'HWSETUP', 'HWEND', 'NONE']);
const LOADS = new Set(['L', 'LRR', 'LPI', 'LPR']);
const STORES = new Set(['S', 'SRR', 'SPI', 'SPR']);
const ASM_LOAD = /^\s*(cv\.)?l[bhw]u?\s/;

/** An instruction whose result comes a cycle late: a load, or inline asm that is one. */
const isLoad = (x: MInst): boolean => LOADS.has(x.fmt) || (x.fmt === 'ASM' && ASM_LOAD.test(x.asm!.template));
/** Ordered with every other memory access: stores, volatile loads, asm with side effects (the kernels' loads and stores in asm). */
const isOrdered = (x: MInst): boolean => STORES.has(x.fmt) || (LOADS.has(x.fmt) && !!x.sideEffect) || (x.fmt === 'ASM' && !!x.sideEffect);

export function scheduleLoads(mf: MFunction): void {
  // Selection leaves values nothing reads (an address folded into its access's offset, a
  // constant an immediate replaced): gone first, or they would take the places after loads
  // that useful instructions should fill.
  removeDeadCode(mf);
  for (const b of mf.blocks) scheduleBlock(b);
}

function scheduleBlock(b: MBlock): void {
  const out: MInst[] = [];
  let region: MInst[] = [];
  // The block's copies (a loop's next values into its phis' registers), source -> destination.
  const copied = new Map<number, number>();
  for (const x of b.insts) if (x.fmt === 'MV') copied.set(x.uses[0], x.defs[0]);
  for (const x of b.insts) {
    if (BARRIER.has(x.fmt) || x.target !== undefined) {
      scheduleRegion(region, out, copied);
      region = [];
      out.push(x);
    } else region.push(x);
  }
  scheduleRegion(region, out, copied);
  b.insts = out;
}

function scheduleRegion(xs: MInst[], out: MInst[], copied: Map<number, number>): void {
  const n = xs.length;
  if (n < 3) { out.push(...xs); return; }
  const loadAt = xs.map(isLoad);
  if (!loadAt.includes(true)) { out.push(...xs); return; }
  const succs: number[][] = xs.map(() => []);
  const npred = new Int32Array(n);
  const edge = (from: number, to: number): void => {
    if (from < 0 || from === to) return;
    succs[from].push(to);
    npred[to]++;
  };
  const lastDef = new Map<number, number>();
  const readers = new Map<number, number[]>();
  let lastStore = -1;
  let loads: number[] = [];
  xs.forEach((x, i) => {
    for (const r of x.uses) edge(lastDef.get(r) ?? -1, i);
    for (const r of x.defs) {
      edge(lastDef.get(r) ?? -1, i);
      for (const k of readers.get(r) ?? []) edge(k, i);
    }
    for (const r of x.uses) { const l = readers.get(r); if (l) l.push(i); else readers.set(r, [i]); }
    for (const r of x.defs) { lastDef.set(r, i); readers.set(r, []); }
    const load = LOADS.has(x.fmt), store = isOrdered(x);
    if (store) {
      edge(lastStore, i);
      for (const k of loads) edge(k, i);
      lastStore = i;
      loads = [];
    } else if (load) {
      edge(lastStore, i);
      loads.push(i);
    }
  });
  // Duplicate edges (an instruction reading a register twice) counted twice on both sides: fine.
  const ready: number[] = [];
  for (let i = 0; i < n; i++) if (npred[i] === 0) ready.push(i);
  let last: MInst | undefined = out[out.length - 1];
  let lastIsLoad = !!last && isLoad(last);
  const stalls = (i: number): boolean => lastIsLoad && xs[i].uses.includes(last!.defs[0]);
  const key = Int32Array.from(xs, (_, i) => i - (loadAt[i] ? LOAD_LEAD : 0));
  // Readers not yet listed, per register: a filler that is not the last reader of an operand
  // would keep that register alive past its own result (p + 4 moved above the store through p
  // makes the pointer's two values overlap: a copy, where they could have shared a register).
  const pending = new Map<number, number>();
  for (const x of xs) for (const r of x.uses) pending.set(r, (pending.get(r) ?? 0) + 1);
  const lengthens = (x: MInst): boolean => x.uses.some((r) => pending.get(r)! > x.uses.filter((u) => u === r).length);
  // A filler `p' = p + 8` whose result the block copies back into p: moved above p's other
  // readers, it costs that copy (a cycle, as the stall would) where p' and p could share a register.
  const costsCopy = (x: MInst): boolean => x.defs.length === 1 && x.uses.includes(copied.get(x.defs[0]) ?? -1) && lengthens(x);
  while (ready.length) {
    let best = 0;
    for (let k = 1; k < ready.length; k++) if (key[ready[k]] < key[ready[best]]) best = k;
    // The first in order, unless it would stall: then a filler, one that lengthens no live range if there is one.
    let k = best;
    if (stalls(ready[best])) {
      let bestFree = -1, bestShort = -1;
      for (let j = 0; j < ready.length; j++) {
        const i = ready[j];
        if (stalls(i) || costsCopy(xs[i])) continue;
        if (bestFree < 0 || key[i] < key[ready[bestFree]]) bestFree = j;
        if (!lengthens(xs[i]) && (bestShort < 0 || key[i] < key[ready[bestShort]])) bestShort = j;
      }
      k = bestShort >= 0 ? bestShort : bestFree >= 0 ? bestFree : best;
    }
    const i = ready[k];
    ready.splice(k, 1);
    out.push(xs[i]);
    for (const r of xs[i].uses) pending.set(r, pending.get(r)! - 1);
    last = xs[i];
    lastIsLoad = loadAt[i];
    for (const s of succs[i]) if (--npred[s] === 0) ready.push(s);
  }
}
