// Shared helpers of the optimiser's passes: the CFG's edges, vreg types and definitions, what an
// instruction reads and writes, and the rewrites every pass needs (renaming uses, fixing phis
// after edges change, deleting blocks).
import { isVecOp, type Block, type Inst, type IrFunction, type IrType, type Op } from '../ir';

export function isTerminator(op: Op): boolean {
  return op === 'br' || op === 'jmp' || op === 'switch' || op === 'ret' || op === 'unreachable';
}

export function isCompare(op: Op): boolean {
  switch (op) {
    case 'eq': case 'ne': case 'slt': case 'sle': case 'sgt': case 'sge': case 'ult': case 'ule': case 'ugt': case 'uge': return true;
    default: return false;
  }
}

export function isBinary(op: Op): boolean {
  switch (op) {
    case 'add': case 'sub': case 'mul': case 'sdiv': case 'udiv': case 'srem': case 'urem':
    case 'and': case 'or': case 'xor': case 'shl': case 'lshr': case 'ashr': return true;
    default: return isCompare(op);
  }
}

export function terminator(b: Block): Inst {
  return b.insts[b.insts.length - 1];
}

/** The successor blocks of a block, one per edge (a switch's cases may repeat a target). */
export function successors(b: Block): number[] {
  const t = terminator(b);
  return t && (t.op === 'br' || t.op === 'jmp' || t.op === 'switch') ? t.targets! : [];
}

/** Each block's predecessors, one entry per edge. */
export function predecessors(f: IrFunction): number[][] {
  const preds: number[][] = f.blocks.map(() => []);
  f.blocks.forEach((b, i) => { for (const s of successors(b)) preds[s].push(i); });
  return preds;
}

/** The vregs an instruction defines (its dst, an asm statement's outputs). */
export function defsOf(x: Inst): number[] {
  if (x.op === 'asm') return x.asm!.outs;
  return x.dst >= 0 ? [x.dst] : [];
}

/** The type each vreg holds (comparisons give i32, asm outputs are registers: i32). */
export function vregTypes(f: IrFunction): IrType[] {
  const ty: IrType[] = new Array(f.nregs).fill('i32');
  f.params.forEach((p, i) => { ty[i] = p; });
  for (const b of f.blocks) for (const x of b.insts) {
    if (x.dst >= 0) ty[x.dst] = isCompare(x.op) ? 'i32' : x.ty;
  }
  return ty;
}

/** The instruction defining each vreg (undefined for parameters and asm outputs). */
export function definitions(f: IrFunction): (Inst | undefined)[] {
  const d: (Inst | undefined)[] = new Array(f.nregs);
  for (const b of f.blocks) for (const x of b.insts) if (x.dst >= 0) d[x.dst] = x;
  return d;
}

/** The block defining each vreg (-1: a parameter, defined on entry). */
export function defBlocks(f: IrFunction): Int32Array {
  const d = new Int32Array(f.nregs).fill(-1);
  f.blocks.forEach((b, bi) => { for (const x of b.insts) for (const r of defsOf(x)) d[r] = bi; });
  return d;
}

/** How many times each vreg is read. */
export function useCounts(f: IrFunction): Int32Array {
  const n = new Int32Array(f.nregs);
  for (const b of f.blocks) for (const x of b.insts) for (const a of x.args) n[a]++;
  return n;
}

/**
 * True if the instruction may do something besides defining its vregs: write memory, call, trap
 * on purpose, or control flow. Loads are handled by the passes (removable when dead, never moved
 * across these).
 */
export function hasSideEffects(x: Inst): boolean {
  switch (x.op) {
    case 'store': case 'memcpy': case 'memset': case 'call':
    case 'br': case 'jmp': case 'switch': case 'ret': case 'unreachable':
      return true;
    case 'asm': return asmHasSideEffects(x);
    default: return false;
  }
}

/** Volatile asm or asm clobbering memory has effects beyond its outputs (and so does asm with none). */
export function asmHasSideEffects(x: Inst): boolean {
  const a = x.asm!;
  return a.volatile || a.outs.length === 0 || a.clobbers.some((c) => c.trim() === 'memory');
}

