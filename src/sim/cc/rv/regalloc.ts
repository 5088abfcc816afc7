// Register allocation: virtual registers -> the 27 allocatable RV32 registers.
//
// Every instruction i has two positions: 2i where it reads, 2i+1 where it writes. Liveness gives
// each register a set of segments over the positions in layout order (holes included). Virtual
// registers are then placed one at a time, the costliest to spill first (uses and defs weighted
// 10x per loop level), each in the first register whose occupancy is free over all its segments:
// first a register it is copied to or from (so the copy disappears), then caller-saved ones,
// then callee-saved ones. A value live across a call cannot sit in a caller-saved register: the
// call writes them all. A register that fits nowhere is spilled: each use reloads it from a
// stack slot into a new short-lived register and each definition stores it (constants and frame
// addresses are recomputed instead), and allocation starts again.
import { computeLoopDepth } from './loops';
import { CALLEE_SAVED, FIRST_VREG, SP, isVirtual, type MFunction, type MInst, type Reg } from './mir';

const ALLOCATABLE: Reg[] = [10, 11, 12, 13, 14, 15, 16, 17, 5, 6, 7, 28, 29, 30, 31, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];

export interface Allocation {
  /** Callee-saved registers the function writes (the prologue saves them). */
  usedCalleeSaved: Reg[];
}

export function allocateRegisters(mf: MFunction): Allocation {
  removeDeadCode(mf);
  computeLoopDepth(mf);
  const spillTemps = new Set<Reg>();
  for (let round = 0; ; round++) {
    if (round > 20) throw new Error(`register allocation of '${mf.name}' does not converge`);
    const result = tryAllocate(mf, spillTemps);
    if (result.spilled.length === 0) {
      rewrite(mf, result.assign);
      const used = new Set<Reg>();
      for (const b of mf.blocks) for (const x of b.insts) for (const d of x.defs) used.add(d);
      return { usedCalleeSaved: CALLEE_SAVED.filter((r) => used.has(r)) };
    }
    spill(mf, result.spilled, spillTemps);
  }
}

/** Deletes instructions without side effects whose results nothing reads. */
export function removeDeadCode(mf: MFunction): void {
  for (;;) {
    const uses = new Int32Array(mf.nregs);
    for (const b of mf.blocks) for (const x of b.insts) for (const u of x.uses) uses[u]++;
    let removed = 0;
    for (const b of mf.blocks) {
      b.insts = b.insts.filter((x) => {
        if (x.sideEffect || x.target !== undefined) return true;
        if (x.defs.length === 0) return true;
        if (x.defs.some((d) => !isVirtual(d) || uses[d] > 0)) return true;
        removed++;
        return false;
      });
    }
    if (!removed) return;
  }
}


interface Attempt { assign: Int32Array; spilled: Reg[][] }

