// Hardware loops (CORE-V xcvhwlp, CORE-V builds only). A counted loop pays a compare and a
// taken branch per iteration (3 cycles on CV32E40P); with `cv.setup L, count, end` before it the
// core jumps back from the body's end for free. This finds, on the optimised IR before
// selection, the loops that may use one; isel (setupHwLoop, the latch in branch) and emit (the
// end label, alignment, no compressed code) do the rest.
//
// A loop qualifies when:
// - it is one block H that branches to itself or to its exit X, entered from one block P (a
//   rotated loop: the do-while form opt/rotate.ts makes), so the body is contiguous and its
//   last instruction is no branch once the back edge is gone;
// - the exit test compares `next = iv + s` (iv a phi of H, s = +-2^k), or next plus a constant,
//   with a bound defined outside H, so the trip count is known on entry: (bound - init + |s| - 1) >> k for < and >,
//   (bound - init) >> k, plus 1, for <= and >=, +-(bound - init) >> k for != (a bound the steps never meet
//   would loop forever: undefined behaviour for a loop without side effects, a wild write otherwise);
// - the body makes no call (the callee may use the loops), holds no inline asm but straight-line
//   instructions (straightAsm), no
//   memcpy/memset or 64-bit division/shift (they may become calls or loops) and no return;
// - no phi of H is read after the loop (the back edge's copies now also run on the last pass),
//   but induction variables, corrected at the exit.
// Only loop 0 is used: a one-block body holds no other loop, and a call would have disqualified
// it, so no other hardware loop is active while it runs.
//
// The CV32E40P manual's constraints, and where they are kept: start and end 32-bit aligned and
// no compressed instruction in the body (emit: .p2align 2 and .option norvc around it); at least
// 3 instructions (emit pads with nops); the last one no branch, jump or hwloop instruction (the
// body has none); entered only from its start (one block, one entry); count >= 1 (the body of
// a do-while runs at least once: a count that would be 0 or less is made 1 unless the entry's
// guard already proves it positive); body under 4096 words (MAX_INSTS IR instructions).
import type { Inst, IrFunction, Op } from '../ir';

export type HwKind = 'lt' | 'le' | 'gt' | 'ge' | 'ne';

export interface HwLoop {
  header: number;
  exit: number;
  /** The block entering the loop; the edge P -> H gets a block of its own with the setup. */
  pre: number;
  /** IR values: the induction variable's start (from pre) and the bound (-1: the constant 0). */
  init: number;
  /** Induction variables read after the loop: each holds its value + step at the exit. */
  fixups: { phi: number; step: number }[];
  /** A constant the tests add to the induction variable (`j + 8 <= L`): the count starts from init + it. */
  initOffset: number;
  bound: number;
  /** The continue condition `next kind bound`; unsigned compare. */
  kind: HwKind;
  unsigned: boolean;
  /** The step is negative. */
  down: boolean;
  /** log2 |step|. */
  shift: number;
  /** The trip count when init and bound are constants. */
  constCount?: number;
  /** The entry is taken only when the first test would pass (the rotation's guard): count >= 1 as computed. */
  guarded: boolean;
  /** The phi and the increment, when nothing else reads them: not computed at all. */
  deadIv?: { phi: Inst; next: Inst };
}

const MAX_INSTS = 300;
const BARRED = new Set<Op>(['call', 'memcpy', 'memset', 'ret', 'switch', 'unreachable', 'clz', 'ctz', 'popcount']);
const NEG: Partial<Record<Op, Op>> = { eq: 'ne', ne: 'eq', slt: 'sge', sge: 'slt', sgt: 'sle', sle: 'sgt', ult: 'uge', uge: 'ult', ugt: 'ule', ule: 'ugt' };
const SWAP: Partial<Record<Op, Op>> = { eq: 'eq', ne: 'ne', slt: 'sgt', sgt: 'slt', sle: 'sge', sge: 'sle', ult: 'ugt', ugt: 'ult', ule: 'uge', uge: 'ule' };