/** Pure computations of their operands (may be removed, merged, hoisted). Division may trap: see `mayTrap`. */
export function isPure(x: Inst): boolean {
  switch (x.op) {
    case 'const': case 'addr': case 'slot': case 'vastart': case 'copy':
    case 'sext': case 'zext': case 'trunc': case 'clz': case 'ctz': case 'popcount': case 'bswap':
      return true;
    default: return isBinary(x.op) || isVecOp(x.op);
  }
}

/** Renames every read of a vreg through `map` (entries < 0 keep the vreg), following chains. */
export function renameUses(f: IrFunction, map: Int32Array): void {
  const resolve = (r: number): number => {
    let v = r;
    while (map[v] >= 0 && map[v] !== v) v = map[v];
    // Path compression keeps long copy chains linear.
    let w = r;
    while (map[w] >= 0 && map[w] !== w) { const n = map[w]; map[w] = v; w = n; }
    return v;
  };
  for (const b of f.blocks) for (const x of b.insts) {
    for (let i = 0; i < x.args.length; i++) x.args[i] = resolve(x.args[i]);
  }
}

/** A fresh map for renameUses (every entry -1). */
export function newMap(f: IrFunction): Int32Array {
  return new Int32Array(f.nregs).fill(-1);
}

/**
 * Makes every phi agree with the CFG again after edges changed: one entry per predecessor edge
 * (entries for blocks that are no longer predecessors go; a predecessor with several edges gets
 * as many copies of its entry). A phi left with no entry (its block is unreachable) is emptied.
 */
export function fixPhis(f: IrFunction, preds = predecessors(f)): void {
  f.blocks.forEach((b, bi) => {
    if (b.insts[0]?.op !== 'phi') return;
    const p = preds[bi];
    for (const x of b.insts) {
      if (x.op !== 'phi') break;
      const t = x.targets!;
      let same = t.length === p.length;
      for (let i = 0; same && i < t.length; i++) same = t[i] === p[i];
      if (same) continue;
      const val = new Map<number, number>();
      t.forEach((pb, i) => { if (!val.has(pb)) val.set(pb, x.args[i]); });
      const args: number[] = [];
      const targets: number[] = [];
      for (const pb of p) {
        const v = val.get(pb);
        if (v === undefined) throw new Error(`optimiser: phi %${x.dst} in block ${bi} of '${f.name}' has no value for predecessor ${pb}`);
        args.push(v);
        targets.push(pb);
      }
      x.args = args;
      x.targets = targets;
    }
  });
}

/**
 * Deletes the blocks for which `keep` is false and renumbers the rest (targets and phi entries;
 * entries from deleted blocks go). The entry block must be kept.
 */
export function compactBlocks(f: IrFunction, keep: boolean[]): void {
  const renum = new Int32Array(f.blocks.length).fill(-1);
  const blocks: Block[] = [];
  f.blocks.forEach((b, i) => { if (keep[i]) { renum[i] = blocks.length; blocks.push(b); } });
  if (blocks.length === f.blocks.length) return;
  for (const b of blocks) for (const x of b.insts) {
    if (x.op === 'phi') {
      const args: number[] = [];
      const targets: number[] = [];
      x.targets!.forEach((t, i) => { if (renum[t] >= 0) { args.push(x.args[i]); targets.push(renum[t]); } });
      x.args = args;
      x.targets = targets;
    } else if (x.targets) x.targets = x.targets.map((t) => renum[t]);
  }
  f.blocks = blocks;
}

/** Blocks reachable from the entry. */
export function reachable(f: IrFunction): boolean[] {
  const seen: boolean[] = new Array(f.blocks.length).fill(false);
  const stack = [0];
  seen[0] = true;
  while (stack.length) {
    const b = stack.pop()!;
    for (const s of successors(f.blocks[b])) if (!seen[s]) { seen[s] = true; stack.push(s); }
  }
  return seen;
}

/** Deletes unreachable blocks (and their phi entries). Returns true if any went. */
export function removeUnreachable(f: IrFunction): boolean {
  const keep = reachable(f);
  if (keep.every(Boolean)) return false;
  compactBlocks(f, keep);
  return true;
}

