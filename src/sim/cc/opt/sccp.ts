// Sparse conditional constant propagation (Wegman and Zadeck): values and CFG edges are assumed
// unreachable/unknown until shown otherwise, so constants flow through phis of loops and
// branches on constants only make their taken arm live. Then constant values replace their
// instructions, constant branches and switches become jumps, and the dead arms are deleted.
import type { Inst, IrFunction } from '../ir';
import { foldInst, switchTarget, truthy, type Val } from './fold';
import { become, compactBlocks, defsOf, fixPhis, reachable, vregTypes } from './util';

const TOP = 0, CONST = 1, BOTTOM = 2;

export function sccp(f: IrFunction): boolean {
  const n = f.nregs;
  const state = new Uint8Array(n);
  const val: Val[] = new Array(n);
  for (let i = 0; i < f.params.length; i++) state[i] = BOTTOM;
  // Readers of each vreg, and each instruction's block.
  const all: Inst[] = [];
  const blk: number[] = [];
  const users: (number[] | undefined)[] = new Array(n);
  f.blocks.forEach((b, bi) => {
    for (const x of b.insts) {
      for (const a of x.args) (users[a] ??= []).push(all.length);
      all.push(x);
      blk.push(bi);
    }
  });
  const execBlock = new Uint8Array(f.blocks.length);
  const execEdge = new Set<number>(); // p * nblocks + s
  const nb = f.blocks.length;
  const cfgWork: [number, number][] = [[-1, 0]];
  const ssaWork: number[] = [];

  const lower = (r: number, s: number, v?: Val): void => {
    if (s === CONST && state[r] === CONST && val[r] !== v) s = BOTTOM;
    if (s <= state[r]) return;
    state[r] = s;
    if (s === CONST) val[r] = v!;
    const us = users[r];
    if (us) for (const u of us) if (execBlock[blk[u]]) ssaWork.push(u);
  };

  const visit = (x: Inst, bi: number): void => {
    switch (x.op) {
      case 'phi': {
        let s = TOP;
        let v: Val | undefined;
        x.args.forEach((a, k) => {
          if (s === BOTTOM || !execEdge.has(x.targets![k] * nb + bi)) return;
          if (state[a] === BOTTOM) s = BOTTOM;
          else if (state[a] === CONST) {
            if (s === TOP) { s = CONST; v = val[a]; } else if (v !== val[a]) s = BOTTOM;
          }
        });
        if (s !== TOP) lower(x.dst, s, v);
        return;
      }
      case 'br': {
        const c = x.args[0];
        if (state[c] === TOP) return;
        if (state[c] === CONST) cfgWork.push([bi, x.targets![truthy(val[c]) ? 0 : 1]]);
        else for (const t of x.targets!) cfgWork.push([bi, t]);
        return;
      }
      case 'switch': {
        const c = x.args[0];
        if (state[c] === TOP) return;
        if (state[c] === CONST) cfgWork.push([bi, x.targets![switchTarget(x, val[c])]]);
        else for (const t of x.targets!) cfgWork.push([bi, t]);
        return;
      }
      case 'jmp': cfgWork.push([bi, x.targets![0]]); return;
      default: {
        const defs = defsOf(x);
        if (!defs.length) return;
        if (x.op === 'asm' || x.op === 'call' || x.op === 'load' || x.op === 'slot' || x.op === 'addr' || x.op === 'vastart') {
          for (const d of defs) lower(d, BOTTOM);
          return;
        }
        let s = CONST;
        for (const a of x.args) { if (state[a] === BOTTOM) { s = BOTTOM; break; } if (state[a] === TOP) s = TOP; }
        if (s === TOP) return;
        if (s === BOTTOM) { lower(x.dst, BOTTOM); return; }
        const v = foldInst(x, (i) => val[x.args[i]]);
        if (v === undefined) lower(x.dst, BOTTOM); else lower(x.dst, CONST, v);
      }
    }
  };

  while (cfgWork.length || ssaWork.length) {
    while (cfgWork.length) {
      const [p, s] = cfgWork.pop()!;
      const key = p * nb + s;
      if (p >= 0) { if (execEdge.has(key)) continue; execEdge.add(key); }
      const insts = f.blocks[s].insts;
      if (!execBlock[s]) {
        execBlock[s] = 1;
        for (const x of insts) visit(x, s);
      } else for (const x of insts) { if (x.op !== 'phi') break; visit(x, s); }
    }
    while (ssaWork.length) {
      const u = ssaWork.pop()!;
      visit(all[u], blk[u]);
    }
  }

  // Rewrite.
  let changed = false;
  const types = vregTypes(f);
  f.blocks.forEach((b, bi) => {
    if (!execBlock[bi]) return;
    for (const x of b.insts) {
      if (x.dst >= 0 && x.op !== 'const' && state[x.dst] === CONST) {
        const t = types[x.dst];
        become(x, { op: 'const', ty: t, dst: x.dst, args: [], imm: t === 'i64' ? BigInt(val[x.dst]) : Number(val[x.dst]) });
        changed = true;
      } else if ((x.op === 'br' || x.op === 'switch') && state[x.args[0]] === CONST) {
        const v = val[x.args[0]];
        const t = x.op === 'br' ? x.targets![truthy(v) ? 0 : 1] : x.targets![switchTarget(x, v)];
        become(x, { op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [t] });
        changed = true;
      }
    }
  });
  if (changed) {
    // A phi turned into a constant must not stay among the phis at its block's start.
    for (const b of f.blocks) {
      const firstOther = b.insts.findIndex((x) => x.op !== 'phi');
      if (firstOther >= 0 && b.insts.some((x, i) => i > firstOther && x.op === 'phi'))
        b.insts = [...b.insts.filter((x) => x.op === 'phi'), ...b.insts.filter((x) => x.op !== 'phi')];
    }
    const keep = reachable(f);
    compactBlocks(f, keep);
    fixPhis(f);
  }
  return changed;
}