export function findHwLoops(f: IrFunction): Map<number, HwLoop> {
  const out = new Map<number, HwLoop>();
  const def: (Inst | undefined)[] = [];
  const defBlock: number[] = [];
  const users: Inst[][] = [];
  const blockOf = new Map<Inst, number>();
  const preds: number[][] = f.blocks.map(() => []);
  f.blocks.forEach((b, bi) => {
    for (const x of b.insts) {
      if (x.dst >= 0) { def[x.dst] = x; defBlock[x.dst] = bi; }
      if (x.op === 'asm') for (const o of x.asm!.outs) defBlock[o] = bi;
      for (const a of x.args) (users[a] ??= []).push(x);
      blockOf.set(x, bi);
    }
    const t = b.insts[b.insts.length - 1];
    for (const s of new Set(t?.targets ?? [])) preds[s].push(bi);
  });
  const constOf = (v: number): number | undefined => {
    const d = def[v];
    return d?.op === 'const' && d.ty !== 'i64' ? Number(d.imm) | 0 : undefined;
  };
  const invariant = (v: number, h: number): boolean => defBlock[v] !== h || constOf(v) !== undefined;
  /** next = iv +- constant, in block h, at 32 bits. */
  const isStep = (x: Inst | undefined, h: number): boolean =>
    !!x && (x.op === 'add' || x.op === 'sub') && x.ty !== 'i64' && defBlock[x.dst] === h && constOf(x.args[1]) !== undefined;

  /**
   * The tested value: next itself, or next + d (a test `j + 8 <= L` after `j += 8`): the tests
   * then see an induction variable that starts at init + d, whose trip count is the same.
   */
  const stepOf = (v: number, h: number): { next: Inst; offset: number } | undefined => {
    const d = def[v];
    if (isStep(d, h)) return { next: d!, offset: 0 };
    const k = d && d.op === 'add' && d.ty !== 'i64' && defBlock[d.dst] === h ? constOf(d.args[1]) : undefined;
    return k !== undefined && isStep(def[d!.args[0]], h) ? { next: def[d!.args[0]]!, offset: k } : undefined;
  };

  f.blocks.forEach((blk, h) => {
    const br = blk.insts[blk.insts.length - 1];
    if (br?.op !== 'br' || blk.insts.length > MAX_INSTS) return;
    const [t, e] = br.targets!;
    if ((t === h) === (e === h)) return;
    const exit = t === h ? e : t;
    const outside = preds[h].filter((p) => p !== h);
    if (outside.length !== 1 || preds[h].length !== 2) return;
    const pre = outside[0];
    if (blk.insts.some((x) => BARRED.has(x.op) || (x.op === 'asm' && !straightAsm(x.asm!.template)) || (x.ty === 'i64' && /div|rem|sh/.test(x.op)))) return;
    // No phi of H read outside it, except an induction variable (p = [init, p + c]): the last
    // pass's copies leave p + c in it, so the exit takes c off again.
    const fixups: { phi: number; step: number }[] = [];
    for (const x of blk.insts) {
      if (x.op !== 'phi') continue;
      if (!(users[x.dst] ?? []).some((u) => blockOf.get(u) !== h)) continue;
      const back = x.targets!.indexOf(h), n = back < 0 ? undefined : def[x.args[back]];
      const k = n && isStep(n, h) && n.args[0] === x.dst ? constOf(n.args[1]) : undefined;
      if (k === undefined || x.ty === 'i64') return;
      fixups.push({ phi: x.dst, step: n!.op === 'sub' ? -k : k });
    }
    // The exit test: cmp(next, bound) read by the branch alone, or next itself (`next != 0`;
    // bound -1 stands for the constant 0).
    const c = def[br.args[0]];
    if (!c || defBlock[c.dst] !== h) return;
    let op: Op, x: number, bound: number, next: Inst | undefined, offset = 0;
    if (isStep(c, h)) [op, next, bound] = [t === h ? 'ne' : 'eq', c, -1];
    else {
      if (!SWAP[c.op] || c.ty === 'i64' || (users[c.dst] ?? []).length !== 1) return;
      op = t === h ? c.op : NEG[c.op]!;
      [x, bound] = c.args;
      let s = stepOf(x, h);
      if (!s) { [x, bound] = [bound, x]; s = stepOf(x, h); op = SWAP[op]!; }
      if (!s || !invariant(bound, h)) return;
      [next, offset] = [s.next, s.offset];
    }
    if (!next) return;
    if (op === 'eq') return;
    const stepConst = constOf(next.args[1])!;
    const step = next.op === 'sub' ? -stepConst : stepConst;
    const phi = def[next.args[0]];
    if (phi?.op !== 'phi' || defBlock[phi.dst] !== h || phi.args.length !== 2) return;
    const fromPre = phi.targets!.indexOf(pre), fromH = phi.targets!.indexOf(h);
    if (fromPre < 0 || fromH < 0 || phi.args[fromH] !== next.dst) return;
    const init = phi.args[fromPre];
    const mag = Math.abs(step);
    if (!mag || mag & (mag - 1) || mag > 1024) return;
    const unsigned = c.ty === 'ptr' || op[0] === 'u' || bound < 0;
    const rel = op.replace(/^[su]/, '');
    let kind: HwKind;
    if (rel === 'ne') kind = 'ne'; // a step of 2^k reaches the bound in (bound - init) >> k (never, and undefined, otherwise)
    else if (step > 0 && (rel === 'lt' || rel === 'le')) kind = rel;
    else if (step < 0 && (rel === 'gt' || rel === 'ge')) kind = rel;
    else return;
    const loop: HwLoop = { header: h, exit, pre, init, initOffset: offset, fixups, bound, kind, unsigned, down: step < 0, shift: Math.log2(mag), guarded: false };
    const a0 = constOf(init), a = a0 === undefined ? undefined : (a0 + offset) | 0, b = bound < 0 ? 0 : constOf(bound);
    if (a !== undefined && b !== undefined) {
      const n = constTrips(a, b, step, kind, unsigned);
      if (n === undefined) return;
      loop.constCount = n;
    } else if (kind !== 'ne' && !offset) loop.guarded = guardedEntry(f, pre, h, init, bound, rel, unsigned, def, preds, constOf);
    // The induction variable only counts: drop it (the hardware counts).
    const phiUsers = users[phi.dst] ?? [], nextUsers = users[next.dst] ?? [];
    const tester = c === next ? br : c;
    if (phiUsers.length === 1 && phiUsers[0] === next && nextUsers.length === 2 && nextUsers.includes(tester) && nextUsers.includes(phi)) {
      loop.deadIv = { phi, next };
    }
    out.set(h, loop);
  });
  return out;
}

