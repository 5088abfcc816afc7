// Full unrolling of innermost loops with a small constant trip count: the header tests an
// induction variable (a header phi starting at a constant, stepped by a constant) against a
// constant, and leaves the loop only there. The trip count is found by running the header's
// test and the step with the interpreter's arithmetic, so wrap-around and unsigned compares are
// exact. The body is copied once per iteration, each copy's back edge going to the next copy's
// header, the last header going out; SCCP and SROA then see constant indices.
// `#pragma GCC unroll N`: N >= the trip count unrolls fully even past the size budget; 0 or 1
// forbids unrolling. Below the trip count, or with a trip count known only at run time, the
// loop is unrolled by N: a counted loop (i < n or i != n, n invariant, a power-of-two step)
// gets a main loop of N copies without exit tests, run trip/N times by a counter (a hardware
// loop later), and keeps the original loop for the rest; other loops keep every copy's test.
import type { Inst, IrFunction, IrType } from '../ir';
import { dominators, findLoops, type Loop } from './dom';
import { foldInst, truthy, type Val } from './fold';
import { blockPragmas, cloneInst, definitions, defsOf, successors, terminator, vregTypes } from './util';

export interface UnrollOptions {
  /** Most iterations unrolled. */
  maxTrip: number;
  /** Most instructions the unrolled copies may hold. */
  budget: number;
}

export const UNROLL_DEFAULTS: UnrollOptions = { maxTrip: 32, budget: 600 };

/** Unrolls every innermost loop it can; returns how many. */
export function unrollLoops(f: IrFunction, opts: UnrollOptions = UNROLL_DEFAULTS): number {
  const d = dominators(f);
  const loops = findLoops(f, d).filter((l) => l.inner.length === 0);
  if (!loops.length) return 0;
  const def = definitions(f);
  let n = 0;
  for (const l of loops) {
    const trip = tripCount(f, l, def, d.preds);
    const body = [...l.blocks].reduce((s, b) => s + f.blocks[b].insts.length, 0);
    const pragma = unrollPragma(f, l);
    if (pragma !== undefined && pragma <= 1) continue;
    if (pragma !== undefined && (trip === undefined || pragma < trip)) {
      // Unroll by the pragma's factor; the copies keep their exit tests unless the trip count is
      // a known multiple of the factor.
      if (pragma * body > 16 * opts.budget || !shape(f, l, d.preds)) continue;
      const exact = trip !== undefined && trip % pragma === 0;
      const iv = exact ? undefined : countedBy(f, l, def, d.preds, pragma);
      if (iv) unrollRuntime(f, l, pragma, iv, d.preds);
      else unrollBy(f, l, pragma, exact, d.preds);
      clearPragma(f, l);
      n++;
      continue;
    }
    if (trip === undefined) continue;
    const forced = pragma !== undefined && pragma >= trip;
    if (trip > (forced ? 4 * opts.maxTrip : opts.maxTrip)) continue;
    if (!forced && trip * body > opts.budget) continue;
    if (trip * body > 16 * opts.budget) continue;
    unroll(f, l, trip, d.preds);
    n++;
  }
  return n;
}

/** The loop's pragmas are used up once it is unrolled (its copies would be unrolled again). */
function clearPragma(f: IrFunction, l: Loop): void {
  for (const x of f.blocks[l.header].insts) if (x.pragmas) x.pragmas = x.pragmas.filter((p) => !/^GCC\s+unroll/.test(p.trim()));
}

function unrollPragma(f: IrFunction, l: Loop): number | undefined {
  for (const p of blockPragmas(f.blocks[l.header])) {
    const m = /^GCC\s+unroll\s+(\d+)/.exec(p.trim());
    if (m) return Number(m[1]);
  }
  return undefined;
}

interface Shape { exit: number; inTarget: number; latch: number; outside: number }

/** The loop's shape if unrollable: one exit (the header's branch), one latch, one entry edge. */
function shape(f: IrFunction, l: Loop, preds: number[][]): Shape | undefined {
  const h = l.header;
  const t = terminator(f.blocks[h]);
  if (t.op !== 'br') return undefined;
  const [a, b] = t.targets!;
  if (l.blocks.has(a) === l.blocks.has(b)) return undefined;
  const exit = l.blocks.has(a) ? b : a;
  for (const bl of l.blocks) {
    if (bl === h) continue;
    for (const s of successors(f.blocks[bl])) if (!l.blocks.has(s)) return undefined;
  }
  if (l.latches.length !== 1) return undefined;
  const outside = preds[h].filter((p) => !l.blocks.has(p));
  const inside = preds[h].filter((p) => l.blocks.has(p));
  if (outside.length !== 1 || inside.length !== 1) return undefined;
  return { exit, inTarget: exit === a ? b : a, latch: l.latches[0], outside: outside[0] };
}

