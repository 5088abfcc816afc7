// Drops the static functions nothing reachable uses, before the optimiser sees them: every file
// includes headers full of `static inline` helpers (dpg_kernels.h, xpulp.h, hal.h) and a file
// uses a few, so optimising and then discarding the rest was most of a kernel file's compile.
// Roots: the functions other files can call (not static), every global's initialiser (function
// pointers in tables), and names written in asm text. The optimiser's own dropUnused still runs
// last, for the functions inlining leaves without callers.
import type { IrFunction, IrModule } from './ir';

/** Removes the unreachable static functions of `m` (in place); returns how many. */
export function pruneUnreachable(m: IrModule): number {
  const byName = new Map<string, IrFunction>();
  for (const f of m.functions) byName.set(f.name, f);
  const reached = new Set<IrFunction>();
  const work: IrFunction[] = [];
  const reach = (name: string | undefined): void => {
    const f = name === undefined ? undefined : byName.get(name);
    if (f && !reached.has(f)) { reached.add(f); work.push(f); }
  };
  let asmText = '';
  for (const f of m.functions) {
    if (!f.isStatic) reach(f.name);
    for (const b of f.blocks) for (const x of b.insts) if (x.op === 'asm') asmText += `${x.asm!.template}\n`;
  }
  for (const g of m.globals) for (const r of g.relocs) reach(r.symbol);
  // A static function named in asm text (called from asm) stays: any word of the text that is one.
  if (asmText) for (const w of asmText.match(/[A-Za-z_.$][\w.$]*/g) ?? []) reach(w);
  while (work.length) {
    const f = work.pop()!;
    for (const b of f.blocks) for (const x of b.insts) if (x.op === 'call' || x.op === 'addr') reach(x.sym);
  }
  const before = m.functions.length;
  m.functions = m.functions.filter((f) => reached.has(f));
  return before - m.functions.length;
}
