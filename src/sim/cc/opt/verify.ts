// The IR's invariants, checked (tests run it after every pass): one terminator per block, at
// its end; phis only at block starts with one entry per predecessor edge; every vreg defined
// once and below nregs; every use dominated by its definition (a phi's at the end of the edge's
// predecessor); targets and slots in range.
import type { IrFunction, IrModule } from '../ir';
import { dominates, dominators } from './dom';
import { defsOf, isTerminator, successors } from './util';

export function verifyFunction(f: IrFunction, when = ''): void {
  const fail = (msg: string): never => { throw new Error(`optimiser${when ? ` (${when})` : ''}: '${f.name}': ${msg}`); };
  const n = f.blocks.length;
  const defBlock = new Int32Array(f.nregs).fill(-2);
  const defIndex = new Int32Array(f.nregs).fill(-1);
  for (let i = 0; i < f.params.length; i++) defBlock[i] = -1;
  f.blocks.forEach((b, bi) => {
    if (!b.insts.length) fail(`block ${bi} is empty`);
    b.insts.forEach((x, ii) => {
      const last = ii === b.insts.length - 1;
      if (isTerminator(x.op) !== last) fail(`block ${bi}: ${last ? 'does not end in a terminator' : `terminator ${x.op} before the end`}`);
      if (x.op === 'phi' && ii > 0 && b.insts[ii - 1].op !== 'phi') fail(`block ${bi}: phi %${x.dst} after another instruction`);
      for (const t of x.op === 'phi' ? [] : x.targets ?? []) if (t < 0 || t >= n) fail(`block ${bi}: target ${t} out of range`);
      if (x.op === 'slot' && !((x.imm as number) >= 0 && (x.imm as number) < f.slots.length)) fail(`block ${bi}: slot ${x.imm} out of range`);
      for (const r of defsOf(x)) {
        if (r < 0 || r >= f.nregs) fail(`block ${bi}: %${r} is not below nregs ${f.nregs}`);
        if (defBlock[r] !== -2) fail(`%${r} is defined twice`);
        defBlock[r] = bi;
        defIndex[r] = ii;
      }
    });
  });
  const d = dominators(f);
  const dominatesUse = (r: number, bi: number, ii: number): boolean => {
    const db = defBlock[r];
    if (db === -1) return true;
    if (db === bi) return defIndex[r] < ii;
    return dominates(d, db, bi);
  };
  f.blocks.forEach((b, bi) => {
    if (d.idom[bi] < 0) return; // unreachable code: nothing runs it
    b.insts.forEach((x, ii) => {
      for (const r of x.args) if (r < 0 || r >= f.nregs || defBlock[r] === -2) fail(`block ${bi}: ${x.op} reads undefined %${r}`);
      if (x.op === 'phi') {
        const want = [...d.preds[bi]].sort((a, c) => a - c).join(',');
        const got = [...x.targets!].sort((a, c) => a - c).join(',');
        if (want !== got) fail(`block ${bi}: phi %${x.dst} has entries for [${got}], predecessors are [${want}]`);
        x.args.forEach((r, k) => {
          const p = x.targets![k];
          if (d.idom[p] >= 0 && !dominatesUse(r, p, f.blocks[p].insts.length)) fail(`block ${bi}: phi %${x.dst} reads %${r} not available at the end of block ${p}`);
        });
      } else for (const r of x.args) if (!dominatesUse(r, bi, ii)) fail(`block ${bi}: ${x.op} reads %${r} before its definition dominates it`);
    });
    for (const s of successors(b)) if (s === 0) fail(`block ${bi} jumps to the entry block`);
  });
}

export function verifyModule(m: IrModule, when = ''): void {
  for (const f of m.functions) verifyFunction(f, when);
}