/** The number of times the body runs, if constant and at most a few hundred. */
function tripCount(f: IrFunction, l: Loop, def: (Inst | undefined)[], preds: number[][]): number | undefined {
  const s = shape(f, l, preds);
  if (!s) return undefined;
  const h = f.blocks[l.header];
  const br = terminator(h);
  const cmp = def[br.args[0]];
  if (!cmp || cmp.args.length !== 2 || !['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'].includes(cmp.op)) return undefined;
  const cv = (r: number): Val | undefined => (def[r]?.op === 'const' ? def[r]!.imm : undefined);
  const ivSide = cv(cmp.args[1]) !== undefined ? 0 : cv(cmp.args[0]) !== undefined ? 1 : -1;
  if (ivSide < 0) return undefined;
  const phi = def[cmp.args[ivSide]];
  if (!phi || phi.op !== 'phi' || !h.insts.includes(phi)) return undefined;
  const init = cv(phi.args[phi.targets!.indexOf(s.outside)]);
  const next = def[phi.args[phi.targets!.indexOf(s.latch)]];
  if (init === undefined || !next || (next.op !== 'add' && next.op !== 'sub') || next.args[0] !== phi.dst || cv(next.args[1]) === undefined) return undefined;
  const limit = cv(cmp.args[1 - ivSide])!;
  const step = cv(next.args[1])!;
  const stay = br.targets![0] === s.inTarget;
  let v: Val = init;
  for (let n = 0; n <= 512; n++) {
    const c = foldInst(cmp, (i) => (i === ivSide ? v : limit));
    if (c === undefined) return undefined;
    if (truthy(c) !== stay) return n;
    const w = foldInst(next, (i) => (i === 0 ? v : step));
    if (w === undefined) return undefined;
    v = w;
  }
  return undefined;
}

/** The copies of a loop an unrolling makes: per copy, its blocks and values (copy 0 is the loop itself). */
interface LoopCopies {
  bmaps: Map<number, number>[];
  /** Values defined in the loop. */
  inLoop: Uint8Array;
  /** Value r as copy k has it. */
  val(k: number, r: number): number;
  /**
   * Instruction x as copy k has it: x itself for copy 0, else a clone (without pragmas) defining
   * copy k's values; with `operands`, also reading them and branching to copy k's blocks.
   */
  copy(x: Inst, k: number, operands: boolean): Inst;
}

/** Makes `count` copies of the loop's `blocks` (copy k holds `blocksOf(k)`), empty new blocks and fresh values. */
function loopCopies(f: IrFunction, blocks: number[], count: number, blocksOf: (k: number) => number[]): LoopCopies {
  const inLoop = new Uint8Array(f.nregs);
  for (const b of blocks) for (const x of f.blocks[b].insts) for (const r of defsOf(x)) inLoop[r] = 1;
  const bmaps: Map<number, number>[] = [];
  const vmaps: Map<number, number>[] = [];
  for (let k = 0; k < count; k++) {
    const bm = new Map<number, number>();
    const vm = new Map<number, number>();
    for (const b of blocksOf(k)) {
      bm.set(b, k === 0 ? b : f.blocks.length);
      if (k > 0) f.blocks.push({ insts: [] });
      for (const x of f.blocks[b].insts) for (const r of defsOf(x)) vm.set(r, k === 0 ? r : f.nregs++);
    }
    bmaps.push(bm);
    vmaps.push(vm);
  }
  const val = (k: number, r: number): number => (inLoop[r] ? vmaps[k].get(r)! : r);
  const copy = (x: Inst, k: number, operands: boolean): Inst => {
    if (k === 0) return x;
    const y = cloneInst(x);
    delete y.pragmas;
    if (y.dst >= 0) y.dst = vmaps[k].get(x.dst)!;
    if (y.asm) y.asm.outs = x.asm!.outs.map((r) => vmaps[k].get(r)!);
    if (operands) {
      y.args = x.args.map((r) => val(k, r));
      if (y.op === 'phi') y.targets = x.targets!.map((t) => bmaps[k].get(t)!);
    }
    return y;
  };
  return { bmaps, inLoop, val, copy };
}

