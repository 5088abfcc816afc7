// Instruction selection: one IR function -> MIR over virtual registers. One IR instruction at a
// time, with the folds clang also makes on this code: constants into immediates, slot and
// constant offsets into load/store offsets, a compare into the branch that reads it (and
// cv.beqimm / cv.bneimm for small constants), an 8/16-bit load into the extension that follows
// it, CORE-V's extensions, sle and bit counts. 64-bit values are register pairs. Phis leave SSA
// here: each incoming edge gets copies (at the end of a predecessor with one successor, or in a
// block of its own on a critical edge).
import { CcError } from '../error';
import { isVecOp, type Inst, type IrFunction, type IrType, type Op } from '../ir';
import { argLayout } from './abi';
import { findHwLoops, type HwLoop } from './hwloop';
import type { RvPassName } from './passes';
import { A0, CALLER_SAVED, FIRST_VREG, REG_NAMES, SP, ZERO, type Fmt, type FrameObject, type MBlock, type MFunction, type MInst, type Reg } from './mir';

export interface IselOptions {
  xpulp: boolean;
  /** Optional selections (passes.ts RV_PASSES names) turned off. */
  disabled?: ReadonlySet<string>;
}

/** Ops whose arguments may be renamed at selection (no fold looks up the instruction itself). */
const ALIASABLE = new Set<Op>(['add', 'sub', 'mul', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr', 'sext', 'zext', 'trunc', 'copy', 'ret', 'call']);
const CMP = new Set<Op>(['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge']);
const fits12 = (c: number): boolean => c >= -2048 && c <= 2047;
const fits5 = (c: number): boolean => c >= -16 && c <= 15;

/** How a register's upper bits relate to an 8/16-bit value it holds. */
type Ext = 'sext' | 'zext' | 'bool' | undefined;

interface Addr { base: Reg; fi?: number; sym?: string; off: number }

export function selectFunction(f: IrFunction, opts: IselOptions): MFunction {
  return new Isel(f, opts).run();
}

class Isel {
  private mf: MFunction;
  private lo: Int32Array;
  private hi: Int32Array;
  private ext: Ext[] = [];
  private def: (Inst | undefined)[] = [];
  private defBlock: Int32Array;
  private useCount: Int32Array;
  private soleUser: (Inst | undefined)[] = [];
  /** The users of each value (up to a few) and each instruction's index in its block. */
  private users: Inst[][] = [];
  private index = new Map<Inst, number>();
  private blockOf = new Map<Inst, number>();
  /** Loads and stores selected in post-increment form, with the add they absorb. */
  private postInc = new Map<Inst, Inst>();
  /** Loads and stores addressed base + index in registers (CORE-V cv.lw rd, rs2(rs1)), with their add. */
  private regReg = new Map<Inst, Inst>();
  private vty: IrType[] = [];
  private slotFi: number[] = [];
  private overAlign: number[] = [];
  private fused = new Set<Inst>();
  private cur!: MBlock;
  private loc = '';
  /** Per IR block: where its edge to each successor with phis goes (a split block, or itself). */
  private edge = new Map<string, number>();
  private preds: number[][] = [];
  private order: number[] = [];
  /** Hardware loops by their (one-block) body (hwloop.ts; CORE-V only). */
  private hw = new Map<number, HwLoop>();
  /**
   * Values a hardware loop's back edge copies into a header phi (next -> phi), read after the
   * loop through the phi instead: the copies end every pass, so at the exit both hold the same
   * value, and `next` need not stay live beside the phi it was copied to (which kept the
   * coalescer from merging them and spilled the GEMM's accumulators).
   */
  private exitAlias = new Map<number, { phi: number; header: number }>();

  constructor(private f: IrFunction, private opts: IselOptions) {
    this.mf = {
      name: f.name, blocks: f.blocks.map(() => ({ insts: [], succs: [], depth: 0 })), nregs: FIRST_VREG, frame: [], outArgs: 0,
      order: [], variadic: f.variadic, fixedArgRegs: 0, hasCalls: false, reserved: [], isStatic: f.isStatic, section: f.attrs.section, loc: f.loc,
    };
    this.lo = new Int32Array(f.nregs).fill(-1);
    this.hi = new Int32Array(f.nregs).fill(-1);
    this.defBlock = new Int32Array(f.nregs).fill(-1);
    this.useCount = new Int32Array(f.nregs);
  }

  run(): MFunction {
    const f = this.f;
    this.analyse();
    for (const s of f.slots) {
      if (s.align > 2048) throw new CcError(posOf(f.loc), `a local with alignment ${s.align} (at most 2048) in '${f.name}'`);
      // Over-aligned (more than sp's 16): room to round its address up at run time.
      this.overAlign.push(s.align > 16 ? s.align : 0);
      this.slotFi.push(this.frameObject({ kind: 'local', size: s.size + (s.align > 16 ? s.align - 16 : 0), align: Math.min(s.align, 16), offset: 0 }));
    }
    this.entry();
    for (const b of this.order) {
      if (b >= f.blocks.length) continue; // split blocks are filled by their predecessor
      this.cur = this.mf.blocks[b];
      for (const x of f.blocks[b].insts) this.select(x, b);
    }
    this.mf.order = this.order;
    return this.mf;
  }

  // ---------------------------------------------------------------- analysis

  private analyse(): void {
    const f = this.f;
    f.params.forEach((t, i) => { this.vty[i] = t; });
    f.blocks.forEach((b, bi) => {
      for (const [xi, x] of b.insts.entries()) {
        if (x.dst >= 0) { this.def[x.dst] = x; this.defBlock[x.dst] = bi; this.vty[x.dst] = CMP.has(x.op) ? 'i32' : x.ty; }
        if (x.op === 'asm') for (const o of x.asm!.outs) { this.vty[o] = 'i32'; this.defBlock[o] = bi; }
        for (const a of x.args) {
          this.useCount[a]++; this.soleUser[a] = this.useCount[a] === 1 ? x : undefined;
          (this.users[a] ??= []).push(x);
        }
        this.index.set(x, xi);
        this.blockOf.set(x, bi);
      }
    });
    f.blocks.forEach((b, bi) => {
      for (const x of b.insts) {
        if (x.op !== 'load' && x.op !== 'store') continue;
        if (x.ty === 'i64' || (x.op === 'load' && this.vty[x.dst] === 'i64')) continue;
        const inc = this.postIncrement(x, bi);
        if (inc && !this.fused.has(inc)) { this.postInc.set(x, inc); this.fused.add(inc); continue; }
        const a = this.def[x.args[0]];
        if (this.opts.xpulp && this.on('reg-reg-addressing') && a && a.op === 'add' && a.ty === 'ptr' && this.useCount[x.args[0]] === 1 && !this.fused.has(a) &&
            this.blockOf.get(a) === bi && this.constOf(a.args[0]) === undefined && this.constOf(a.args[1]) === undefined) {
          this.regReg.set(x, a); this.fused.add(a);
        }
      }
    });
    if (this.opts.xpulp && this.on('hardware-loops')) this.hw = findHwLoops(f);
    for (const hw of this.hw.values()) {
      // The exit test is gone; an induction variable that only counted is not computed.
      const br = f.blocks[hw.header].insts[f.blocks[hw.header].insts.length - 1];
      const c = this.def[br.args[0]];
      if (c && c !== hw.deadIv?.next && CMP.has(c.op)) this.fused.add(c);
      if (hw.deadIv) this.fused.add(hw.deadIv.next);
      for (const x of f.blocks[hw.header].insts) {
        if (x.op !== 'phi') continue;
        const n = x.args[x.targets!.indexOf(hw.header)];
        if (this.defBlock[n] === hw.header && !this.exitAlias.has(n)) this.exitAlias.set(n, { phi: x.dst, header: hw.header });
      }
    }
    // Edges into blocks with phis: a block of their own when the predecessor has other successors.
    // A hardware loop's entry always has one (the setup, laid out just before the body); its back
    // edge none (the copies end the body).
    this.preds = f.blocks.map(() => []);
    const succs = f.blocks.map((b) => distinct(b.insts[b.insts.length - 1]?.targets ?? []));
    succs.forEach((ss, p) => ss.forEach((s) => this.preds[s].push(p)));
    for (let p = 0; p < f.blocks.length; p++) {
      this.order.push(p);
      for (const s of succs[p]) {
        if (f.blocks[s].insts[0]?.op !== 'phi') continue;
        const hw = this.hw.get(s);
        if (hw && p === s) continue;
        if (succs[p].length === 1 && hw?.pre !== p) continue;
        const e = this.mf.blocks.length;
        this.mf.blocks.push({ insts: [], succs: [s], depth: 0 });
        this.edge.set(`${p}:${s}`, e);
        this.order.push(e);
      }
    }
    for (const hw of this.hw.values()) {
      const e = this.edge.get(`${hw.pre}:${hw.header}`)!;
      this.order.splice(this.order.indexOf(e), 1);
      this.order.splice(this.order.indexOf(hw.header), 0, e);
    }
  }

  // ---------------------------------------------------------------- helpers

  private newReg(): Reg { return this.mf.nregs++; }

  /** Is this optional selection (passes.ts) on? */
  private on(name: RvPassName): boolean { return !this.opts.disabled?.has(name); }

  private frameObject(o: FrameObject): number { this.mf.frame.push(o); return this.mf.frame.length - 1; }

  private emit(op: string, fmt: Fmt, defs: Reg[], uses: Reg[], extra: Partial<MInst> = {}): MInst {
    const m: MInst = { op, fmt, defs, uses, loc: this.loc, ...extra };
    this.cur.insts.push(m);
    return m;
  }

  private mv(d: Reg, s: Reg): void { if (d !== s) this.emit('mv', 'MV', [d], [s]); }

  /** d = s + k: addi when k fits 12 bits, else through a register. */
  private addConst(d: Reg, s: Reg, k: number): void {
    if (fits12(k)) { this.emit('addi', 'I', [d], [s], { imm: k }); return; }
    const t = this.newReg();
    this.li(t, k);
    this.emit('add', 'R', [d], [s, t]);
  }

  private li(d: Reg, v: number): void { this.emit('li', 'LI', [d], [], { imm: v | 0 }); }

  /** The register holding an IR value (its low word for i64). */
  private r(v: number): Reg {
    if (this.lo[v] < 0) this.lo[v] = this.newReg();
    return this.lo[v];
  }

  private rh(v: number): Reg {
    if (this.hi[v] < 0) this.hi[v] = this.newReg();
    return this.hi[v];
  }

  /** A fresh register for an instruction's result (never x0: values are written once). */
  private dst(x: Inst): Reg { return this.r(x.dst); }

  /** The value of a 32-bit constant, also through arithmetic on constants (unoptimised code's `32 - 4`). */
  private constOf(v: number, depth = 0): number | undefined {
    const d = this.def[v];
    if (d?.op === 'const') return typeof d.imm === 'bigint' ? Number(BigInt.asIntN(32, d.imm)) : (d.imm as number) | 0;
    if (!d || depth > 4 || d.ty === 'i64' || d.args.length !== 2) return undefined;
    const fold: Partial<Record<string, (a: number, b: number) => number>> = {
      add: (a, b) => (a + b) | 0, sub: (a, b) => (a - b) | 0, mul: (a, b) => Math.imul(a, b), and: (a, b) => a & b, or: (a, b) => a | b,
      xor: (a, b) => a ^ b, shl: (a, b) => a << (b & 31), lshr: (a, b) => (a >>> (b & 31)) | 0, ashr: (a, b) => a >> (b & 31),
    };
    const f = fold[d.op];
    if (!f) return undefined;
    const a = this.constOf(d.args[0], depth + 1);
    const b = a === undefined ? undefined : this.constOf(d.args[1], depth + 1);
    return a === undefined || b === undefined ? undefined : f(a, b);
  }

  private const64(v: number): bigint | undefined {
    const d = this.def[v];
    if (d?.op !== 'const') return undefined;
    return BigInt.asIntN(64, BigInt(d.imm as number | bigint));
  }

  /** The register of a value (the low word of a 64-bit one); x0 for the constant 0. */
  private reg(v: number): Reg {
    if (this.vty[v] === 'i64') return this.reg64lo(v);
    if (this.constOf(v) === 0) return ZERO;
    return this.r(v);
  }

  private regHi(v: number): Reg {
    const c = this.const64(v);
    if (c !== undefined && BigInt.asIntN(32, c >> 32n) === 0n) return ZERO;
    return this.rh(v);
  }

  /**
   * d is s under another name (copies, truncations). A use of d selected before its definition
   * (blocks are selected in order, not in dominance order) already has a register: copy then.
   */
  private alias(d: number, s: number): void {
    if (this.lo[d] < 0) this.lo[d] = this.reg(s); else this.mv(this.lo[d], this.reg(s));
    if (this.vty[d] !== 'i64') return;
    if (this.hi[d] < 0) this.hi[d] = this.regHi(s); else this.mv(this.hi[d], this.regHi(s));
  }

  /** d's low or high word is `s` (a register of the instruction being selected). */
  private setLo(d: number, s: Reg): void { if (this.lo[d] < 0) this.lo[d] = s; else this.mv(this.lo[d], s); }
  private setHi(d: number, s: Reg): void { if (this.hi[d] < 0) this.hi[d] = s; else this.mv(this.hi[d], s); }

  /** Where a pointer value points: a frame object, a symbol or a register, plus a constant. */
  /** span: bytes past the offset the access also reaches with a larger offset (a 64-bit load's high word). */
  private addrOf(v: number, span = 0): Addr {
    let off = 0;
    const ok = (o: number): boolean => fits12(o) && fits12(o + span);
    for (let depth = 0; depth < 8; depth++) {
      const d = this.def[v];
      if (d?.op === 'slot' && !this.overAlign[d.imm as number]) return { base: SP, fi: this.slotFi[d.imm as number], off };
      if (d?.op === 'add' && d.ty === 'ptr') {
        const c = this.constOf(d.args[1]);
        if (c !== undefined && ok(off + c)) { off += c; v = d.args[0]; continue; }
        const c0 = this.constOf(d.args[0]);
        if (c0 !== undefined && ok(off + c0)) { off += c0; v = d.args[1]; continue; }
      }
      if (d?.op === 'addr') {
        const t = this.newReg();
        this.emit('lui', 'U', [t], [], { sym: d.sym, imm: off });
        if (span === 0) return { base: t, sym: d.sym, off };
        // Two words from one %hi: %lo(sym + off + 4) may need the next %hi; take the address whole.
        const a = this.newReg();
        this.emit('addi', 'I', [a], [t], { sym: d.sym, imm: off });
        return { base: a, off: 0 };
      }
      break;
    }
    // A constant address (a device register): lui of its upper part, shared by the accesses of
    // this block near it, and the low 12 bits as the offset.
    const c = this.constOf(v);
    if (c !== undefined && this.vty[v] !== 'i64') {
      const total = (c + off) | 0, lo = (total << 20) >> 20, hi = (total - lo) | 0;
      if (fits12(lo + span)) {
        if (hi === 0) return { base: ZERO, off: lo };
        let memo = this.upper.get(this.cur);
        if (!memo) this.upper.set(this.cur, (memo = new Map()));
        let r = memo.get(hi);
        if (r === undefined) { r = this.newReg(); this.li(r, hi); memo.set(hi, r); }
        return { base: r, off: lo };
      }
    }
    return { base: this.reg(v), off };
  }

  /** Per machine block: registers holding the upper parts of constant addresses (addrOf). */
  private upper = new Map<MBlock, Map<number, Reg>>();

  private load(op: string, d: Reg, a: Addr, extra = 0, volatile = false): void {
    this.emit(op, 'L', [d], a.fi !== undefined ? [] : [a.base], { imm: a.off + extra, fi: a.fi, sym: a.sym, ...(volatile ? { sideEffect: true } : {}) });
  }

  private store(op: string, v: Reg, a: Addr, extra = 0): void {
    this.emit(op, 'S', [], a.fi !== undefined ? [v] : [v, a.base], { imm: a.off + extra, fi: a.fi, sym: a.sym, sideEffect: true });
  }

  // ---------------------------------------------------------------- entry

  private entry(): void {
    const f = this.f;
    this.cur = this.mf.blocks[0];
    this.loc = f.loc;
    const lay = argLayout(f.params, f.params.length);
    this.mf.fixedArgRegs = lay.regs;
    let fixedStack = lay.stack;
    f.params.forEach((ty, i) => {
      lay.parts[i].forEach((p, k) => {
        const d = k === 0 ? this.r(i) : this.rh(i);
        if ('reg' in p) this.mv(d, p.reg);
        else {
          const fi = this.frameObject({ kind: 'incoming', size: 4, align: 4, offset: p.stack });
          this.load('lw', d, { base: SP, fi, off: 0 });
        }
      });
      void ty;
    });
    if (f.variadic) {
      // The unnamed register arguments are saved just below the stack ones (prologue), so
      // va_arg walks one array: the save area is the 32 bytes under the CFA.
      const regs = Math.min(lay.regs, 8);
      const start = -32 + 4 * regs + (lay.regs >= 8 ? fixedStack : 0);
      this.vaFi = this.frameObject({ kind: 'varargs', size: 32, align: 16, offset: start });
      fixedStack = 0;
    }
  }

  private vaFi = -1;

  // ---------------------------------------------------------------- selection

  private select(x: Inst, b: number): void {
    if (x.loc) this.loc = x.loc;
    if (this.fused.has(x)) return;
    if (this.exitAlias.size && ALIASABLE.has(x.op) && x.args.some((a) => this.afterLoop(a, b) !== a)) {
      const y: Inst = { ...x, args: x.args.map((a) => this.afterLoop(a, b)) };
      this.index.set(y, this.index.get(x)!);
      this.blockOf.set(y, b);
      x = y;
    }
    if (this.vty[x.dst] === 'i64' || (x.ty === 'i64' && x.op !== 'store' && !isTerm(x.op))) {
      if (this.select64(x)) return;
    }
    switch (x.op) {
      case 'const': {
        const c = this.constOf(x.dst)!;
        if (c !== 0) this.li(this.dst(x), c);
        return;
      }
      case 'addr': {
        const d = this.dst(x), t = this.newReg();
        this.emit('lui', 'U', [t], [], { sym: x.sym, imm: 0 });
        this.emit('addi', 'I', [d], [t], { sym: x.sym, imm: 0 });
        return;
      }
      case 'slot': {
        const al = this.overAlign[x.imm as number];
        if (!al) { this.emit('addi', 'I', [this.dst(x)], [], { fi: this.slotFi[x.imm as number], imm: 0 }); return; }
        const t = this.newReg(), u = this.newReg();
        this.emit('addi', 'I', [t], [], { fi: this.slotFi[x.imm as number], imm: 0 });
        this.emit('addi', 'I', [u], [t], { imm: al - 1 });
        this.emit('andi', 'I', [this.dst(x)], [u], { imm: -al });
        return;
      }
      case 'vastart': this.emit('addi', 'I', [this.dst(x)], [], { fi: this.vaFi, imm: 0 }); return;
      case 'copy': this.alias(x.dst, x.args[0]); this.ext[x.dst] = this.ext[x.args[0]]; return;
      case 'phi': this.r(x.dst); return; // written by copies on the incoming edges
      case 'add': case 'sub': case 'mul': case 'sdiv': case 'udiv': case 'srem': case 'urem':
      case 'and': case 'or': case 'xor': case 'shl': case 'lshr': case 'ashr':
        this.binary(x); return;
      case 'eq': case 'ne': case 'slt': case 'sle': case 'sgt': case 'sge': case 'ult': case 'ule': case 'ugt': case 'uge': {
        const u = this.soleUser[x.dst];
        if (u && u.op === 'br' && this.useCount[x.dst] === 1 && this.blockOf.get(u) === b && x.ty !== 'i64') { this.fused.add(x); return; }
        this.compare(x);
        this.ext[x.dst] = 'bool';
        return;
      }
      case 'sext': case 'zext': this.extend(x); return;
      case 'trunc': this.setLo(x.dst, this.reg(x.args[0])); this.ext[x.dst] = this.ext[x.args[0]] === 'bool' ? 'bool' : undefined; return;
      case 'load': this.selectLoad(x); return;
      case 'store': this.selectStore(x, b); return;
      case 'memcpy': case 'memset': this.memOp(x); return;
      case 'clz': case 'ctz': case 'popcount': this.bitCount(x); return;
      case 'bswap': this.bswap(this.dst(x), this.reg(x.args[0])); return;
      case 'call': this.call(x); return;
      case 'asm': this.inlineAsm(x); return;
      case 'br': this.branch(x, b); return;
      case 'jmp': this.phiCopies(b, x.targets![0]); this.jump(this.target(b, x.targets![0])); return;
      case 'switch': this.selectSwitch(x, b); return;
      case 'ret': this.ret(x); return;
      case 'unreachable': this.emit('unimp', 'NONE', [], [], { sideEffect: true }); return;
      default:
        if (isVecOp(x.op)) { this.vector(x); return; }
        throw new Error(`${x.loc}: the back end cannot select IR op '${x.op}'`);
    }
  }

  private binary(x: Inst): void {
    if (this.opts.xpulp && (x.op === 'and' || x.op === 'or' || x.op === 'xor' || x.op === 'ashr') && this.packedPattern(x)) return;
    const [a, b] = x.args;
    const d = this.dst(x);
    const ca = this.constOf(a), cb = this.constOf(b);
    const imm: Partial<Record<Op, string>> = { add: 'addi', and: 'andi', or: 'ori', xor: 'xori' };
    const rr: Record<string, string> = { add: 'add', sub: 'sub', mul: 'mul', sdiv: 'div', udiv: 'divu', srem: 'rem', urem: 'remu', and: 'and', or: 'or', xor: 'xor', shl: 'sll', lshr: 'srl', ashr: 'sra' };
    const op = x.op;
    if (imm[op]) {
      if (cb !== undefined && fits12(cb)) { this.emit(imm[op]!, 'I', [d], [this.reg(a)], { imm: cb }); return; }
      if (ca !== undefined && fits12(ca)) { this.emit(imm[op]!, 'I', [d], [this.reg(b)], { imm: ca }); return; }
    }
    if (op === 'sub' && cb !== undefined && fits12(-cb)) { this.emit('addi', 'I', [d], [this.reg(a)], { imm: -cb }); return; }
    if ((op === 'shl' || op === 'lshr' || op === 'ashr') && cb !== undefined) {
      this.emit(({ shl: 'slli', lshr: 'srli', ashr: 'srai' } as Record<string, string>)[op], 'I', [d], [this.reg(a)], { imm: cb & 31 });
      return;
    }
    if (op === 'mul') {
      const [v, c] = cb !== undefined ? [a, cb] : ca !== undefined ? [b, ca] : [a, undefined];
      if (c !== undefined && c > 0 && (c & (c - 1)) === 0) { this.emit('slli', 'I', [d], [this.reg(v)], { imm: 31 - Math.clz32(c) }); return; }
    }
    if (op === 'udiv' && cb !== undefined && cb > 0 && (cb & (cb - 1)) === 0) { this.emit('srli', 'I', [d], [this.reg(a)], { imm: 31 - Math.clz32(cb) }); return; }
    if (op === 'urem' && cb !== undefined && cb > 0 && (cb & (cb - 1)) === 0 && fits12(cb - 1)) { this.emit('andi', 'I', [d], [this.reg(a)], { imm: cb - 1 }); return; }
    this.emit(rr[op], 'R', [d], [this.reg(a), this.reg(b)]);
  }

  // ---------------------------------------------------------------- packed vectors (xcvsimd)

  /**
   * A lane-wise op (ir.ts) as one CORE-V SIMD instruction: .sci with a splatted constant that
   * fits the immediate, .sc with a splatted scalar (its own register, not the splat's), else the
   * vector-vector form. Plain RV32 never gets here: expandVectors (vectors.ts) rewrote them.
   */
  private vector(x: Inst): void {
    if (!this.opts.xpulp) throw new Error(`vector op '${x.op}' left for a plain RV32 selection`);
    const t = x.lane === 8 ? 'b' : 'h';
    const d = this.dst(x);
    const [a, b] = x.args;
    if (x.op === 'vsplat') { this.emit(`cv.add.sc.${t}`, 'R', [d], [ZERO, this.reg(this.laneSource(a, x.lane!))]); return; }
    this.simd(SIMD_NAME[x.op]!, x.lane!, d, a, b);
  }

  /** cv.<name>[.sc|.sci].<b|h> d, a, b with b's form chosen as vector() says. */
  private simd(name: string, lane: 8 | 16, d: Reg, a: number, b: number): void {
    const t = lane === 8 ? 'b' : 'h';
    const sc = this.on('simd-scalar-operand');
    const imm = sc ? simdImmediate(name, lane, this.constOf(b)) : undefined;
    if (imm !== undefined) { this.emit(`cv.${name}.sci.${t}`, 'I', [d], [this.reg(a)], { imm }); return; }
    const bd = this.def[b];
    if (sc && bd?.op === 'vsplat' && bd.lane === lane) { this.emit(`cv.${name}.sc.${t}`, 'R', [d], [this.reg(a), this.reg(this.laneSource(bd.args[0], lane))]); return; }
    this.emit(`cv.${name}.${t}`, 'R', [d], [this.reg(a), this.reg(b)]);
  }

  /** A value whose low `lane` bits are v's: v without extensions from at least the lane's width (the SIMD scalar forms read only those bits). */
  private laneSource(v: number, lane: 8 | 16): number {
    for (let d = this.def[v]; d && (d.op === 'sext' || d.op === 'zext') && (d.from === 'i8' ? 8 : d.from === 'i16' ? 16 : 32) >= lane; d = this.def[v]) v = d.args[0];
    return v;
  }

  /**
   * i32 operations on packed vectors with a CORE-V instruction (the front end writes them as
   * plain IR): (v & m) | (w & ~m) with m = v > w or v < w -> cv.max / cv.min (the portable
   * select of GCC's C, which has no vector ?:); and/or/xor with a splat -> cv.and.sc ...;
   * ashr(shl(v, k), 32 - w) (a lane read) -> cv.extract; (v & ~lane) | (x & mask) << s -> cv.insert.
   */
  private packedPattern(x: Inst): boolean {
    const [a, b] = x.args;
    const d = this.dst(x);
    const lanes = this.on('lane-extract-insert');
    if (x.op === 'ashr') {
      if (!lanes) return false;
      const sh = this.constOf(b), inner = this.def[a];
      const k = inner?.op === 'shl' ? this.constOf(inner.args[1]) : undefined;
      for (const w of [8, 16]) {
        if (sh === 32 - w && k !== undefined && k > 0 && k < 32 - w && k % w === 0) {
          this.emit(w === 8 ? 'cv.extract.b' : 'cv.extract.h', 'I', [d], [this.reg(inner!.args[0])], { imm: (32 - w - k) / w });
          return true;
        }
      }
      return false;
    }
    if (x.op === 'or') {
      const sel = this.on('simd-min-max') ? this.selectPattern(a, b) ?? this.selectPattern(b, a) : undefined;
      if (sel) { this.simd(sel.name, sel.lane, d, sel.x, sel.y); return true; }
      if (lanes) for (const [keep, put] of [[a, b], [b, a]]) {
        const ins = this.insertPattern(keep, put);
        if (ins) {
          this.mv(d, this.reg(ins.v));
          this.emit(ins.lane === 8 ? 'cv.insert.b' : 'cv.insert.h', 'RDI', [d], [d, this.reg(ins.x)], { imm: ins.index });
          return true;
        }
      }
    }
    if (x.op === 'and' && lanes && this.constOf(b) !== undefined) {
      // (v >> s) & mask: an unsigned lane read
      const c = this.constOf(b)!, inner = this.def[a];
      const s = inner?.op === 'lshr' ? this.constOf(inner.args[1]) : undefined;
      for (const w of [8, 16]) {
        if (c === (w === 8 ? 0xff : 0xffff) && s !== undefined && s > 0 && s + w <= 32 && s % w === 0) {
          this.emit(w === 8 ? 'cv.extractu.b' : 'cv.extractu.h', 'I', [d], [this.reg(inner!.args[0])], { imm: s / w });
          return true;
        }
      }
    }
    if (this.on('simd-scalar-operand')) for (const [v, sp] of [[a, b], [b, a]]) {
      const sd = this.def[sp];
      if (sd?.op === 'vsplat') {
        this.emit(`cv.${x.op}.sc.${sd.lane === 8 ? 'b' : 'h'}`, 'R', [d], [this.reg(v), this.reg(this.laneSource(sd.args[0], sd.lane!))]);
        return true;
      }
    }
    return false;
  }

  /** p = v & m and q = w & ~m (m a lane compare of v and w): the lane-wise max or min of v and w. */
  private selectPattern(p: number, q: number): { name: string; lane: 8 | 16; x: number; y: number } | undefined {
    const pd = this.def[p], qd = this.def[q];
    if (pd?.op !== 'and' || qd?.op !== 'and') return undefined;
    for (const [v, m] of [[pd.args[0], pd.args[1]], [pd.args[1], pd.args[0]]]) {
      const md = this.def[m];
      if (!md || !isVecOp(md.op) || !MINMAX[md.op]) continue;
      for (const [w, nm] of [[qd.args[0], qd.args[1]], [qd.args[1], qd.args[0]]]) {
        const nd = this.def[nm];
        if (nd?.op !== 'xor' || !((nd.args[0] === m && this.constOf(nd.args[1]) === -1) || (nd.args[1] === m && this.constOf(nd.args[0]) === -1))) continue;
        const [c0, c1] = md.args;
        const [big, small] = MINMAX[md.op]!; // the names when v is the compare's first operand
        if (v === c0 && w === c1) return { name: big, lane: md.lane!, x: c0, y: c1 };
        if (v === c1 && w === c0) return { name: small, lane: md.lane!, x: c0, y: c1 };
      }
    }
    return undefined;
  }

  /** keep = v & ~(mask << s), put = (x & mask) << s (s a multiple of the lane width): cv.insert of x at lane s / w. */
  private insertPattern(keep: number, put: number): { v: number; x: number; lane: 8 | 16; index: number } | undefined {
    const kd = this.def[keep];
    if (kd?.op !== 'and') return undefined;
    const km = this.constOf(kd.args[1]);
    if (km === undefined) return undefined;
    let s = 0, pv = put;
    const pd = this.def[put];
    if (pd?.op === 'shl') { const c = this.constOf(pd.args[1]); if (c === undefined) return undefined; s = c; pv = pd.args[0]; }
    const md = this.def[pv];
    if (md?.op !== 'and') return undefined;
    const mask = this.constOf(md.args[1]);
    for (const lane of [8, 16] as const) {
      const full = lane === 8 ? 0xff : 0xffff;
      if (mask === full && s % lane === 0 && s + lane <= 32 && km === ~(full << s)) return { v: kd.args[0], x: md.args[0], lane, index: s / lane };
    }
    return undefined;
  }

  /** A comparison's 0/1 value in a register. */
  private compare(x: Inst): void {
    const [a, b] = x.args;
    const d = this.dst(x);
    const unsigned = x.ty === 'ptr' || x.op[0] === 'u';
    const lt = unsigned ? 'sltu' : 'slt';
    const cb = this.constOf(b);
    switch (x.op) {
      case 'eq': case 'ne': {
        let t = this.reg(a);
        if (cb !== 0) {
          t = this.newReg();
          if (cb !== undefined && fits12(-cb)) this.emit('addi', 'I', [t], [this.reg(a)], { imm: -cb });
          else this.emit('xor', 'R', [t], [this.reg(a), this.reg(b)]);
        }
        if (x.op === 'eq') this.emit('sltiu', 'I', [d], [t], { imm: 1 });
        else this.emit('sltu', 'R', [d], [ZERO, t]);
        return;
      }
      case 'slt': case 'ult':
        if (cb !== undefined && fits12(cb)) this.emit(unsigned ? 'sltiu' : 'slti', 'I', [d], [this.reg(a)], { imm: cb });
        else this.emit(lt, 'R', [d], [this.reg(a), this.reg(b)]);
        return;
      case 'sgt': case 'ugt': this.emit(lt, 'R', [d], [this.reg(b), this.reg(a)]); return;
      case 'sle': case 'ule': case 'sge': case 'uge': {
        const [p, q] = x.op === 'sle' || x.op === 'ule' ? [a, b] : [b, a];
        if (this.opts.xpulp && this.on('corev-sle')) { this.emit(unsigned ? 'cv.sleu' : 'cv.sle', 'R', [d], [this.reg(p), this.reg(q)]); return; }
        const t = this.newReg();
        this.emit(lt, 'R', [t], [this.reg(q), this.reg(p)]);
        this.emit('xori', 'I', [d], [t], { imm: 1 });
        return;
      }
    }
  }

  /** clz / ctz / popcount: CORE-V's cv.fl1 / cv.ff1 / cv.cnt, or on plain RV32 libc's helpers (as clang calls compiler-rt's). */
  private bitCount(x: Inst): void {
    if (!this.opts.xpulp) {
      this.callSym({ clz: '__clzsi2', ctz: '__ctzsi2', popcount: '__popcountsi2' }[x.op as 'clz'], [x.args[0]], ['i32'], 1, undefined, x);
      return;
    }
    if (x.op === 'ctz') { this.emit('cv.ff1', 'R1', [this.dst(x)], [this.reg(x.args[0])]); return; }
    if (x.op === 'popcount') { this.emit('cv.cnt', 'R1', [this.dst(x)], [this.reg(x.args[0])]); return; }
    const t = this.newReg(), k = this.newReg();
    this.emit('cv.fl1', 'R1', [t], [this.reg(x.args[0])]);
    this.li(k, 31);
    this.emit('sub', 'R', [this.dst(x)], [k, t]);
  }

  private extend(x: Inst): void {
    const a = x.args[0];
    const from = x.from!;
    if (x.ty === 'i64') throw new Error('unreachable: 64-bit extensions are select64\'s');
    if (from === 'i32' || from === 'ptr') { this.alias(x.dst, a); return; }
    const known = this.ext[a];
    if (known === 'bool' || known === x.op) { this.alias(x.dst, a); this.ext[x.dst] = x.op as Ext; return; }
    const d = this.dst(x);
    this.ext[x.dst] = x.op as Ext;
    // A lane of a packed vector: ext(trunc(v >> k)), k a multiple of the lane width.
    const td = this.def[a], sd = td?.op === 'trunc' && td.from === 'i32' ? this.def[td.args[0]] : undefined;
    const k = sd?.op === 'lshr' ? this.constOf(sd.args[1]) : undefined;
    const w = from === 'i8' ? 8 : 16;
    if (this.opts.xpulp && this.on('lane-extract-insert') && k !== undefined && k > 0 && k % w === 0 && k + w <= 32) {
      this.emit(`cv.extract${x.op === 'zext' ? 'u' : ''}.${w === 8 ? 'b' : 'h'}`, 'I', [d], [this.reg(sd!.args[0])], { imm: k / w });
      return;
    }
    const s = this.reg(a);
    this.narrow(x.op as 'sext' | 'zext', from as 'i8' | 'i16', d, s);
  }

  /** d = s's low byte or half, extended: one CORE-V instruction, or a shift pair on plain RV32. */
  private narrow(op: 'sext' | 'zext', from: 'i8' | 'i16', d: Reg, s: Reg): void {
    if (from === 'i8' && op === 'zext') { this.emit('andi', 'I', [d], [s], { imm: 255 }); return; }
    if (this.opts.xpulp && this.on('corev-extend')) { this.emit(from === 'i8' ? 'cv.extbs' : op === 'zext' ? 'cv.exthz' : 'cv.exths', 'R1', [d], [s]); return; }
    const k = from === 'i8' ? 24 : 16, t = this.newReg();
    this.emit('slli', 'I', [t], [s], { imm: k });
    this.emit(op === 'zext' ? 'srli' : 'srai', 'I', [d], [t], { imm: k });
  }

  /**
   * A pointer whose only other use is `p + c` right after this access in the same block: the
   * access can be CORE-V's post-increment form (cv.lw rd, (p'), c), p' = p + c being written by it.
   */
  private postIncrement(x: Inst, b: number): Inst | undefined {
    if (!this.opts.xpulp || !this.on('post-increment')) return undefined;
    const p = x.args[0];
    if (this.useCount[p] !== 2 || (x.op === 'store' && x.args[1] === p)) return undefined;
    const inc = this.users[p].find((u) => u !== x);
    if (!inc || inc.op !== 'add' || inc.ty !== 'ptr' || inc.args[0] !== p || this.defBlock[inc.dst] !== b) return undefined;
    // By a constant (12 bits) or by a register (a run-time stride).
    const c = this.constOf(inc.args[1]);
    if (c === undefined ? this.vty[inc.args[1]] !== 'i32' : !fits12(c)) return undefined;
    // A register step is read by the access: it must be there by then.
    const sd = this.def[inc.args[1]];
    if (c === undefined && sd && this.blockOf.get(sd) === b && this.index.get(sd)! > this.index.get(x)!) return undefined;
    // p + c is written by the access: nothing may read it between the add and the access.
    const at = this.index.get(x)!;
    if (this.index.get(inc)! < at && this.users[inc.dst]?.some((u) => this.blockOf.get(u) === b && u.op !== 'phi' && this.index.get(u)! <= at)) return undefined;
    return inc;
  }

  /**
   * An 8- or 16-bit load whose value is only sign-extended (or stored back at its width, which
   * reads only the low bits): the sign-extending load, so the extensions cost nothing.
   */
  private signedLoad(x: Inst): boolean {
    if (x.ty !== 'i8' && x.ty !== 'i16') return false;
    const users = this.users[x.dst] ?? [];
    return users.some((u) => u.op === 'sext') &&
      users.every((u) => (u.op === 'sext' && u.args[0] === x.dst) || (u.op === 'store' && u.ty === x.ty && u.args[1] === x.dst && u.args[0] !== x.dst));
  }

  private selectLoad(x: Inst): void {
    const inc = this.postInc.get(x);
    if (inc) {
      const d = this.dst(x), q = this.r(inc.dst);
      const sext = this.signedLoad(x);
      if (x.ty === 'i8' || x.ty === 'i16') this.ext[x.dst] = sext ? 'sext' : 'zext';
      const op = x.ty === 'i8' ? (sext ? 'cv.lb' : 'cv.lbu') : x.ty === 'i16' ? (sext ? 'cv.lh' : 'cv.lhu') : 'cv.lw';
      this.mv(q, this.reg(x.args[0]));
      const k = this.constOf(inc.args[1]), vol = x.volatile ? { sideEffect: true } : {};
      if (k !== undefined) this.emit(op, 'LPI', [d, q], [q], { imm: k, ...vol });
      else this.emit(op, 'LPR', [d, q], [q, this.reg(inc.args[1])], vol);
      return;
    }
    const rr = this.regReg.get(x);
    if (rr) {
      const d = this.dst(x);
      const sext = this.signedLoad(x);
      if (x.ty === 'i8' || x.ty === 'i16') this.ext[x.dst] = sext ? 'sext' : 'zext';
      const op = x.ty === 'i8' ? (sext ? 'cv.lb' : 'cv.lbu') : x.ty === 'i16' ? (sext ? 'cv.lh' : 'cv.lhu') : 'cv.lw';
      this.emit(op, 'LRR', [d], [this.reg(rr.args[0]), this.reg(rr.args[1])], x.volatile ? { sideEffect: true } : {});
      return;
    }
    const a = this.addrOf(x.args[0]);
    const d = this.dst(x);
    if (x.ty === 'i8' || x.ty === 'i16') {
      const sext = this.signedLoad(x);
      this.ext[x.dst] = sext ? 'sext' : 'zext';
      this.load(x.ty === 'i8' ? (sext ? 'lb' : 'lbu') : (sext ? 'lh' : 'lhu'), d, a, 0, x.volatile);
      return;
    }
    this.load('lw', d, a, 0, x.volatile);
  }

  private selectStore(x: Inst, b: number): void {
    const [p, v] = x.args;
    const inc = this.postInc.get(x);
    void b;
    const rr = this.regReg.get(x);
    if (rr) {
      this.emit(x.ty === 'i8' ? 'cv.sb' : x.ty === 'i16' ? 'cv.sh' : 'cv.sw', 'SRR', [], [this.reg(v), this.reg(rr.args[0]), this.reg(rr.args[1])], { sideEffect: true });
      return;
    }
    if (inc) {
      const q = this.r(inc.dst);
      this.mv(q, this.reg(p));
      const op = x.ty === 'i8' ? 'cv.sb' : x.ty === 'i16' ? 'cv.sh' : 'cv.sw', k = this.constOf(inc.args[1]);
      if (k !== undefined) this.emit(op, 'SPI', [q], [this.reg(v), q], { imm: k, sideEffect: true });
      else this.emit(op, 'SPR', [q], [this.reg(v), q, this.reg(inc.args[1])], { sideEffect: true });
      return;
    }
    const a = this.addrOf(p, x.ty === 'i64' ? 4 : 0);
    if (x.ty === 'i64') {
      this.store('sw', this.reg64lo(v), a);
      this.store('sw', this.regHi(v), a, 4);
      return;
    }
    this.store(x.ty === 'i8' ? 'sb' : x.ty === 'i16' ? 'sh' : 'sw', this.reg(v), a);
  }

  private reg64lo(v: number): Reg {
    const c = this.const64(v);
    if (c !== undefined && BigInt.asIntN(32, c) === 0n) return ZERO;
    return this.r(v);
  }

  private memOp(x: Inst): void {
    const n = this.constOf(x.args[2]);
    if (n !== undefined && n >= 0 && n <= (x.op === 'memset' ? 256 : 64)) {
      const d = this.addrOf(x.args[0], n);
      if (x.op === 'memset') {
        const c = this.constOf(x.args[1]);
        let v: Reg = ZERO;
        if (c === undefined || (c & 0xff) !== 0) {
          // Splat the byte over a word.
          const b = this.newReg(); v = this.newReg();
          this.emit('andi', 'I', [b], [this.reg(x.args[1])], { imm: 255 });
          const k = this.newReg();
          this.li(k, 0x01010101);
          this.emit('mul', 'R', [v], [b, k]);
        }
        let off = 0;
        const fitsAt = (o: number): boolean => fits12(d.off + o + 4);
        for (; off + 4 <= n && fitsAt(off); off += 4) this.store('sw', v, d, off);
        for (; off < n && fitsAt(off); off++) this.store('sb', v, d, off);
        if (off >= n) return;
      } else {
        const s = this.addrOf(x.args[1], n);
        const fitsAt = (o: number): boolean => fits12(d.off + o + 4) && fits12(s.off + o + 4);
        let off = 0;
        // Every word is loaded before any is stored: the IR's memcpy may be asked to overlap
        // (struct assignment to itself), which reads the source whole first.
        const words: [Reg, number, string][] = [];
        for (; off + 4 <= n && fitsAt(off); off += 4) { const t = this.newReg(); this.load('lw', t, s, off); words.push([t, off, 'sw']); }
        for (; off < n && fitsAt(off); off++) { const t = this.newReg(); this.load('lbu', t, s, off); words.push([t, off, 'sb']); }
        if (off >= n) { for (const [t, o, op] of words) this.store(op, t, d, o); return; }
      }
    }
    this.callSym(x.op, [x.args[0], x.args[1], x.args[2]], ['ptr', 'i32', 'i32'], 3, undefined);
  }

  private bswap(d: Reg, s: Reg): void {
    // ((s & 0xff) << 24) | ((s & 0xff00) << 8) | ((s >> 8) & 0xff00) | (s >> 24)
    const t = Array.from({ length: 8 }, () => this.newReg());
    const m = this.newReg();
    this.li(m, 0xff00);
    this.emit('slli', 'I', [t[0]], [s], { imm: 24 });
    this.emit('and', 'R', [t[1]], [s, m]);
    this.emit('slli', 'I', [t[2]], [t[1]], { imm: 8 });
    this.emit('srli', 'I', [t[3]], [s], { imm: 8 });
    this.emit('and', 'R', [t[4]], [t[3], m]);
    this.emit('srli', 'I', [t[5]], [s], { imm: 24 });
    this.emit('or', 'R', [t[6]], [t[0], t[2]]);
    this.emit('or', 'R', [t[7]], [t[4], t[5]]);
    this.emit('or', 'R', [d], [t[6], t[7]]);
  }

  // ---------------------------------------------------------------- calls

  private call(x: Inst): void {
    const args = x.indirect ? x.args.slice(1) : x.args;
    this.callSym(x.indirect ? undefined : x.sym!, args, x.argTys ?? args.map((a) => this.vty[a]), x.nfixed ?? args.length, x.indirect ? x.args[0] : undefined, x);
  }

  private callSym(sym: string | undefined, args: number[], tys: IrType[], nfixed: number, fnReg: number | undefined, x?: Inst): void {
    this.mf.hasCalls = true;
    const lay = argLayout(tys, nfixed);
    this.mf.outArgs = Math.max(this.mf.outArgs, lay.stack);
    const regUses: Reg[] = [];
    // Stack arguments first (stores), then the argument registers (copies right before the call).
    args.forEach((v, i) => lay.parts[i].forEach((p, k) => {
      if ('stack' in p) this.emit('sw', 'S', [], [k === 0 ? this.partLo(v, tys[i]) : this.regHi(v), SP], { imm: p.stack, sideEffect: true });
    }));
    const fn = fnReg !== undefined ? this.reg(fnReg) : undefined;
    args.forEach((v, i) => lay.parts[i].forEach((p, k) => {
      if ('reg' in p) { this.mv(p.reg, k === 0 ? this.partLo(v, tys[i]) : this.regHi(v)); regUses.push(p.reg); }
    }));
    if (fn !== undefined) this.emit('jalr', 'CALL', [...CALLER_SAVED], [fn, ...regUses], { sideEffect: true });
    else this.emit('call', 'CALL', [...CALLER_SAVED], regUses, { sym, sideEffect: true });
    if (x && x.dst >= 0) {
      this.mv(this.dst(x), A0);
      if (x.ty === 'i64') this.mv(this.rh(x.dst), A0 + 1);
    }
  }

  private partLo(v: number, ty: IrType): Reg { return ty === 'i64' ? this.reg64lo(v) : this.reg(v); }

  private ret(x: Inst): void {
    const uses: Reg[] = [];
    if (x.args.length) {
      const v = x.args[0];
      if (x.ty === 'i64') { this.mv(A0, this.reg64lo(v)); this.mv(A0 + 1, this.regHi(v)); uses.push(A0, A0 + 1); }
      else { this.mv(A0, this.reg(v)); uses.push(A0); }
    }
    this.emit('ret', 'RET', [], uses, { sideEffect: true });
  }

  // ---------------------------------------------------------------- inline asm

  private inlineAsm(x: Inst): void {
    const info = x.asm!;
    const defs: Reg[] = [];
    const uses: Reg[] = [];
    const operands: NonNullable<MInst['asm']>['operands'] = [];
    const fixedReg = (name: string | undefined): Reg | undefined => {
      if (name === undefined) return undefined;
      const r = regByName(name);
      if (r === undefined || r === ZERO || r === SP) throw new CcError(posOf(x.loc), `'${name}' is not a register an asm operand can use`);
      return r;
    };
    const after: [Reg, Reg][] = [];
    const early: Reg[] = [];
    info.outs.forEach((o, i) => {
      const c = info.outputs[i];
      if (!/^[=+]&?r$/.test(c)) throw new CcError(posOf(x.loc), `inline asm output constraint '${c}' is not supported (only "=r" and "+r")`);
      const fixed = fixedReg(info.outRegs?.[i]);
      if (fixed !== undefined) { defs.push(fixed); after.push([this.r(o), fixed]); } else defs.push(this.r(o));
      if (c.includes('&')) early.push(defs[defs.length - 1]);
      operands.push({ k: 'def', i });
    });
    // The front end reads each "+r" output in as an input tied to it, first among the inputs;
    // those are not numbered in the template (GCC numbers outputs, then the written inputs).
    const implicit = info.outputs.filter((c) => c.startsWith('+')).length;
    info.inputs.forEach((c, j) => {
      const v = x.args[j];
      if (/^\d+$/.test(c)) {
        const k = Number(c);
        if (k >= info.outs.length) throw new CcError(posOf(x.loc), `inline asm input tied to operand ${k}, which is not an output`);
        this.mv(defs[k], this.reg(v));
        uses.push(defs[k]);
        if (j >= implicit) operands.push({ k: 'def', i: k });
      } else if (c === 'r' || c === 'g' || c === 'rm') {
        const fixed = fixedReg(info.inRegs?.[j]);
        if (fixed !== undefined) { this.mv(fixed, this.reg(v)); uses.push(fixed); } else uses.push(this.reg(v));
        operands.push({ k: 'use', i: uses.length - 1 });
      } else if (/^[inIJK]+$/.test(c)) {
        const k = this.constOf(v);
        if (k === undefined) throw new CcError(posOf(x.loc), `inline asm operand with constraint '${c}' needs a constant`);
        operands.push({ k: 'imm', v: k });
      } else throw new CcError(posOf(x.loc), `inline asm input constraint '${c}' is not supported (only "r", "i" and tied digits)`);
    });
    for (const c of info.clobbers) {
      if (c === 'memory' || c === 'cc') continue;
      const r = regByName(c);
      if (r === undefined) throw new CcError(posOf(x.loc), `unknown register '${c}' in the inline asm's clobbers`);
      if (r === SP || r === ZERO) throw new CcError(posOf(x.loc), `inline asm may not clobber '${c}'`);
      defs.push(r);
    }
    this.emit('asm', 'ASM', defs, uses, { asm: { template: info.template, operands }, ...(early.length ? { early } : {}), sideEffect: info.volatile || info.clobbers.includes('memory') || info.outs.length === 0 });
    for (const [d, r] of after) this.mv(d, r);
  }

  // ---------------------------------------------------------------- control flow

  private target(from: number, to: number): number {
    return this.edge.get(`${from}:${to}`) ?? to;
  }

  private jump(t: number): void {
    this.emit('j', 'J', [], [], { target: t });
    this.cur.succs.push(t);
  }

  private condBranch(op: string, a: Reg, b: Reg, t: number): void {
    this.emit(op, 'B', [], [a, b], { target: t });
    this.cur.succs.push(t);
  }

  /** v, or the phi it was copied to when v is read after its hardware loop (exitAlias). */
  private afterLoop(v: number, b: number): number {
    const a = this.exitAlias.get(v);
    return a && a.header !== b ? a.phi : v;
  }

  /** Copies for the phis of `to` on the edge from `from` (into the edge's own block when it has one). */
  private phiCopies(from: number, to: number): void {
    const hw = this.hw.get(to);
    const phis = this.f.blocks[to].insts.filter((i) => i.op === 'phi' && i !== hw?.deadIv?.phi);
    if (!phis.length && hw?.pre !== from) return;
    const where = this.target(from, to);
    const saved = this.cur;
    const onEdge = where !== to;
    if (onEdge) this.cur = this.mf.blocks[where];
    const pairs: [Reg, Reg][] = [];
    for (const p of phis) {
      const k = p.targets!.indexOf(from);
      if (k < 0) throw new Error(`${p.loc}: phi of block ${to} has no entry for block ${from}`);
      const v = this.afterLoop(p.args[k], to);
      if (this.vty[p.dst] === 'i64') { pairs.push([this.r(p.dst), this.reg64lo(v)], [this.rh(p.dst), this.regHi(v)]); }
      else pairs.push([this.r(p.dst), this.reg(v)]);
    }
    const dsts = new Set(pairs.map(([d]) => d));
    if (pairs.some(([d, s]) => d !== s && dsts.has(s))) {
      // A phi reads another's result: copy all sources out first (a parallel copy).
      const tmps = pairs.map(([, s]) => { const t = this.newReg(); this.mv(t, s); return t; });
      pairs.forEach(([d], i) => this.mv(d, tmps[i]));
    } else for (const [d, s] of pairs) this.mv(d, s);
    if (hw && hw.pre === from) this.setupHwLoop(hw);
    if (onEdge) { this.jump(to); this.cur = saved; }
  }

  /**
   * The trip count of a hardware loop into a register, then cv.setup (hwloop.ts says which
   * counts). A do-while runs once even when its first test fails: unless the entry's guard
   * rules that out, such a count (0 or negative) becomes 1.
   */
  private setupHwLoop(hw: HwLoop): void {
    const cnt = this.newReg();
    if (hw.constCount !== undefined) this.li(cnt, hw.constCount);
    else {
      // A constant bound or start may be the body's own (constants are block-local): not
      // defined yet here, so it is loaded at the setup.
      const atSetup = (v: number): Reg => {
        const k = this.constOf(v);
        if (k === undefined) return this.reg(v);
        if (k === 0) return ZERO;
        const r = this.newReg();
        this.li(r, k);
        return r;
      };
      const b = hw.bound < 0 ? ZERO : atSetup(hw.bound);
      let a = atSetup(hw.init);
      if (hw.initOffset) { const t = this.newReg(); this.addConst(t, a, hw.initOffset); a = t; }
      const [hi, lo] = hw.down ? [a, b] : [b, a];
      const R = (op: string, s1: Reg, s2: Reg, d = this.newReg()): Reg => { this.emit(op, 'R', [d], [s1, s2]); return d; };
      const I = (op: string, s1: Reg, k: number, d = this.newReg()): Reg => { this.emit(op, 'I', [d], [s1], { imm: k }); return d; };
      const strict = hw.kind === 'lt' || hw.kind === 'gt';
      const guard = hw.kind === 'ne' || hw.guarded;
      let x = lo === ZERO ? hi : R('sub', hi, lo);
      if (strict) {
        if (hw.shift) x = I('srli', I('addi', x, (1 << hw.shift) - 1), hw.shift);
      } else {
        if (hw.shift) x = I('srli', x, hw.shift);
        if (hw.kind !== 'ne') x = I('addi', x, 1);
      }
      if (guard) { if (x !== cnt) this.mv(cnt, x); }
      else {
        // ok = lo < hi (strict) or !(hi < lo); count = ((x - 1) & -ok) + 1.
        const lt = hw.unsigned ? 'sltu' : 'slt';
        const ok = strict ? R(lt, lo, hi) : I('xori', R(lt, hi, lo), 1);
        const mask = R('sub', ZERO, ok);
        I('addi', R('and', I('addi', x, -1), mask), 1, cnt);
      }
    }
    this.emit('cv.setup', 'HWSETUP', [], [cnt], { imm: 0, target: hw.header, sideEffect: true });
  }

  private branch(x: Inst, b: number): void {
    const hw = this.hw.get(b);
    if (hw) {
      // A hardware loop's latch: the back edge's copies end the body, then its end label.
      this.phiCopies(b, b);
      this.emit('hwend', 'HWEND', [], [], { target: b, sideEffect: true });
      this.cur.succs.push(b);
      for (const { phi, step } of hw.fixups) this.addConst(this.r(phi), this.r(phi), -step);
      this.phiCopies(b, hw.exit);
      this.jump(this.target(b, hw.exit));
      return;
    }
    const [t, f] = x.targets!;
    if (t === f) { this.phiCopies(b, t); this.jump(this.target(b, t)); return; }
    this.phiCopies(b, t); this.phiCopies(b, f);
    const tt = this.target(b, t), ft = this.target(b, f);
    const c = x.args[0];
    const d = this.def[c];
    if (d && this.fused.has(d)) this.fusedBranch(d, tt);
    else if (this.vty[c] === 'i64') {
      const o = this.newReg();
      this.emit('or', 'R', [o], [this.reg64lo(c), this.regHi(c)]);
      this.condBranch('bne', o, ZERO, tt);
    } else this.condBranch('bne', this.reg(c), ZERO, tt);
    this.jump(ft);
  }

  private fusedBranch(d: Inst, t: number): void {
    const [a, b] = d.args;
    const unsigned = d.ty === 'ptr' || d.op[0] === 'u';
    const cb = this.constOf(b);
    if ((d.op === 'eq' || d.op === 'ne') && cb !== undefined && cb !== 0 && fits5(cb) && this.opts.xpulp && this.on('branch-immediate')) {
      this.emit(d.op === 'eq' ? 'cv.beqimm' : 'cv.bneimm', 'BI', [], [this.reg(a)], { imm: cb, target: t });
      this.cur.succs.push(t);
      return;
    }
    const A = this.reg(a), B = this.reg(b);
    const lt = unsigned ? 'bltu' : 'blt', ge = unsigned ? 'bgeu' : 'bge';
    switch (d.op) {
      case 'eq': this.condBranch('beq', A, B, t); return;
      case 'ne': this.condBranch('bne', A, B, t); return;
      case 'slt': case 'ult': this.condBranch(lt, A, B, t); return;
      case 'sge': case 'uge': this.condBranch(ge, A, B, t); return;
      case 'sgt': case 'ugt': this.condBranch(lt, B, A, t); return;
      case 'sle': case 'ule': this.condBranch(ge, B, A, t); return;
    }
  }

  private selectSwitch(x: Inst, b: number): void {
    const targets = x.targets!;
    if (distinct(targets).length === 1) { this.phiCopies(b, targets[0]); this.jump(this.target(b, targets[0])); return; }
    for (const t of distinct(targets)) this.phiCopies(b, t);
    const v = x.args[0];
    const wide = x.ty === 'i64';
    x.cases!.forEach((c, i) => {
      const t = this.target(b, targets[i + 1]);
      if (wide) {
        const lo = Number(BigInt.asIntN(32, c)), hi = Number(BigInt.asIntN(32, c >> 32n));
        const tl = this.newReg(), th = this.newReg(), o = this.newReg();
        this.xorConst(tl, this.reg64lo(v), lo);
        this.xorConst(th, this.regHi(v), hi);
        this.emit('or', 'R', [o], [tl, th]);
        this.condBranch('beq', o, ZERO, t);
        return;
      }
      const k = Number(BigInt.asIntN(32, c));
      if (k === 0) this.condBranch('beq', this.reg(v), ZERO, t);
      else if (fits5(k) && this.opts.xpulp && this.on('branch-immediate')) { this.emit('cv.beqimm', 'BI', [], [this.reg(v)], { imm: k, target: t }); this.cur.succs.push(t); }
      else { const r = this.newReg(); this.li(r, k); this.condBranch('beq', this.reg(v), r, t); }
    });
    this.jump(this.target(b, targets[0]));
  }

  private xorConst(d: Reg, s: Reg, k: number): void {
    if (k === 0) this.mv(d, s);
    else if (fits12(k)) this.emit('xori', 'I', [d], [s], { imm: k });
    else { const r = this.newReg(); this.li(r, k); this.emit('xor', 'R', [d], [s, r]); }
  }

  // ---------------------------------------------------------------- 64-bit values

  /** Selects an instruction that makes or reads a 64-bit value; false when the 32-bit path applies. */
  private select64(x: Inst): boolean {
    const [a, b] = x.args;
    switch (x.op) {
      case 'const': {
        const c = this.const64(x.dst)!;
        const lo = Number(BigInt.asIntN(32, c)), hi = Number(BigInt.asIntN(32, c >> 32n));
        if (lo !== 0) this.li(this.r(x.dst), lo);
        if (hi !== 0) this.li(this.rh(x.dst), hi);
        return true;
      }
      case 'copy': this.alias(x.dst, a); return true;
      case 'phi': this.r(x.dst); this.rh(x.dst); return true;
      case 'load': {
        const ad = this.addrOf(a, 4);
        this.load('lw', this.r(x.dst), ad);
        this.load('lw', this.rh(x.dst), ad, 4);
        return true;
      }
      case 'sext': case 'zext': {
        if (x.from === 'i64') { this.alias(x.dst, a); return true; }
        let lo = this.reg(a);
        if (x.from === 'i8' || x.from === 'i16') {
          const t = this.newReg();
          this.narrow(x.op, x.from, t, lo);
          lo = t;
        }
        this.setLo(x.dst, lo);
        if (x.op === 'zext') this.setHi(x.dst, ZERO);
        else this.emit('srai', 'I', [this.rh(x.dst)], [lo], { imm: 31 });
        return true;
      }
      case 'trunc': this.setLo(x.dst, this.reg64lo(a)); return true;
      case 'add': case 'sub': {
        const al = this.reg64lo(a), ah = this.regHi(a), bl = this.reg64lo(b), bh = this.regHi(b);
        const dl = this.r(x.dst), dh = this.rh(x.dst), c = this.newReg(), h = this.newReg();
        if (x.op === 'add') {
          this.emit('add', 'R', [dl], [al, bl]);
          this.emit('sltu', 'R', [c], [dl, al]);
          this.emit('add', 'R', [h], [ah, bh]);
          this.emit('add', 'R', [dh], [h, c]);
        } else {
          this.emit('sltu', 'R', [c], [al, bl]);
          this.emit('sub', 'R', [dl], [al, bl]);
          this.emit('sub', 'R', [h], [ah, bh]);
          this.emit('sub', 'R', [dh], [h, c]);
        }
        return true;
      }
      case 'and': case 'or': case 'xor':
        this.emit(x.op, 'R', [this.r(x.dst)], [this.reg64lo(a), this.reg64lo(b)]);
        this.emit(x.op, 'R', [this.rh(x.dst)], [this.regHi(a), this.regHi(b)]);
        return true;
      case 'mul': {
        // The high word: mulhu(al, bl) + al*bh + ah*bl, without the terms of a high word known 0
        // ((uint64_t)u * v of 32-bit values is one mulhu).
        const al = this.reg64lo(a), bl = this.reg64lo(b);
        let hi = this.newReg();
        this.emit('mulhu', 'R', [hi], [al, bl]);
        for (const [l, h] of [[al, b], [bl, a]] as const) {
          if (this.hiIsZero(h)) continue;
          const t = this.newReg(), s = this.newReg();
          this.emit('mul', 'R', [t], [l, this.regHi(h)]);
          this.emit('add', 'R', [s], [hi, t]);
          hi = s;
        }
        this.mv(this.rh(x.dst), hi);
        this.emit('mul', 'R', [this.r(x.dst)], [al, bl]);
        return true;
      }
      case 'sdiv': case 'udiv': case 'srem': case 'urem': {
        const fn = { sdiv: '__divdi3', udiv: '__udivdi3', srem: '__moddi3', urem: '__umoddi3' }[x.op];
        this.callSym(fn, [a, b], ['i64', 'i64'], 2, undefined, x);
        return true;
      }
      case 'shl': case 'lshr': case 'ashr': this.shift64(x); return true;
      case 'eq': case 'ne': case 'slt': case 'sle': case 'sgt': case 'sge': case 'ult': case 'ule': case 'ugt': case 'uge':
        this.compare64(x); return true;
      case 'call': case 'asm': case 'ret': case 'store': return false;
      default: return false;
    }
  }

  /** True when a 64-bit value's high word is known to be 0 (a zero extension, a small constant, a phi of such). */
  private hiIsZero(v: number, depth = 0): boolean {
    const c = this.const64(v);
    if (c !== undefined) return (c >> 32n) === 0n;
    const d = this.def[v];
    if (!d || depth > 4) return false;
    if (d.op === 'zext') return d.from !== 'i64';
    if (d.op === 'copy') return this.hiIsZero(d.args[0], depth + 1);
    if (d.op === 'phi') return d.args.every((a) => a === v || this.hiIsZero(a, depth + 1));
    if (d.op === 'and') return d.args.some((a) => this.hiIsZero(a, depth + 1));
    if (d.op === 'lshr') { const k = this.const64(d.args[1]); return k !== undefined && (k & 63n) >= 32n; }
    return false;
  }

  private shift64(x: Inst): void {
    const [a, b] = x.args;
    const al = this.reg64lo(a), ah = this.regHi(a);
    const dl = this.r(x.dst), dh = this.rh(x.dst);
    const c = this.const64(b);
    if (c !== undefined) {
      const n = Number(c & 63n);
      const I = (op: string, d: Reg, s: Reg, k: number): void => { this.emit(op, 'I', [d], [s], { imm: k }); };
      if (n === 0) { this.mv(dl, al); this.mv(dh, ah); return; }
      if (x.op === 'shl') {
        if (n >= 32) { if (n === 32) this.mv(dh, al); else I('slli', dh, al, n - 32); this.mv(dl, ZERO); return; }
        const t1 = this.newReg(), t2 = this.newReg();
        I('slli', t1, ah, n); I('srli', t2, al, 32 - n); this.emit('or', 'R', [dh], [t1, t2]); I('slli', dl, al, n);
        return;
      }
      const sr = x.op === 'ashr' ? 'srai' : 'srli';
      if (n >= 32) {
        if (n === 32) this.mv(dl, ah); else I(sr, dl, ah, n - 32);
        if (x.op === 'ashr') I('srai', dh, ah, 31); else this.mv(dh, ZERO);
        return;
      }
      const t1 = this.newReg(), t2 = this.newReg();
      I('srli', t1, al, n); I('slli', t2, ah, 32 - n); this.emit('or', 'R', [dl], [t1, t2]); I(sr, dh, ah, n);
      return;
    }
    // A variable count n (0..63), without branches: compute both the n < 32 and the n >= 32
    // results with shifts by n & 31 and pick with a mask of (n - 32) >> 31.
    const R = (op: string, d: Reg, s1: Reg, s2: Reg): void => { this.emit(op, 'R', [d], [s1, s2]); };
    const I = (op: string, d: Reg, s: Reg, k: number): void => { this.emit(op, 'I', [d], [s], { imm: k }); };
    const nr = () => this.newReg();
    const n = nr(), m = nr(), nm = nr(), inv = nr(), t = nr();
    I('andi', n, this.reg64lo(b), 63);
    I('addi', t, n, -32);
    I('srai', m, t, 31);          // all ones when n < 32
    I('xori', nm, m, -1);
    I('xori', inv, n, 31);        // 31 - n for n < 32
    if (x.op === 'shl') {
      const lsh = nr(), hsh = nr(), s1 = nr(), s2 = nr(), hi1 = nr(), x1 = nr(), x2 = nr();
      R('sll', lsh, al, n);
      R('sll', hsh, ah, n);
      I('srli', s1, al, 1);
      R('srl', s2, s1, inv);
      R('or', hi1, hsh, s2);
      R('and', x1, hi1, m);
      R('and', x2, lsh, nm);
      R('or', dh, x1, x2);
      R('and', dl, lsh, m);
      return;
    }
    const lsh = nr(), hsh = nr(), s1 = nr(), s2 = nr(), lo1 = nr(), x1 = nr(), x2 = nr();
    R('srl', lsh, al, n);
    R(x.op === 'ashr' ? 'sra' : 'srl', hsh, ah, n);
    I('slli', s1, ah, 1);
    R('sll', s2, s1, inv);
    R('or', lo1, lsh, s2);
    R('and', x1, lo1, m);
    R('and', x2, hsh, nm);
    R('or', dl, x1, x2);
    if (x.op === 'ashr') {
      const sg = nr(), y1 = nr(), y2 = nr();
      I('srai', sg, ah, 31);
      R('and', y1, hsh, m);
      R('and', y2, sg, nm);
      R('or', dh, y1, y2);
    } else R('and', dh, hsh, m);
  }

  private compare64(x: Inst): void {
    const [a, b] = x.args;
    const al = this.reg64lo(a), ah = this.regHi(a), bl = this.reg64lo(b), bh = this.regHi(b);
    const d = this.r(x.dst);
    const nr = () => this.newReg();
    if (x.op === 'eq' || x.op === 'ne') {
      const t1 = nr(), t2 = nr(), o = nr();
      this.emit('xor', 'R', [t1], [al, bl]);
      this.emit('xor', 'R', [t2], [ah, bh]);
      this.emit('or', 'R', [o], [t1, t2]);
      if (x.op === 'eq') this.emit('sltiu', 'I', [d], [o], { imm: 1 });
      else this.emit('sltu', 'R', [d], [ZERO, o]);
      return;
    }
    const unsigned = x.op[0] === 'u';
    // p < q on pairs: hi(p) < hi(q), or equal high words and lo(p) <u lo(q).
    const less = (pl: Reg, ph: Reg, ql: Reg, qh: Reg, out: Reg): void => {
      const h = nr(), e = nr(), e1 = nr(), l = nr(), le = nr();
      this.emit(unsigned ? 'sltu' : 'slt', 'R', [h], [ph, qh]);
      this.emit('xor', 'R', [e], [ph, qh]);
      this.emit('sltiu', 'I', [e1], [e], { imm: 1 });
      this.emit('sltu', 'R', [l], [pl, ql]);
      this.emit('and', 'R', [le], [l, e1]);
      this.emit('or', 'R', [out], [h, le]);
    };
    const op = x.op.slice(1);
    if (op === 'lt') less(al, ah, bl, bh, d);
    else if (op === 'gt') less(bl, bh, al, ah, d);
    else {
      const t = nr();
      if (op === 'ge') less(al, ah, bl, bh, t); else less(bl, bh, al, ah, t);
      this.emit('xori', 'I', [d], [t], { imm: 1 });
    }
    this.ext[x.dst] = 'bool';
  }
}

/** The CORE-V SIMD mnemonic stem of each lane-wise IR op. */
const SIMD_NAME: Partial<Record<Op, string>> = {
  vadd: 'add', vsub: 'sub', vshl: 'sll', vlshr: 'srl', vashr: 'sra',
  veq: 'cmpeq', vne: 'cmpne', vslt: 'cmplt', vsle: 'cmple', vsgt: 'cmpgt', vsge: 'cmpge',
  vult: 'cmpltu', vule: 'cmpleu', vugt: 'cmpgtu', vuge: 'cmpgeu',
};

/** Per lane compare of (v, w): the SIMD op selecting v where it holds and w elsewhere, and the one selecting w there and v elsewhere. */
const MINMAX: Partial<Record<Op, [string, string]>> = {
  vsgt: ['max', 'min'], vsge: ['max', 'min'], vslt: ['min', 'max'], vsle: ['min', 'max'],
  vugt: ['maxu', 'minu'], vuge: ['maxu', 'minu'], vult: ['minu', 'maxu'], vule: ['minu', 'maxu'],
};

/**
 * The .sci immediate for a constant second operand c of cv.<name>: c must splat one lane value,
 * which the 6-bit immediate reproduces (signed ops sign-extend it, shifts use it mod the width).
 */
function simdImmediate(name: string, lane: 8 | 16, c: number | undefined): number | undefined {
  if (c === undefined) return undefined;
  const mask = lane === 8 ? 0xff : 0xffff;
  const u = c & mask;
  if ((Math.imul(u, lane === 8 ? 0x01010101 : 0x00010001) | 0) !== (c | 0)) return undefined;
  if (name === 'sll' || name === 'srl' || name === 'sra') return u & (lane - 1);
  if (name.startsWith('cmp') && name.endsWith('u') || name === 'maxu' || name === 'minu') return u <= 63 ? u : undefined;
  const sv = (u << (32 - lane)) >> (32 - lane);
  return sv >= -32 && sv <= 31 ? sv : undefined;
}

function isTerm(op: Op): boolean {
  return op === 'br' || op === 'jmp' || op === 'switch' || op === 'ret' || op === 'unreachable';
}

function distinct(xs: number[]): number[] {
  return [...new Set(xs)];
}

function regByName(name: string): Reg | undefined {
  const i = REG_NAMES.indexOf(name);
  if (i >= 0) return i;
  const m = /^x(\d+)$/.exec(name);
  if (m && Number(m[1]) < 32) return Number(m[1]);
  if (name === 'fp') return 8;
  return undefined;
}

function posOf(loc: string): { file: string; line: number; col: number } {
  const i = loc.lastIndexOf(':');
  return { file: loc.slice(0, i), line: Number(loc.slice(i + 1)) || 0, col: 1 };
}