function tryAllocate(mf: MFunction, spillTemps: Set<Reg>): Attempt {
  const n = mf.nregs;
  // Positions in layout order.
  const start: number[] = [], end: number[] = [];
  let idx = 0;
  for (const b of mf.order) { start[b] = 2 * idx; idx += mf.blocks[b].insts.length; end[b] = 2 * idx; }
  const npos = 2 * idx + 2;
  const liveOut = liveOutLists(mf, n);
  // Segments per register, and spill costs.
  const segs: number[][] = Array.from({ length: n }, () => []);
  const cost = new Float64Array(n);
  const openEnd = new Int32Array(n).fill(-1);
  for (const b of mf.order) {
    const insts = mf.blocks[b].insts;
    const live: Reg[] = [];
    for (const r of liveOut[b]) { openEnd[r] = end[b] - 1; live.push(r); }
    const weight = 10 ** Math.min(mf.blocks[b].depth, 5);
    for (let i = insts.length - 1; i >= 0; i--) {
      const x = insts[i];
      const p = start[b] + 2 * i;
      for (const d of x.defs) {
        if (!tracked(d)) continue;
        cost[d] += weight;
        const at = x.early?.includes(d) ? p : p + 1;
        if (openEnd[d] >= 0) { segs[d].push(at, openEnd[d]); openEnd[d] = -1; }
        else segs[d].push(at, p + 1);
      }
      for (const u of x.uses) {
        if (!tracked(u)) continue;
        cost[u] += weight;
        if (openEnd[u] < 0) { openEnd[u] = p; live.push(u); }
      }
    }
    for (const r of live) if (openEnd[r] >= 0) { segs[r].push(start[b], openEnd[r]); openEnd[r] = -1; }
  }
  // Occupancy of each machine register as a bit per position, starting with its own (fixed)
  // uses: a candidate's segments are tested and claimed a word (32 positions) at a time.
  const busy: Uint32Array[] = [];
  const posWords = (npos + 31) >>> 5;
  for (let r = 0; r < FIRST_VREG; r++) {
    busy[r] = new Uint32Array(posWords);
    const s = segs[r];
    for (let k = 0; k < s.length; k += 2) setRange(busy[r], s[k], s[k + 1]);
  }
  // Coalescing: the two sides of a copy become one register class when their segments do not
  // overlap (copies in inner loops first). Two-address operands and phi copies vanish this way.
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  const find = (v: Reg): Reg => { while (parent[v] !== v) { parent[v] = parent[parent[v]]; v = parent[v]; } return v; };
  for (let v = FIRST_VREG; v < n; v++) if (segs[v].length > 2) segs[v] = sortSegments(segs[v]);
  const copies: { d: Reg; s: Reg; w: number }[] = [];
  for (const b of mf.order) for (const x of mf.blocks[b].insts) {
    if (x.fmt === 'MV' && isVirtual(x.defs[0]) && isVirtual(x.uses[0]) && x.defs[0] !== x.uses[0]) copies.push({ d: x.defs[0], s: x.uses[0], w: mf.blocks[b].depth });
  }
  copies.sort((a, b) => b.w - a.w);
  for (const c of copies) {
    const a = find(c.d), b = find(c.s);
    if (a === b || spillTemps.has(a) !== spillTemps.has(b)) continue;
    if (overlaps(segs[a], segs[b])) continue;
    segs[a] = mergeSegments(segs[a], segs[b]);
    segs[b] = [];
    cost[a] += cost[b];
    parent[b] = a;
  }
  // Copy partners of the classes, for hints (machine registers included).
  const partners: Reg[][] = Array.from({ length: n }, () => []);
  for (const b of mf.blocks) for (const x of b.insts) {
    if (x.fmt !== 'MV') continue;
    const d = find(x.defs[0]), s = find(x.uses[0]);
    if (d !== s) { partners[d].push(s); partners[s].push(d); }
  }
  const assign = new Int32Array(n).fill(-1);
  for (let r = 0; r < FIRST_VREG; r++) assign[r] = r;
  const vregs: Reg[] = [];
  for (let v = FIRST_VREG; v < n; v++) if (segs[v].length && find(v) === v) vregs.push(v);
  const length = (v: Reg): number => { let l = 0; const s = segs[v]; for (let k = 0; k < s.length; k += 2) l += s[k + 1] - s[k] + 1; return l; };
  const prio = new Float64Array(n);
  for (const v of vregs) prio[v] = spillTemps.has(v) ? Infinity : cost[v] / Math.sqrt(length(v));
  vregs.sort((a, b) => prio[b] - prio[a] || a - b);
  const reserved = new Set(mf.reserved);
  const free = (r: Reg, v: Reg): boolean => {
    const occ = busy[r], s = segs[v];
    for (let k = 0; k < s.length; k += 2) if (anyInRange(occ, s[k], s[k + 1])) return false;
    return true;
  };
  const spilledRoots: Reg[] = [];
  // Reloads take the argument registers in turn rather than all the first free one: the
  // scheduler after allocation can then move a reload up past its neighbours' instructions.
  let turn = 0;
  for (const v of vregs) {
    let got = -1;
    for (const q of partners[v]) {
      const r = assign[q];
      if (r >= 0 && ALLOCATABLE.includes(r) && !reserved.has(r) && free(r, v)) { got = r; break; }
    }
    if (got < 0 && spillTemps.has(v)) {
      for (let k = 0; k < 8 && got < 0; k++) { const r = ALLOCATABLE[(turn + k) % 8]; if (!reserved.has(r) && free(r, v)) got = r; }
      turn++;
    }
    if (got < 0) for (const r of ALLOCATABLE) if (!reserved.has(r) && free(r, v)) { got = r; break; }
    if (got < 0) {
      if (spillTemps.has(v)) throw new Error(`register allocation of '${mf.name}': no register for a reload (too many values live at once)`);
      spilledRoots.push(v);
      continue;
    }
    assign[v] = got;
    const s = segs[v];
    for (let k = 0; k < s.length; k += 2) setRange(busy[got], s[k], s[k + 1]);
  }
  // The spilled classes with their members (one pass over the registers).
  const spilled: Reg[][] = spilledRoots.map(() => []);
  if (spilledRoots.length) {
    const slot = new Map(spilledRoots.map((v, i) => [v, i]));
    for (let u = FIRST_VREG; u < n; u++) { const i = slot.get(find(u)); if (i !== undefined) spilled[i].push(u); }
  }
  for (let v = FIRST_VREG; v < n; v++) assign[v] = assign[find(v)];
  return { assign, spilled };
}