/** The number of instructions of a function (a size measure for inlining and unrolling). */
export function size(f: IrFunction): number {
  let n = 0;
  for (const b of f.blocks) n += b.insts.length;
  return n;
}

export function constInst(ty: IrType, v: number | bigint, dst: number, loc: string): Inst {
  return { op: 'const', ty, dst, args: [], imm: ty === 'i64' ? BigInt.asIntN(64, BigInt(v)) : Number(v) | 0, loc };
}

/** Replaces an instruction in place by another (keeping the object, so references stay valid). */
export function become(x: Inst, y: Omit<Inst, 'loc'> & { loc?: string }): void {
  const loc = y.loc ?? x.loc;
  const pragmas = x.pragmas;
  // Fields are cleared, not deleted: deleting would make every instruction a slow dictionary.
  for (const k of Object.keys(x) as (keyof Inst)[]) (x as unknown as Record<string, unknown>)[k] = undefined;
  Object.assign(x, y, { loc });
  if (pragmas) x.pragmas = pragmas;
}

/** Copies an instruction (arrays are fresh; asm info too). */
export function cloneInst(x: Inst): Inst {
  const y: Inst = { ...x, args: [...x.args] };
  if (x.targets) y.targets = [...x.targets];
  if (x.cases) y.cases = [...x.cases];
  if (x.argTys) y.argTys = [...x.argTys];
  if (x.asm) y.asm = { ...x.asm, outs: [...x.asm.outs], outputs: [...x.asm.outputs], inputs: [...x.asm.inputs], clobbers: [...x.asm.clobbers] };
  if (x.pragmas) y.pragmas = [...x.pragmas];
  return y;
}

/**
 * Keeps the instructions of a block `keep` accepts; a removed instruction's loop pragmas move
 * to the next one kept (they mark the loop's header block, whatever instruction starts it).
 */
export function filterInsts(b: Block, keep: (x: Inst) => boolean): void {
  let carry: string[] | undefined;
  const out: Inst[] = [];
  for (const x of b.insts) {
    if (keep(x)) {
      if (carry) { x.pragmas = [...(x.pragmas ?? []), ...carry]; carry = undefined; }
      out.push(x);
    } else if (x.pragmas) carry = [...(carry ?? []), ...x.pragmas];
  }
  b.insts = out;
}

/** The loop pragmas of a block (on any of its instructions). */
export function blockPragmas(b: Block): string[] {
  const out: string[] = [];
  for (const x of b.insts) if (x.pragmas) out.push(...x.pragmas);
  return out;
}

/** Renumbers the vregs densely (parameters keep 0..n-1), so per-vreg tables stay small. */
export function compactRegs(f: IrFunction): void {
  const renum = new Int32Array(f.nregs).fill(-1);
  let n = f.params.length;
  for (let i = 0; i < n; i++) renum[i] = i;
  for (const b of f.blocks) for (const x of b.insts) {
    if (x.dst >= 0) renum[x.dst] = n++;
    if (x.op === 'asm') for (const o of x.asm!.outs) renum[o] = n++;
  }
  if (n === f.nregs) return;
  for (const b of f.blocks) for (const x of b.insts) {
    if (x.dst >= 0) x.dst = renum[x.dst];
    if (x.op === 'asm') x.asm!.outs = x.asm!.outs.map((o) => renum[o]);
    for (let i = 0; i < x.args.length; i++) x.args[i] = renum[x.args[i]];
  }
  f.nregs = n;
}

/** The reachable blocks, each before its successors except along back edges. */
export function reversePostorder(f: IrFunction): number[] {
  const seen = new Uint8Array(f.blocks.length);
  const post: number[] = [];
  const stack: [number, number][] = [[0, 0]];
  seen[0] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const succ = successors(f.blocks[top[0]]);
    if (top[1] < succ.length) {
      const s = succ[top[1]++];
      if (!seen[s]) { seen[s] = 1; stack.push([s, 0]); }
    } else { post.push(top[0]); stack.pop(); }
  }
  return post.reverse();
}