function unroll(f: IrFunction, l: Loop, trip: number, preds: number[][]): void {
  const s = shape(f, l, preds)!;
  const h = l.header;
  const blocks = [...l.blocks];
  const firstNew = f.blocks.length;
  // Copies 0..trip-1 of the loop, and a last header copy that only exits.
  const c = loopCopies(f, blocks, trip + 1, (k) => (k === trip ? [h] : blocks));
  const { bmaps, inLoop, val } = c;
  const original = new Map(blocks.map((b) => [b, f.blocks[b].insts]));
  for (let k = trip; k >= 0; k--) {
    for (const b of k === trip ? [h] : blocks) {
      const out: Inst[] = [];
      for (const x of original.get(b)!) {
        if (x.op === 'phi' && b === h) {
          // The header: copy 0 keeps its entry from outside; later copies come from the previous latch.
          const y = c.copy(x, k, false);
          const li = x.targets!.indexOf(s.latch);
          if (k === 0) {
            const oi = x.targets!.indexOf(s.outside);
            y.args = [x.args[oi]];
            y.targets = [s.outside];
          } else {
            y.args = [val(k - 1, x.args[li])];
            y.targets = [bmaps[k - 1].get(s.latch)!];
          }
          out.push(y);
          continue;
        }
        const y = c.copy(x, k, true);
        if (y.op === 'br' && b === h) {
          out.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [k === trip ? s.exit : bmaps[k].get(s.inTarget)!], loc: x.loc });
          continue;
        }
        if (y.targets && y.op !== 'phi') y.targets = x.targets!.map((t) => (t === h ? bmaps[k + 1].get(h)! : bmaps[k].get(t)!));
        out.push(y);
      }
      f.blocks[bmaps[k].get(b)!].insts = out;
    }
  }
  // No iteration (a test SCCP did not fold first): nothing reaches the body now; it ends
  // unreachable, so it is nobody's predecessor (the header's phis lost their entries from it).
  if (trip === 0) for (const b of blocks) if (b !== h) f.blocks[b].insts = [{ op: 'unreachable', ty: 'i32', dst: -1, args: [], loc: f.loc }];
  // Leaving the loop now happens from the last header copy, with its values.
  const last = bmaps[trip].get(h)!;
  // (Only the header's values can be used outside: nothing else in the loop dominates the exit.)
  for (let bi = 0; bi < firstNew; bi++) {
    if (l.blocks.has(bi)) continue;
    for (const x of f.blocks[bi].insts) {
      if (x.op === 'phi' && bi === s.exit) x.targets = x.targets!.map((t) => (t === h ? last : t));
      for (let i = 0; i < x.args.length; i++) if (inLoop[x.args[i]]) x.args[i] = val(trip, x.args[i]);
    }
  }
}

/**
 * Partial unrolling: `factor` copies of the loop one after another, the last copy's back edge
 * going to the first header. Each header copy keeps its exit test (to a new block whose phis
 * gather the values leaving the loop), except when `exact` (the trip count is a multiple of the
 * factor): then only the first copy tests.
 */