const tracked = (r: Reg): boolean => r !== 0 && r !== SP && r !== 3 && r !== 4;

/**
 * The registers live out of each laid-out block, found per register by walking back from its
 * upward-exposed uses to its definitions: work in proportion to the live ranges, where a bit set
 * per block would cost blocks x registers (a 2 MB Network.c has functions with thousands of
 * both).
 */
function liveOutLists(mf: MFunction, n: number): Reg[][] {
  const nb = mf.blocks.length;
  const preds: number[][] = Array.from({ length: nb }, () => []);
  for (const b of mf.order) for (const s of mf.blocks[b].succs) preds[s].push(b);
  // Upward-exposed uses (blocks where a register is read before any write) and defining blocks.
  const exposed: (number[] | undefined)[] = new Array(n);
  const defining: (number[] | undefined)[] = new Array(n);
  const defHere = new Int32Array(n).fill(-1);
  for (const b of mf.order) {
    for (const x of mf.blocks[b].insts) {
      for (const u of x.uses) {
        if (!tracked(u) || defHere[u] === b) continue;
        const l = (exposed[u] ??= []);
        if (l[l.length - 1] !== b) l.push(b);
      }
      for (const d of x.defs) {
        if (!tracked(d) || defHere[d] === b) continue;
        defHere[d] = b;
        (defining[d] ??= []).push(b);
      }
    }
  }
  const liveOut: Reg[][] = Array.from({ length: nb }, () => []);
  const defMark = new Int32Array(nb).fill(-1), inMark = new Int32Array(nb).fill(-1), outMark = new Int32Array(nb).fill(-1);
  const work: number[] = [];
  for (let r = 0; r < n; r++) {
    const uses = exposed[r];
    if (!uses) continue;
    for (const b of defining[r] ?? []) defMark[b] = r;
    for (const b of uses) if (inMark[b] !== r) { inMark[b] = r; work.push(b); }
    while (work.length) {
      const b = work.pop()!;
      for (const p of preds[b]) {
        if (outMark[p] !== r) { outMark[p] = r; liveOut[p].push(r); }
        if (defMark[p] !== r && inMark[p] !== r) { inMark[p] = r; work.push(p); }
      }
    }
  }
  return liveOut;
}

/** Sets bits a..b (inclusive) of a bit set. */
function setRange(bits: Uint32Array, a: number, b: number): void {
  const wa = a >>> 5, wb = b >>> 5;
  const lo = ~0 << (a & 31), hi = ~0 >>> (31 - (b & 31));
  if (wa === wb) { bits[wa] |= lo & hi; return; }
  bits[wa] |= lo;
  for (let w = wa + 1; w < wb; w++) bits[w] = ~0;
  bits[wb] |= hi;
}

/** Whether any of bits a..b (inclusive) of a bit set is set. */
function anyInRange(bits: Uint32Array, a: number, b: number): boolean {
  const wa = a >>> 5, wb = b >>> 5;
  const lo = ~0 << (a & 31), hi = ~0 >>> (31 - (b & 31));
  if (wa === wb) return (bits[wa] & lo & hi) !== 0;
  if (bits[wa] & lo) return true;
  for (let w = wa + 1; w < wb; w++) if (bits[w]) return true;
  return (bits[wb] & hi) !== 0;
}

/**
 * Rewrites the spilled register classes (one stack slot per class for all its members): reloads
 * before uses, stores after definitions; a copy between two members of a class disappears; a
 * class made by one constant or frame address is recomputed at each use instead. One pass over
 * the code for all of them.
 */