/**
 * Inline asm a hardware loop body may hold (the kernels' cv.lw / cv.sdotsp wrappers): no label,
 * directive, branch, jump, call, trap, CSR, fence, hardware loop or compressed instruction.
 */
export function straightAsm(template: string): boolean {
  return template.split(/[\n;]/).map((l) => l.trim()).filter(Boolean).every((l) =>
    !l.includes(':') && !/^(\.|b|j|c\.|cv\.b|cv\.(setup|start|end|count)|csr|call|tail|ret|ecall|ebreak|wfi|mret|fence|la\b)/i.test(l));
}

/** The exact trip count of the do-while from constants, or undefined if the value would wrap (or it exceeds 2^31). */
function constTrips(a: number, b: number, step: number, kind: HwKind, unsigned: boolean): number | undefined {
  const v = (n: number): bigint => BigInt(unsigned ? n >>> 0 : n);
  const A = v(a), B = v(b), S = BigInt(step);
  let n: bigint;
  if (kind === 'ne') {
    const m = S < 0n ? -S : S, d = BigInt.asUintN(32, (B - A) * (S < 0n ? -1n : 1n));
    if (d === 0n || d % m !== 0n) return undefined;
    return d / m <= 0x7fffffffn ? Number(d / m) : undefined;
  }
  const span = kind === 'lt' || kind === 'le' ? B - A : A - B;
  const m = S < 0n ? -S : S;
  if (kind === 'lt' || kind === 'gt') n = span > 0n ? (span + m - 1n) / m : 1n;
  else n = span >= 0n ? span / m + 1n : 1n;
  // The last value tested, A + n*S, must not wrap out of the type's range.
  const last = A + n * S;
  const [lo, hi] = unsigned ? [0n, 0xffffffffn] : [-0x80000000n, 0x7fffffffn];
  if (last < lo || last > hi || n > 0x7fffffffn) return undefined;
  return Number(n);
}

/** pre enters h only when `init op bound` holds (the rotation's guard), so the computed count is >= 1. */
function guardedEntry(f: IrFunction, pre: number, h: number, init: number, bound: number, rel: string, unsigned: boolean,
  def: (Inst | undefined)[], preds: number[][], constOf: (v: number) => number | undefined): boolean {
  const same = (a: number, b: number): boolean => a === b || (constOf(a) !== undefined && constOf(a) === constOf(b));
  // The guard may sit above the preheader LICM made (blocks that only jump on, one entry each).
  let from = h, p = pre;
  let t = f.blocks[p].insts[f.blocks[p].insts.length - 1];
  for (let k = 0; k < 4 && t?.op === 'jmp' && preds[p].length === 1; k++) {
    from = p;
    p = preds[p][0];
    t = f.blocks[p].insts[f.blocks[p].insts.length - 1];
  }
  if (t?.op !== 'br') return false;
  const [tt, ft] = t.targets!;
  if (tt === ft || (tt !== from && ft !== from)) return false;
  const c = def[t.args[0]];
  if (!c || !SWAP[c.op]) return false;
  let g: Op = tt === from ? c.op : NEG[c.op]!;
  let [x, y] = c.args;
  if (!same(x, init)) { [x, y] = [y, x]; g = SWAP[g]!; }
  const uns = c.ty === 'ptr' || g[0] === 'u';
  if (same(x, init) && same(y, bound) && g.replace(/^[su]/, '') === rel && uns === unsigned) return true;
  // From 0 unsigned: `bound != 0` is `0 < bound`.
  return g === 'ne' && constOf(init) === 0 && unsigned && (rel === 'lt' || rel === 'ne') && same(x, bound) && constOf(y) === 0;
}