function unrollBy(f: IrFunction, l: Loop, factor: number, exact: boolean, preds: number[][]): void {
  const s = shape(f, l, preds)!;
  const h = l.header;
  const blocks = [...l.blocks];
  const firstNew = f.blocks.length;
  const types = vregTypes(f);
  const c = loopCopies(f, blocks, factor, () => blocks);
  const { bmaps, inLoop, val } = c;
  // The values of the header leaving the loop, merged from every header copy that exits.
  const exiting = exact ? [0] : Array.from({ length: factor }, (_, k) => k);
  const usedOutside = new Set<number>();
  for (let bi = 0; bi < firstNew; bi++) {
    if (l.blocks.has(bi)) continue;
    for (const x of f.blocks[bi].insts) for (const a of x.args) if (inLoop[a]) usedOutside.add(a);
  }
  const x0 = f.blocks.length;
  const exitPhis = new Map<number, number>();
  const loc = terminator(f.blocks[h]).loc;
  const xInsts: Inst[] = [];
  for (const r of usedOutside) {
    const dst = f.nregs++;
    exitPhis.set(r, dst);
    xInsts.push({ op: 'phi', ty: types[r], dst, args: exiting.map((k) => val(k, r)), targets: exiting.map((k) => bmaps[k].get(h)!), loc });
  }
  xInsts.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [s.exit], loc });
  f.blocks.push({ insts: xInsts });
  const original = new Map(blocks.map((b) => [b, f.blocks[b].insts]));
  for (let k = factor - 1; k >= 0; k--) {
    for (const b of blocks) {
      const out: Inst[] = [];
      for (const x of original.get(b)!) {
        if (x.op === 'phi' && b === h) {
          const y = c.copy(x, k, false);
          const li = x.targets!.indexOf(s.latch);
          if (k === 0) {
            y.args = x.args.map((a, i) => (i === li ? val(factor - 1, a) : a));
            y.targets = x.targets!.map((t, i) => (i === li ? bmaps[factor - 1].get(s.latch)! : t));
          } else {
            y.args = [val(k - 1, x.args[li])];
            y.targets = [bmaps[k - 1].get(s.latch)!];
          }
          out.push(y);
          continue;
        }
        const y = c.copy(x, k, true);
        if (y.op === 'br' && b === h) {
          if (exact && k > 0) out.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [bmaps[k].get(s.inTarget)!], loc: x.loc });
          else {
            y.targets = x.targets!.map((t) => (t === s.exit ? x0 : bmaps[k].get(t)!));
            out.push(y);
          }
          continue;
        }
        if (y.targets && y.op !== 'phi') y.targets = x.targets!.map((t) => (t === h ? bmaps[(k + 1) % factor].get(h)! : bmaps[k].get(t)!));
        out.push(y);
      }
      f.blocks[bmaps[k].get(b)!].insts = out;
    }
  }
  // Outside the loop: the exit block is entered from the new block, with the merged values.
  for (let bi = 0; bi < firstNew; bi++) {
    if (l.blocks.has(bi)) continue;
    for (const x of f.blocks[bi].insts) {
      if (x.op === 'phi' && bi === s.exit) x.targets = x.targets!.map((t) => (t === h ? x0 : t));
      for (let i = 0; i < x.args.length; i++) if (inLoop[x.args[i]]) x.args[i] = exitPhis.get(x.args[i])!;
    }
  }
}

/**
 * A counted loop's test, normalised: the header phi `iv`, or `iv + offset`, stays below n
 * (kinds ult, slt), at most n (ule, sle), or other than n (ne).
 */
interface Counted { kind: 'ult' | 'slt' | 'ule' | 'sle' | 'ne'; ty: IrType; iv: Inst; offset: number; n: number; init: number; step: number }

const SWAP: Record<string, string> = { ult: 'ugt', ugt: 'ult', ule: 'uge', uge: 'ule', slt: 'sgt', sgt: 'slt', sle: 'sge', sge: 'sle', eq: 'eq', ne: 'ne' };
const NEGATE: Record<string, string> = { ult: 'uge', uge: 'ult', ugt: 'ule', ule: 'ugt', slt: 'sge', sge: 'slt', sgt: 'sle', sle: 'sgt', eq: 'ne', ne: 'eq' };