function spill(mf: MFunction, classes: Reg[][], temps: Set<Reg>): void {
  const classOf = new Map<Reg, number>();
  classes.forEach((members, c) => { for (const r of members) classOf.set(r, c); });
  const defs: MInst[][] = classes.map(() => []);
  for (const b of mf.blocks) for (const x of b.insts) {
    for (const d of x.defs) { const c = classOf.get(d); if (c !== undefined && defs[c].at(-1) !== x) defs[c].push(x); }
  }
  const remat = defs.map((ds) => (ds.length === 1 && ds[0].uses.length === 0 && (ds[0].fmt === 'LI' || (ds[0].op === 'addi' && ds[0].fi !== undefined) || ds[0].op === 'lui') ? ds[0] : undefined));
  const fi = remat.map((r) => (r ? -1 : mf.frame.push({ kind: 'spill', size: 4, align: 4, offset: 0 }) - 1));
  for (const b of mf.blocks) {
    const out: MInst[] = [];
    for (const x of b.insts) {
      if (!x.uses.some((u) => classOf.has(u)) && !x.defs.some((d) => classOf.has(d))) { out.push(x); continue; }
      const d0 = x.defs.length === 1 ? classOf.get(x.defs[0]) : undefined;
      if (d0 !== undefined && remat[d0] === x) continue;
      if (x.fmt === 'MV' && d0 !== undefined && classOf.get(x.uses[0]) === d0) continue;
      // A temporary per class the instruction touches: reloaded before, stored after.
      const temp = new Map<number, Reg>();
      const tempOf = (c: number): Reg => {
        let t = temp.get(c);
        if (t === undefined) { t = mf.nregs++; temps.add(t); temp.set(c, t); }
        return t;
      };
      const reloads = new Set<number>(), stores = new Set<number>();
      x.uses = x.uses.map((u) => { const c = classOf.get(u); if (c === undefined) return u; reloads.add(c); return tempOf(c); });
      x.defs = x.defs.map((d) => { const c = classOf.get(d); if (c === undefined) return d; stores.add(c); return tempOf(c); });
      if (x.early) x.early = x.early.map((d) => { const c = classOf.get(d); return c === undefined ? d : tempOf(c); });
      for (const c of reloads) {
        const r = remat[c];
        if (r) out.push({ ...r, defs: [temp.get(c)!], loc: x.loc });
        else out.push({ op: 'lw', fmt: 'L', defs: [temp.get(c)!], uses: [], fi: fi[c], imm: 0, loc: x.loc });
      }
      out.push(x);
      for (const c of stores) out.push({ op: 'sw', fmt: 'S', defs: [], uses: [temp.get(c)!], fi: fi[c], imm: 0, loc: x.loc, sideEffect: true });
    }
    b.insts = out;
  }
}

/** Segment pairs sorted by start, touching ones joined. */
function sortSegments(s: number[]): number[] {
  const idx: number[] = [];
  for (let k = 0; k < s.length; k += 2) idx.push(k);
  idx.sort((a, b) => s[a] - s[b]);
  const out: number[] = [];
  for (const k of idx) {
    const n = out.length;
    if (n && s[k] <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], s[k + 1]);
    else out.push(s[k], s[k + 1]);
  }
  return out;
}

function overlaps(a: number[], b: number[]): boolean {
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1] < b[j]) i += 2;
    else if (b[j + 1] < a[i]) j += 2;
    else return true;
  }
  return false;
}

function mergeSegments(a: number[], b: number[]): number[] {
  const all: number[] = [];
  for (let k = 0; k < a.length; k++) all.push(a[k]);
  for (let k = 0; k < b.length; k++) all.push(b[k]);
  return sortSegments(all);
}

function rewrite(mf: MFunction, assign: Int32Array): void {
  const laid = new Set(mf.order);
  mf.blocks.forEach((b, i) => { if (!laid.has(i)) b.insts = []; });
  for (const b of mf.blocks) {
    b.insts = b.insts.filter((x) => {
      x.defs = x.defs.map((d) => assign[d]);
      x.uses = x.uses.map((u) => assign[u]);
      for (const r of [...x.defs, ...x.uses]) if (r < 0) throw new Error(`register allocation of '${mf.name}' left a register unassigned in '${x.op}'`);
      return !(x.fmt === 'MV' && x.defs[0] === x.uses[0]);
    });
  }
}