/** The loop's counted form, if its header tests a phi stepped by a power of two (plus a constant) against an invariant. */
function countedBy(f: IrFunction, l: Loop, def: (Inst | undefined)[], preds: number[][], factor: number): Counted | undefined {
  if (factor & (factor - 1)) return undefined;
  const s = shape(f, l, preds);
  if (!s) return undefined;
  const h = f.blocks[l.header];
  const br = terminator(h);
  const cmp = def[br.args[0]];
  if (!cmp || cmp.args.length !== 2 || !(cmp.op in SWAP) || (cmp.ty !== 'i32' && cmp.ty !== 'ptr')) return undefined;
  const constOf = (r: number): number | undefined => (def[r]?.op === 'const' && typeof def[r]!.imm === 'number' ? def[r]!.imm as number : undefined);
  const isPhi = (r: number): boolean => def[r]?.op === 'phi' && h.insts.includes(def[r]!);
  // The tested side: the phi itself, or the phi plus a constant.
  const ivOf = (r: number): [Inst, number] | undefined => {
    if (isPhi(r)) return [def[r]!, 0];
    const d = def[r], c = d && constOf(d.args[1]);
    if (d && (d.op === 'add' || d.op === 'sub') && c !== undefined && isPhi(d.args[0])) return [def[d.args[0]]!, d.op === 'add' ? c | 0 : -c | 0];
    return undefined;
  };
  const side = ivOf(cmp.args[0]) ? 0 : ivOf(cmp.args[1]) ? 1 : -1;
  if (side < 0) return undefined;
  const [iv, offset] = ivOf(cmp.args[side])!, n = cmp.args[1 - side];
  // n is computed before the loop
  for (const b of l.blocks) if (f.blocks[b].insts.some((x) => defsOf(x).includes(n))) return undefined;
  let op = side === 0 ? cmp.op : SWAP[cmp.op];
  if (br.targets![0] !== s.inTarget) op = NEGATE[op];
  const next = def[iv.args[iv.targets!.indexOf(s.latch)]];
  const c = next && next.args[0] === iv.dst ? constOf(next.args[1]) : undefined;
  if (c === undefined || (next!.op !== 'add' && next!.op !== 'sub')) return undefined;
  const step = next!.op === 'add' ? c | 0 : -c | 0;
  const init = iv.args[iv.targets!.indexOf(s.outside)];
  if ((op === 'ult' || op === 'slt' || op === 'ule' || op === 'sle') && step > 0 && !(step & (step - 1))) return { kind: op, ty: cmp.ty, iv, offset, n, init, step };
  if (op === 'ne' && (step === 1 || step === -1)) return { kind: 'ne', ty: cmp.ty, iv, offset, n, init, step };
  return undefined;
}

/**
 * Runtime unrolling of a counted loop by `factor` (a power of two):
 *
 *   P -> G:  if (!(e0 < n)) goto J                   (e != n: no test)
 *        G2: m = trip >> log2(factor); if (m == 0) goto J
 *        M:  q = phi(m, q-1); factor copies of the body, no exit tests; if (--q != 0) goto M
 *        J:  the header's values (from P's, or after the main loop) -> the loop itself, for the rest
 *
 * with trip = ((n - e0 - 1) >> log2(step)) + 1 for e < n (exact as unsigned once e0 < n; e0 the
 * tested value's first value), ((n - e0) >> log2(step)) + 1 for e <= n, n - e0 or e0 - n for
 * e != n: the iterations before the test fails or the value would wrap (the loop itself runs
 * whatever follows).
 */
function unrollRuntime(f: IrFunction, l: Loop, factor: number, cnt: Counted, preds: number[][]): void {
  const s = shape(f, l, preds)!;
  const h = l.header;
  const blocks = [...l.blocks];
  const loc = terminator(f.blocks[h]).loc;
  const headerPhis = f.blocks[h].insts.filter((x) => x.op === 'phi');
  // Copies 1..factor are the main loop; copy 0, the loop itself, runs what remains.
  const c = loopCopies(f, blocks, factor + 1, () => blocks);
  const { bmaps, val } = c;
  const G = f.blocks.length, G2 = G + 1, M = G + 2, J = G + 3;
  for (let i = 0; i < 4; i++) f.blocks.push({ insts: [] });
  const reg = (): number => f.nregs++;
  const inst = (op: Inst['op'], ty: Inst['ty'], args: number[], imm?: number): Inst => ({ op, ty, dst: reg(), args, loc, ...(imm !== undefined ? { imm } : {}) });
  const k = (v: number): Inst => inst('const', 'i32', [], v);
  const log2 = (v: number): number => 31 - Math.clz32(v);
  // G: the entry test (i < n forms), G2: the main loop's count.
  const g: Inst[] = [];
  const g2: Inst[] = [];
  // The tested value's first value (the phi's plus the offset).
  let e0 = cnt.init;
  if (cnt.offset) {
    const o = k(cnt.offset), e = inst('add', cnt.ty, [cnt.init, o.dst]);
    g.push(o, e);
    e0 = e.dst;
  }
  let trip: Inst;
  if (cnt.kind === 'ne') {
    trip = inst('sub', 'i32', cnt.step > 0 ? [cnt.n, e0] : [e0, cnt.n]);
    g2.push(trip);
    g.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [G2], loc });
  } else {
    // below n: ((n - e0 - 1) >> log2(step)) + 1 iterations once e0 < n; at most n: ((n - e0) >> log2(step)) + 1 once e0 <= n.
    const below = cnt.kind === 'ult' || cnt.kind === 'slt';
    const enter = inst(cnt.kind, cnt.ty, [e0, cnt.n]);
    g.push(enter, { op: 'br', ty: 'i32', dst: -1, args: [enter.dst], targets: [G2, J], loc });
    const diff = inst('sub', 'i32', [cnt.n, e0]), one = k(1), span = below ? inst('sub', 'i32', [diff.dst, one.dst]) : diff;
    const sh = k(log2(cnt.step)), q = inst('lshr', 'i32', [span.dst, sh.dst]);
    trip = inst('add', 'i32', [q.dst, one.dst]);
    g2.push(...new Set([diff, one, span]), sh, q, trip);
  }
  const fs = k(log2(factor)), m = inst('lshr', 'i32', [trip.dst, fs.dst]), zero = k(0), any = inst('ne', 'i32', [m.dst, zero.dst]);
  g2.push(fs, m, zero, any, { op: 'br', ty: 'i32', dst: -1, args: [any.dst], targets: [bmaps[1].get(h)!, J], loc });
  f.blocks[G].insts = g;
  f.blocks[G2].insts = g2;
  // The main loop: copy 1's header is its head, entered from G2 and from M (the counter's test).
  const head = bmaps[1].get(h)!;
  // The counter runs down to 0 (a `!=` test: a hardware loop's count is m itself, no max(m, 1)).
  const q = reg(), q1 = inst('sub', 'i32', [q, reg()]);
  const qOne: Inst = { op: 'const', ty: 'i32', dst: q1.args[1], args: [], imm: 1, loc };
  const more = inst('ne', 'i32', [q1.dst, zero.dst]);
  f.blocks[M].insts = [qOne, q1, more, { op: 'br', ty: 'i32', dst: -1, args: [more.dst], targets: [head, J], loc }];
  const original = new Map(blocks.map((b) => [b, f.blocks[b].insts]));
  const latchArg = (x: Inst): number => x.args[x.targets!.indexOf(s.latch)];
  const outsideArg = (x: Inst): number => x.args[x.targets!.indexOf(s.outside)];
  for (let kk = factor; kk >= 1; kk--) {
    for (const b of blocks) {
      const out: Inst[] = [];
      if (kk === 1 && b === h) out.push({ op: 'phi', ty: 'i32', dst: q, args: [m.dst, q1.dst], targets: [G2, M], loc });
      for (const x of original.get(b)!) {
        if (x.op === 'phi' && b === h) {
          const y = c.copy(x, kk, false);
          if (kk === 1) { y.args = [outsideArg(x), val(factor, latchArg(x))]; y.targets = [G2, M]; } else { y.args = [val(kk - 1, latchArg(x))]; y.targets = [bmaps[kk - 1].get(s.latch)!]; }
          out.push(y);
          continue;
        }
        const y = c.copy(x, kk, true);
        if (y.op === 'br' && b === h) { out.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [bmaps[kk].get(s.inTarget)!], loc: x.loc }); continue; }
        if (y.targets && y.op !== 'phi') y.targets = x.targets!.map((t) => (t === h ? (kk === factor ? M : bmaps[kk + 1].get(h)!) : bmaps[kk].get(t)!));
        out.push(y);
      }
      f.blocks[bmaps[kk].get(b)!].insts = out;
    }
  }
  // J: the loop's entry values, from before it (G, G2) or after the main loop (M).
  const jInsts: Inst[] = [];
  for (const x of headerPhis) {
    const dst = reg();
    const before = cnt.kind === 'ne' ? [G2] : [G, G2]; // G only jumps on for i != n
    jInsts.push({ op: 'phi', ty: x.ty, dst, args: [...before.map(() => outsideArg(x)), val(factor, latchArg(x))], targets: [...before, M], loc });
    const oi = x.targets!.indexOf(s.outside);
    x.args[oi] = dst;
    x.targets![oi] = J;
  }
  jInsts.push({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [h], loc });
  f.blocks[J].insts = jInsts;
  const pt = terminator(f.blocks[s.outside]);
  pt.targets = pt.targets!.map((t) => (t === h ? G : t));
}
