// AST -> IR (ir.ts). Every C object (locals, parameters, compound literals, temporaries of
// struct type) gets a stack slot; expressions become three-address instructions over fresh
// vregs; control flow becomes basic blocks. Struct values are handled by address: an
// expression of struct type yields the address of its bytes, assignment copies them. Calls,
// parameters and results follow the ilp32 psABI as callconv.ts describes it.
import type { Expr, LocalInit, Obj, Stmt, TranslationUnit } from './ast';
import { argPassing, coercedBytes, irType, passingTypes, retPassing, type Passing } from './callconv';
import { INT, isInteger, isRecord, UCHAR, type CType, type Member } from './ctype';
import { evalConst } from './consteval';
import { errorAt, posOf } from './error';
import type { Inst, IrFunction, IrGlobal, IrModule, IrType, Op, VecOp } from './ir';
import { FLOAT_MSG } from './parse';
import type { Token } from './token';

export function lower(unit: TranslationUnit): IrModule {
  const globals: IrGlobal[] = [];
  const functions: IrFunction[] = [];
  const defined = new Set<string>();
  const used = new Set<string>();
  const floatFns = new Map<string, Token>();
  for (const g of unit.globals) if (g.fn && g.floatTok) floatFns.set(g.symbol, g.floatTok);
  for (const g of unit.globals) {
    if (g.type.kind === 'func') {
      if (g.fn && g.floatTok) {
        if (!g.isStatic) errorAt(g.floatTok, FLOAT_MSG);
        continue;
      }
      if (g.fn) { functions.push(new FnLowering(g, used).run()); defined.add(g.symbol); }
      continue;
    }
    if (!g.isDefinition && !g.init) continue;
    if (defined.has(g.symbol)) continue;
    defined.add(g.symbol);
    const ty = g.type;
    if (ty.kind === 'array' && ty.len! < 0) g.type = { ...ty, len: 1, size: ty.base!.size };
    for (const r of g.init?.relocs ?? []) used.add(r.symbol);
    globals.push({
      name: g.symbol, size: g.type.size, align: Math.max(g.type.align, g.attrs?.aligned ?? 1, g.align ?? 1),
      bytes: g.init?.bytes, relocs: g.init?.relocs ?? [], section: g.attrs?.section,
      isStatic: !!g.isStatic, readonly: isReadonly(g.type) || g.symbol.startsWith('.str.'),
    });
  }
  for (const g of unit.globals) for (const r of g.init?.relocs ?? []) { const t = floatFns.get(r.symbol); if (t) errorAt(t, FLOAT_MSG); }
  for (const s of used) { const t = floatFns.get(s); if (t) errorAt(t, FLOAT_MSG); }
  const externs = [...used].filter((s) => !defined.has(s)).sort();
  return { globals, functions, externs };
}

function isReadonly(t: CType): boolean {
  while (t.kind === 'array') t = t.base!;
  return !!t.isConst;
}

const BIN_OPS: Record<string, [Op, Op]> = {
  '+': ['add', 'add'], '-': ['sub', 'sub'], '*': ['mul', 'mul'], '/': ['sdiv', 'udiv'], '%': ['srem', 'urem'],
  '<<': ['shl', 'shl'], '>>': ['ashr', 'lshr'], '&': ['and', 'and'], '|': ['or', 'or'], '^': ['xor', 'xor'],
  '==': ['eq', 'eq'], '!=': ['ne', 'ne'], '<': ['slt', 'ult'], '<=': ['sle', 'ule'], '>': ['sgt', 'ugt'], '>=': ['sge', 'uge'],
};

class FnLowering {
  private f: IrFunction;
  private cur = 0;
  private loc = '';
  private slotOf = new Map<Obj, number>();
  private breaks: number[] = [];
  private continues: number[] = [];
  private labels = new Map<string, number>();
  private gotos = new Map<string, Token>();
  private placed = new Set<string>();
  private caseBlocks = new Map<Stmt, number>();
  private sretReg = -1;
  private retPass: Passing;

  constructor(private obj: Obj, private used: Set<string>) {
    const ft = obj.type;
    this.retPass = retPassing(ft.base!);
    const sret = this.retPass.k === 'indirect';
    // The line table places the prologue at the definition, not at a prototype in a header.
    const pos = posOf(obj.fn?.tok ?? obj.tok);
    this.f = {
      name: obj.symbol, params: [], ret: sret ? undefined : passingTypes(this.retPass)[0], sret,
      variadic: !!ft.variadic, isStatic: !!obj.isStatic, slots: [], blocks: [{ insts: [] }], nregs: 0,
      attrs: { alwaysInline: obj.attrs?.alwaysInline, noinline: obj.attrs?.noinline, noreturn: obj.attrs?.noreturn, section: obj.attrs?.section, inlineHint: obj.isInline || undefined },
      loc: `${pos.file}:${pos.line}`,
    };
  }

  run(): IrFunction {
    const def = this.obj.fn!;
    const f = this.f;
    this.setLoc(def.tok);
    if (f.sret) { f.params.push('ptr'); this.sretReg = f.nregs++; }
    const passes = def.params.map((p) => argPassing(p.type));
    const paramRegs = passes.map((pass) => passingTypes(pass).map((ty) => { f.params.push(ty); return f.nregs++; }));
    for (const o of def.locals) this.slotOf.set(o, this.newSlot(o.type, o.name, o.align));
    def.params.forEach((p, i) => {
      const pass = passes[i], regs = paramRegs[i];
      if (pass.k === 'ignore') return;
      const addr = this.slotAddr(p);
      if (pass.k === 'indirect') this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [addr, regs[0], this.iconst(p.type.size)] });
      else if (pass.k === 'coerce') {
        // The parts are stored whole: the parameter's slot covers them.
        const s = this.f.slots[this.slotOf.get(p)!];
        s.size = Math.max(s.size, coercedBytes(pass.parts));
        s.align = Math.max(s.align, 4);
        this.storeParts(addr, pass.parts, regs);
      } else if (pass.k === 'extend') this.store(p.type, addr, this.emit({ op: 'trunc', ty: pass.ty, dst: this.reg(), args: [regs[0]], from: 'i32' }));
      else this.store(p.type, addr, regs[0]);
    });
    this.stmt(def.body);
    for (const [name, tok] of this.gotos) if (!this.placed.has(name)) errorAt(tok, `use of undeclared label '${name}'`);
    // Falling off the end: main returns 0; other functions return an undefined value.
    if (f.ret) this.emit({ op: 'ret', ty: f.ret, dst: -1, args: [f.ret === 'i64' ? this.const64(0n) : this.iconst(0, f.ret)] });
    else this.emit({ op: 'ret', ty: 'i32', dst: -1, args: [] });
    // Blocks that end without a terminator (dead code after a jump) get one.
    for (const b of f.blocks) {
      const last = b.insts[b.insts.length - 1];
      if (!last || !isTerminator(last.op)) b.insts.push({ op: 'unreachable', ty: 'i32', dst: -1, args: [], loc: this.loc });
    }
    return f;
  }

  // ---- emission helpers ----

  private setLoc(t: Token): void {
    const p = posOf(t);
    this.loc = `${p.file}:${p.line}`;
  }

  private emit(x: Omit<Inst, 'loc'>): number {
    const b = this.f.blocks[this.cur];
    const last = b.insts[b.insts.length - 1];
    if (last && isTerminator(last.op)) {
      // Code after a jump: give it its own (unreachable) block.
      this.cur = this.newBlock();
    }
    (x as Inst).loc = this.loc;
    this.f.blocks[this.cur].insts.push(x as Inst);
    return x.dst;
  }

  private reg(): number { return this.f.nregs++; }
  private newBlock(): number { this.f.blocks.push({ insts: [] }); return this.f.blocks.length - 1; }
  private newSlot(t: CType, name = '', align?: number): number {
    this.f.slots.push({ size: Math.max(t.size, 1), align: Math.max(t.align, align ?? 1), name });
    return this.f.slots.length - 1;
  }

  private op(op: Op, ty: IrType, ...args: number[]): number {
    return this.emit({ op, ty, dst: this.reg(), args });
  }

  private iconst(v: number, ty: IrType = 'i32'): number {
    return this.emit({ op: 'const', ty, dst: this.reg(), args: [], imm: v | 0 });
  }

  private const64(v: bigint): number {
    return this.emit({ op: 'const', ty: 'i64', dst: this.reg(), args: [], imm: BigInt.asIntN(64, v) });
  }

  private slotAddr(o: Obj): number {
    const s = this.slotOf.get(o);
    if (s === undefined) throw new Error(`no slot for ${o.name}`);
    return this.emit({ op: 'slot', ty: 'ptr', dst: this.reg(), args: [], imm: s });
  }

  private tempAddr(slot: number): number {
    return this.emit({ op: 'slot', ty: 'ptr', dst: this.reg(), args: [], imm: slot });
  }

  private jmp(t: number): void { this.emit({ op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [t] }); }
  private br(c: number, ty: IrType, t: number, f: number): void { this.emit({ op: 'br', ty, dst: -1, args: [c], targets: [t, f] }); }
  private at(b: number): void { this.cur = b; }

  private addOffset(addr: number, off: number): number {
    if (off === 0) return addr;
    return this.op('add', 'ptr', addr, this.iconst(off, 'ptr'));
  }

  private load(t: CType, addr: number): number {
    return this.emit({ op: 'load', ty: irType(t), dst: this.reg(), args: [addr], ...(t.isVolatile ? { volatile: true } : {}) });
  }

  private store(t: CType, addr: number, v: number): void {
    this.emit({ op: 'store', ty: irType(t), dst: -1, args: [addr, v], ...(t.isVolatile ? { volatile: true } : {}) });
  }

  /** Converts a value between integer/pointer types (C99 6.3.1.3: wrap; bool: != 0). */
  private convert(v: number, from: CType, to: CType): number {
    if (to.kind === 'void') return -1;
    const ft = irType(from), tt = irType(to);
    if (to.kind === 'bool') {
      if (from.kind === 'bool') return v;
      const z = ft === 'i64' ? this.const64(0n) : this.iconst(0, ft === 'ptr' ? 'ptr' : 'i32');
      const src = ft === 'i8' || ft === 'i16' ? this.op('zext', 'i32', v) : v;
      if (ft === 'i8' || ft === 'i16') this.lastFrom(ft);
      const ne = this.emit({ op: 'ne', ty: ft === 'i8' || ft === 'i16' ? 'i32' : ft, dst: this.reg(), args: [src, z] });
      return this.emit({ op: 'trunc', ty: 'i8', dst: this.reg(), args: [ne], from: 'i32' });
    }
    if (to.kind === 'vector' && from.kind !== 'vector') return this.splat(v, from, to);
    if (from.size === to.size) {
      if (ft === tt) return v;
      return v; // i32 <-> ptr, vector <-> int of its size: same bits
    }
    if (to.size < from.size) return this.emit({ op: 'trunc', ty: tt, dst: this.reg(), args: [v], from: ft });
    const signed = !from.unsigned && from.kind !== 'ptr' && from.kind !== 'bool';
    return this.emit({ op: signed ? 'sext' : 'zext', ty: tt, dst: this.reg(), args: [v], from: ft });
  }

  private lastFrom(ft: IrType): void {
    const b = this.f.blocks[this.cur];
    b.insts[b.insts.length - 1].from = ft;
  }

  /** A scalar broadcast to every lane of a vector (GCC's scalar operand of a vector operation). */
  private splat(v: number, from: CType, vt: CType): number {
    const lane = packedLane(vt);
    if (lane) return this.splatPacked(this.convert(v, from, INT), lane);
    const slot = this.newSlot(vt);
    const base = this.tempAddr(slot);
    const ev = this.convert(v, from, vt.base!);
    for (let i = 0; i < vt.len!; i++) this.store(vt.base!, this.addOffset(base, i * vt.base!.size), ev);
    return this.load(vt, base);
  }

  // ---- statements ----

  private stmt(s: Stmt): void {
    this.setLoc(s.tok);
    switch (s.k) {
      case 'null': return;
      case 'expr': this.expr(s.e); return;
      case 'block': for (const x of s.body) this.stmt(x); return;
      case 'decl': {
        if (s.init) this.localInit(s.obj, s.init);
        return;
      }
      case 'return': {
        if (!s.e) { this.emit({ op: 'ret', ty: 'i32', dst: -1, args: [] }); return; }
        const v = this.expr(s.e);
        const pass = this.retPass;
        if (pass.k === 'indirect') {
          this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [this.sretReg, v, this.iconst(s.e.ty.size)] });
          this.emit({ op: 'ret', ty: 'i32', dst: -1, args: [] });
        } else if (pass.k === 'ignore') this.emit({ op: 'ret', ty: 'i32', dst: -1, args: [] });
        else {
          const r = pass.k === 'coerce' ? this.loadParts(v, s.e.ty, pass.parts)[0] : pass.k === 'extend' ? this.widen(v, pass) : v;
          this.emit({ op: 'ret', ty: this.f.ret!, dst: -1, args: [r] });
        }
        return;
      }
      case 'if': {
        const t = this.newBlock(), e = this.newBlock(), end = s.els ? this.newBlock() : e;
        this.cond(s.c, t, e);
        this.at(t); this.stmt(s.then); this.jmp(end);
        if (s.els) { this.at(e); this.stmt(s.els); this.jmp(end); }
        this.at(end);
        return;
      }
      case 'loop': {
        if (s.init) this.stmt(s.init);
        const head = this.newBlock(), body = this.newBlock(), next = this.newBlock(), end = this.newBlock();
        this.jmp(s.doWhile ? body : head);
        this.at(head);
        this.setLoc(s.tok);
        if (s.cond) this.cond(s.cond, body, end); else this.jmp(body);
        if (s.pragmas.length) this.f.blocks[head].insts[0].pragmas = s.pragmas;
        this.breaks.push(end); this.continues.push(next);
        this.at(body); this.stmt(s.body); this.jmp(next);
        this.breaks.pop(); this.continues.pop();
        this.at(next);
        if (s.inc) { this.setLoc(s.inc.tok); this.expr(s.inc); }
        this.jmp(head);
        this.at(end);
        return;
      }
      case 'switch': {
        const v = this.expr(s.c);
        const end = this.newBlock();
        for (const c of s.cases) this.caseBlocks.set(c.label, this.newBlock());
        const dflt = s.dflt ? this.newBlock() : end;
        if (s.dflt) this.caseBlocks.set(s.dflt, dflt);
        // Case values as signed numbers of the switch's width, like the constants: 0xffffffffu is -1.
        const ty = irType(s.c.ty), bits = ty === 'i64' ? 64 : 32;
        this.emit({ op: 'switch', ty, dst: -1, args: [v], cases: s.cases.map((c) => BigInt.asIntN(bits, c.val)), targets: [dflt, ...s.cases.map((c) => this.caseBlocks.get(c.label)!)] });
        this.breaks.push(end);
        this.stmt(s.body);
        this.breaks.pop();
        this.jmp(end);
        this.at(end);
        return;
      }
      case 'case': {
        const b = this.caseBlocks.get(s)!;
        this.jmp(b);
        this.at(b);
        this.stmt(s.body);
        return;
      }
      case 'break': case 'continue': {
        const stack = s.k === 'break' ? this.breaks : this.continues;
        if (!stack.length) errorAt(s.tok, `'${s.k}' outside a loop${s.k === 'break' ? ' or switch' : ''}`);
        this.jmp(stack[stack.length - 1]);
        return;
      }
      case 'goto': if (!this.gotos.has(s.label)) this.gotos.set(s.label, s.tok); this.jmp(this.label(s.label)); return;
      case 'label': {
        if (this.placed.has(s.label)) errorAt(s.tok, `redefinition of label '${s.label}'`);
        this.placed.add(s.label);
        const b = this.label(s.label);
        this.jmp(b);
        this.at(b);
        this.stmt(s.body);
        return;
      }
      case 'asm': {
        const args: number[] = [];
        const inputs: string[] = [];
        const outputs: string[] = [];
        const outs: number[] = [];
        const addrs: number[] = [];
        s.outputs.forEach((o, i) => {
          const a = this.addr(o.e);
          addrs.push(a);
          outputs.push(o.constraint);
          outs.push(this.reg());
          if (o.constraint.startsWith('+')) { args.push(this.load(o.e.ty, a)); inputs.push(String(i)); }
        });
        for (const x of s.inputs) { args.push(this.expr(x.e)); inputs.push(x.constraint); }
        const regOf = (e: Expr): string | undefined => (e.k === 'var' && e.obj.isLocal ? e.obj.attrs?.asmName : undefined);
        const outRegs = s.outputs.map((o) => regOf(o.e));
        const inRegs = [...s.outputs.filter((o) => o.constraint.startsWith('+')).map((o) => regOf(o.e)), ...s.inputs.map((x) => regOf(x.e))];
        const fixed = [...outRegs, ...inRegs].some((r) => r !== undefined);
        this.emit({ op: 'asm', ty: 'i32', dst: -1, args, asm: { template: s.template, outputs, outs, inputs, clobbers: s.clobbers, volatile: s.volatile, ...(fixed ? { outRegs, inRegs } : {}) } });
        s.outputs.forEach((o, i) => this.store(o.e.ty, addrs[i], outs[i]));
        return;
      }
    }
  }

  private label(name: string): number {
    let b = this.labels.get(name);
    if (b === undefined) { b = this.newBlock(); this.labels.set(name, b); }
    return b;
  }

  private localInit(o: Obj, init: LocalInit): void {
    const base = this.slotAddr(o);
    if (init.zero) this.emit({ op: 'memset', ty: 'ptr', dst: -1, args: [base, this.iconst(0), this.iconst(o.type.size)] });
    for (const st of init.stores) {
      const v = this.expr(st.e);
      const a = this.addOffset(base, st.offset);
      if (st.bitWidth !== undefined) this.storeBits(st.ty, a, st.bitOffset!, st.bitWidth, v, st.packed);
      else if (isRecord(st.ty)) this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [a, v, this.iconst(st.ty.size)] });
      else this.store(st.ty, a, v);
    }
  }

  /** Branches on a scalar's truth. */
  private cond(e: Expr, t: number, f: number): void {
    if (e.k === 'land') {
      const mid = this.newBlock();
      this.cond(e.a, mid, f);
      this.at(mid);
      this.cond(e.b, t, f);
      return;
    }
    if (e.k === 'lor') {
      const mid = this.newBlock();
      this.cond(e.a, t, mid);
      this.at(mid);
      this.cond(e.b, t, f);
      return;
    }
    if (e.k === 'lnot') { this.cond(e.a, f, t); return; }
    const v = this.expr(e);
    let ty = irType(e.ty);
    let x = v;
    if (ty === 'i8' || ty === 'i16') { x = this.emit({ op: 'zext', ty: 'i32', dst: this.reg(), args: [v], from: ty }); ty = 'i32'; }
    this.br(x, ty, t, f);
  }

  // ---- expressions ----

  /** The address of an lvalue (or of a struct-valued expression's bytes). */
  private addr(e: Expr): number {
    switch (e.k) {
      case 'var':
        if (e.obj.isLocal) return this.slotAddr(e.obj);
        this.used.add(e.obj.symbol);
        return this.emit({ op: 'addr', ty: 'ptr', dst: this.reg(), args: [], sym: e.obj.symbol });
      case 'str':
        this.used.add(e.obj.symbol);
        return this.emit({ op: 'addr', ty: 'ptr', dst: this.reg(), args: [], sym: e.obj.symbol });
      case 'deref': return this.expr(e.a);
      case 'member': return this.addOffset(isRecord(e.a.ty) ? this.recordAddr(e.a) : this.addr(e.a), e.m.offset);
      case 'init': this.localInit(e.obj, e.stores); return this.slotAddr(e.obj);
      case 'velem': {
        const base = this.recordAddr(e.a);
        const off = this.op('mul', 'i32', this.expr(e.idx), this.iconst(e.ty.size));
        return this.op('add', 'ptr', base, off);
      }
      case 'comma': this.expr(e.a); return this.addr(e.b);
      default:
        if (isRecord(e.ty)) return this.expr(e);
        errorAt(e.tok, 'expression is not addressable');
    }
  }

  /** The address of a struct/vector-valued expression: lvalues directly, rvalues via a temporary. */
  private recordAddr(e: Expr): number {
    if (e.k === 'var' || e.k === 'deref' || e.k === 'member' || e.k === 'init' || e.k === 'str') return this.addr(e);
    const v = this.expr(e);
    if (isRecord(e.ty)) return v;
    const slot = this.newSlot(e.ty);
    const a = this.tempAddr(slot);
    this.store(e.ty, a, v);
    return a;
  }

  private expr(e: Expr): number {
    this.setLoc(e.tok);
    switch (e.k) {
      case 'num':
        if (e.ty.kind === 'void') return -1;
        if (irType(e.ty) === 'i64') return this.const64(e.val);
        return this.emit({ op: 'const', ty: irType(e.ty), dst: this.reg(), args: [], imm: Number(BigInt.asIntN(32, e.val)) });
      case 'var': case 'str': case 'deref': case 'member': case 'init': case 'velem': {
        if (e.k === 'velem') {
          const i = this.laneIndex(e);
          if (i !== undefined) return this.extractLane(this.expr(e.a), e.a.ty, i);
        }
        if (e.k === 'member' && e.m.bitWidth !== undefined) return this.loadBits(e.m, this.addr(e));
        const a = this.addr(e);
        if (isRecord(e.ty) || e.ty.kind === 'array' || e.ty.kind === 'func') return a;
        return this.load(e.ty, a);
      }
      case 'addr': return this.addr(e.a);
      case 'neg': {
        const v = this.expr(e.a);
        if (packedLane(e.ty)) return this.packedBin('-', e.ty, this.iconst(0), v);
        if (e.ty.kind === 'vector') return this.vectorOp(e.ty, (x) => this.op('sub', 'i32', this.iconst(0), x), [v]);
        const t = irType(e.ty);
        return this.op('sub', t, t === 'i64' ? this.const64(0n) : this.iconst(0, t), v);
      }
      case 'bitnot': {
        const v = this.expr(e.a);
        const t = irType(e.ty);
        return this.op('xor', t, v, t === 'i64' ? this.const64(-1n) : this.iconst(-1, t));
      }
      case 'lnot': case 'land': case 'lor': case 'cond': return this.viaBranches(e);
      case 'bin': {
        if (e.a.ty.kind === 'vector' && packedLane(e.a.ty)) return this.packedBin(e.op, e.a.ty, this.vectorValue(e.a), this.vectorValue(e.b));
        if (e.ty.kind === 'vector') {
          const [op] = BIN_OPS[e.op];
          const signed = !e.a.ty.base!.unsigned;
          const real = op === 'sdiv' || op === 'srem' || op === 'ashr' ? (signed ? op : BIN_OPS[e.op][1]) : op;
          const cmp = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge'].includes(op);
          const cop = cmp && !signed ? BIN_OPS[e.op][1] : real;
          return this.vectorOp(e.ty, (x, y) => {
            const r = this.op(cop, 'i32', x, y);
            return cmp ? this.op('sub', 'i32', this.iconst(0), r) : r;
          }, [this.expr(e.a), this.expr(e.b)], e.a.ty);
        }
        const a = this.expr(e.a), b = this.expr(e.b);
        const ot = e.a.ty;
        const [sop, uop] = BIN_OPS[e.op];
        const unsigned = !!ot.unsigned || ot.kind === 'ptr';
        const t = irType(ot);
        if (e.op === '<<' || e.op === '>>') {
          // The shift count is converted to the shifted operand's width.
          const bt = irType(e.b.ty);
          const cnt = bt === t ? b : this.convert(b, e.b.ty, t === 'i64' ? { ...INT, size: 8, kind: 'llong' } : INT);
          return this.op(unsigned ? uop : sop, t, a, cnt);
        }
        return this.op(unsigned ? uop : sop, t, a, b);
      }
      case 'ptradd': {
        const p = this.expr(e.a);
        const i = this.expr(e.b);
        const off = e.scale === 1 ? i : this.op('mul', 'i32', i, this.iconst(e.scale));
        return this.op('add', 'ptr', p, off);
      }
      case 'ptrdiff': {
        const d = this.op('sub', 'i32', this.expr(e.a), this.expr(e.b));
        return e.scale === 1 ? d : this.op('sdiv', 'i32', d, this.iconst(e.scale));
      }
      case 'comma': this.expr(e.a); return this.expr(e.b);
      case 'assign': {
        if (e.a.k === 'member' && e.a.m.bitWidth !== undefined) {
          const a = this.addr(e.a);
          const v = this.expr(e.b);
          this.storeBits(e.a.m.type, a, e.a.m.bitOffset!, e.a.m.bitWidth, v, e.a.m.packed);
          return this.loadBits(e.a.m, a);
        }
        if (isRecord(e.ty)) {
          const a = this.addr(e.a);
          const v = this.expr(e.b);
          this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [a, v, this.iconst(e.ty.size)] });
          return a;
        }
        if (e.a.k === 'velem') {
          const i = this.laneIndex(e.a);
          if (i !== undefined) {
            // The vector is read and written whole: its variable stays promotable to a register.
            const a = this.recordAddr(e.a.a);
            const v = this.expr(e.b);
            this.store(e.a.a.ty, a, this.insertLane(this.load(e.a.a.ty, a), e.a.a.ty, i, v));
            return v;
          }
        }
        const a = this.addr(e.a);
        const v = this.expr(e.b);
        this.store(e.ty, a, v);
        return v;
      }
      case 'opassign': {
        const bits = e.a.k === 'member' ? e.a.m : undefined;
        const a = this.addr(e.a);
        const old = bits?.bitWidth !== undefined ? this.loadBits(bits, a) : this.load(e.a.ty, a);
        const b = this.expr(e.b);
        let res: number;
        if (e.op === 'ptr+' || e.op === 'ptr-') {
          const scale = e.ty.base!.kind === 'void' ? 1 : e.ty.base!.size;
          let off = scale === 1 ? b : this.op('mul', 'i32', b, this.iconst(scale));
          if (e.op === 'ptr-') off = this.op('sub', 'i32', this.iconst(0), off);
          res = this.op('add', 'ptr', old, off);
        } else if (packedLane(e.ty)) {
          res = this.packedBin(e.op, e.ty, old, e.b.ty.kind === 'vector' ? b : this.splat(b, e.b.ty, e.ty));
        } else if (e.ty.kind === 'vector') {
          const [op, uop] = BIN_OPS[e.op];
          const o = e.ty.base!.unsigned ? uop : op;
          res = this.vectorOp(e.ty, (x, y) => this.op(o, 'i32', x, y), [old, b]);
        } else {
          const x = this.convert(old, e.a.ty, e.opTy);
          const [sop, uop] = BIN_OPS[e.op];
          const t = irType(e.opTy);
          let y = b;
          if ((e.op === '<<' || e.op === '>>') && irType(e.b.ty) !== t) y = this.convert(b, e.b.ty, e.opTy);
          const r = this.op(e.opTy.unsigned ? uop : sop, t, x, y);
          res = this.convert(r, e.opTy, e.a.ty);
        }
        if (bits?.bitWidth !== undefined) { this.storeBits(bits.type, a, bits.bitOffset!, bits.bitWidth, res, bits.packed); return this.loadBits(bits, a); }
        this.store(e.a.ty, a, res);
        return res;
      }
      case 'incdec': {
        const bits = e.a.k === 'member' ? e.a.m : undefined;
        const a = this.addr(e.a);
        const old = bits?.bitWidth !== undefined ? this.loadBits(bits, a) : this.load(e.a.ty, a);
        let res: number;
        if (e.ty.kind === 'ptr') res = this.op('add', 'ptr', old, this.iconst(e.delta));
        else {
          const wide = e.ty.size === 8 ? e.ty : INT;
          const x = this.convert(old, e.ty, wide);
          const t = irType(wide);
          const r = this.op('add', t, x, t === 'i64' ? this.const64(BigInt(e.delta)) : this.iconst(e.delta));
          res = this.convert(r, wide, e.ty);
        }
        if (bits?.bitWidth !== undefined) {
          this.storeBits(bits.type, a, bits.bitOffset!, bits.bitWidth, res, bits.packed);
          return e.post ? old : this.loadBits(bits, a);
        }
        this.store(e.ty, a, res);
        return e.post ? old : res;
      }
      case 'cast': {
        const v = this.expr(e.a);
        if (e.ty.kind === 'void') return -1;
        // A scalar cast to a vector of its size keeps the bits (GCC); convert() would splat it.
        if (e.ty.kind === 'vector' && e.a.ty.kind !== 'vector' && e.a.ty.size === e.ty.size) return v;
        return this.convert(v, e.a.ty, e.ty);
      }
      case 'call': return this.call(e);
      case 'stmtexpr': {
        const last = e.body[e.body.length - 1];
        for (const s of e.body.slice(0, -1)) this.stmt(s);
        if (last && last.k === 'expr') { this.setLoc(last.tok); return this.expr(last.e); }
        if (last) this.stmt(last);
        return -1;
      }
      case 'vastart': {
        const ap = this.expr(e.a);
        const va = this.emit({ op: 'vastart', ty: 'ptr', dst: this.reg(), args: [] });
        this.emit({ op: 'store', ty: 'ptr', dst: -1, args: [ap, va] });
        return -1;
      }
      case 'vaarg': {
        // The anonymous arguments are one array of words (callconv.ts): an 8-aligned 8-byte value
        // starts at an 8-aligned word, an aggregate sits in place (or its address, over 8 bytes).
        const apAddr = this.expr(e.a);
        let ap = this.emit({ op: 'load', ty: 'ptr', dst: this.reg(), args: [apAddr] });
        const pass = argPassing(e.ty);
        const size = pass.k === 'ignore' ? 0 : pass.k === 'indirect' ? 4 : pass.k === 'coerce' ? coercedBytes(pass.parts) : Math.max(4, e.ty.size);
        if (size === 8 && e.ty.align >= 8) ap = this.op('and', 'ptr', this.op('add', 'ptr', ap, this.iconst(7, 'ptr')), this.iconst(-8, 'ptr'));
        if (size) this.emit({ op: 'store', ty: 'ptr', dst: -1, args: [apAddr, this.op('add', 'ptr', ap, this.iconst(size, 'ptr'))] });
        if (pass.k === 'indirect') return this.emit({ op: 'load', ty: 'ptr', dst: this.reg(), args: [ap] });
        if (isRecord(e.ty)) return ap;
        return this.load(e.ty, ap);
      }
      case 'builtin': {
        const args = e.args.map((a) => this.expr(a));
        switch (e.name) {
          case 'memcpy': case 'memmove': this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args }); return args[0];
          case 'memset': this.emit({ op: 'memset', ty: 'ptr', dst: -1, args }); return args[0];
          case 'unreachable': case 'trap': this.emit({ op: 'unreachable', ty: 'i32', dst: -1, args: [] }); return -1;
          case 'bswap16': {
            const w = this.op('zext', 'i32', args[0]); this.lastFrom('i16');
            const s = this.emit({ op: 'bswap', ty: 'i32', dst: this.reg(), args: [w] });
            return this.emit({ op: 'trunc', ty: 'i16', dst: this.reg(), args: [this.op('lshr', 'i32', s, this.iconst(16))], from: 'i32' });
          }
          case 'bswap32': return this.op('bswap', 'i32', args[0]);
          case 'parity': return this.op('and', 'i32', this.op('popcount', 'i32', args[0]), this.iconst(1));
          default: return this.op(e.name as Op, 'i32', args[0]);
        }
      }
    }
  }

  /** Logical operators and ?: through branches and a temporary slot (no phis before mem2reg). */
  private viaBranches(e: Expr): number {
    const ty = e.ty.kind === 'void' ? undefined : isRecord(e.ty) ? ({ kind: 'ptr', size: 4, align: 4 } as CType) : e.ty;
    const slot = ty ? this.newSlot(ty) : -1;
    const end = this.newBlock();
    const set = (v: number): void => { if (ty) this.store(ty, this.tempAddr(slot), v); this.jmp(end); };
    if (e.k === 'cond') {
      const t = this.newBlock(), f = this.newBlock();
      this.cond(e.c, t, f);
      this.at(t); set(this.expr(e.a));
      this.at(f); set(this.expr(e.b));
    } else {
      const t = this.newBlock(), f = this.newBlock();
      this.cond(e, t, f);
      this.at(t); set(this.iconst(1));
      this.at(f); set(this.iconst(0));
    }
    this.at(end);
    return ty ? this.load(ty, this.tempAddr(slot)) : -1;
  }

  private call(e: Extract<Expr, { k: 'call' }>): number {
    const ft = e.fnType;
    let callee: string | undefined;
    let fnReg = -1;
    if (e.fn.k === 'addr' && e.fn.a.k === 'var' && !e.fn.a.obj.isLocal) { callee = e.fn.a.obj.symbol; this.used.add(callee); }
    else fnReg = this.expr(e.fn);
    const args: number[] = [];
    const argTys: IrType[] = [];
    const rt = ft.base!;
    const rp = retPassing(rt);
    let sretAddr = -1;
    if (rp.k === 'indirect') {
      sretAddr = this.tempAddr(this.newSlot(rt));
      args.push(sretAddr); argTys.push('ptr');
    }
    let nfixed = args.length;
    e.args.forEach((a, i) => {
      const pass = argPassing(a.ty);
      const v = this.expr(a);
      let vals: number[];
      if (pass.k === 'ignore') vals = [];
      else if (pass.k === 'indirect') {
        // By value: the callee gets the address of a copy.
        const copy = this.tempAddr(this.newSlot(a.ty));
        this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [copy, v, this.iconst(a.ty.size)] });
        vals = [copy];
      } else if (pass.k === 'coerce') vals = this.loadParts(v, a.ty, pass.parts);
      else if (pass.k === 'extend') vals = [this.widen(v, pass)];
      else vals = [v];
      args.push(...vals); argTys.push(...passingTypes(pass));
      if (i < ft.params!.length) nfixed += vals.length;
    });
    const ret = rp.k === 'indirect' ? undefined : passingTypes(rp)[0];
    this.setLoc(e.tok);
    const dst = ret ? this.reg() : -1;
    if (callee) this.emit({ op: 'call', ty: ret ?? 'i32', dst, args, sym: callee, nfixed, argTys });
    else this.emit({ op: 'call', ty: ret ?? 'i32', dst, args: [fnReg, ...args], indirect: true, nfixed, argTys });
    switch (rp.k) {
      case 'indirect': return sretAddr;
      case 'coerce': {
        const a = this.partsSlot(rt, rp.parts);
        this.storeParts(a, rp.parts, [dst]);
        return a;
      }
      case 'extend': return this.emit({ op: 'trunc', ty: rp.ty, dst: this.reg(), args: [dst], from: 'i32' });
      case 'ignore': return isRecord(rt) ? this.tempAddr(this.newSlot(rt)) : -1;
      case 'direct': return dst;
    }
  }

  /** A narrow integer extended to the i32 it travels as. */
  private widen(v: number, p: Extract<Passing, { k: 'extend' }>): number {
    return this.emit({ op: p.signed ? 'sext' : 'zext', ty: 'i32', dst: this.reg(), args: [v], from: p.ty });
  }

  /** A temporary for an aggregate of type `t` that the integers `parts` cover (at least 4-aligned). */
  private partsSlot(t: CType, parts: readonly IrType[]): number {
    this.f.slots.push({ size: coercedBytes(parts), align: Math.max(t.align, 4), name: '' });
    return this.tempAddr(this.f.slots.length - 1);
  }

  /** An aggregate's bytes at `addr` read as the integers `parts` (from a padded copy when it is shorter than they or under 4-aligned). */
  private loadParts(addr: number, t: CType, parts: readonly IrType[]): number[] {
    let src = addr;
    if (t.size !== coercedBytes(parts) || t.align < 4) {
      src = this.partsSlot(t, parts);
      this.emit({ op: 'memcpy', ty: 'ptr', dst: -1, args: [src, addr, this.iconst(t.size)] });
    }
    let off = 0;
    return parts.map((ty) => {
      const v = this.emit({ op: 'load', ty, dst: this.reg(), args: [this.addOffset(src, off)] });
      off += ty === 'i64' ? 8 : 4;
      return v;
    });
  }

  private storeParts(addr: number, parts: readonly IrType[], vals: readonly number[]): void {
    let off = 0;
    parts.forEach((ty, i) => {
      this.emit({ op: 'store', ty, dst: -1, args: [this.addOffset(addr, off), vals[i]] });
      off += ty === 'i64' ? 8 : 4;
    });
  }

  /** An elementwise vector operation: lanes through a temporary slot. */
  private vectorOp(vt: CType, f: (...lanes: number[]) => number, vals: number[], inType = vt): number {
    const elem = vt.base!, inElem = inType.base!;
    const es = elem.size;
    const ins = vals.map((v) => { const a = this.tempAddr(this.newSlot(vt)); this.store(vt, a, v); return a; });
    const out = this.tempAddr(this.newSlot(vt));
    for (let i = 0; i < vt.len!; i++) {
      const lanes = ins.map((a) => this.convert(this.load(inElem, this.addOffset(a, i * es)), inElem, INT));
      const r = f(...lanes);
      this.store(elem, this.addOffset(out, i * es), this.convert(r, INT, elem));
    }
    return this.load(vt, out);
  }

  /** A packed vector operand: a scalar splatted by vectorOperand (parse.ts) is splatted from its own value, not truncated first. */
  private vectorValue(e: Expr): number {
    if (e.k === 'cast' && e.ty.kind === 'vector' && e.a.ty.kind !== 'vector' && e.a.ty.size !== e.ty.size) {
      let s = e.a;
      if (s.k === 'cast' && isInteger(s.a.ty) && irType(s.a.ty) === 'i32') s = s.a;
      return this.splatPacked(this.convert(this.expr(s), s.ty, INT), packedLane(e.ty)!);
    }
    return this.expr(e);
  }

  private splatPacked(v: number, lane: 8 | 16 | 32): number {
    return lane === 32 ? v : this.emit({ op: 'vsplat', ty: 'i32', dst: this.reg(), args: [v], lane });
  }

  /**
   * A C operator on packed vectors (4 bytes in one i32): one lane-wise IR op where there is one
   * (comparisons give -1/0 lanes); * / % lane by lane in registers.
   */
  private packedBin(cop: string, vt: CType, a: number, b: number): number {
    const lane = packedLane(vt)!;
    const signed = !vt.base!.unsigned;
    const [sop, uop] = BIN_OPS[cop];
    const op = signed ? sop : uop;
    if (op === 'and' || op === 'or' || op === 'xor') return this.op(op, 'i32', a, b);
    if (lane === 32) {
      const r = this.op(op, 'i32', a, b);
      return CMP_OPS.has(op) ? this.op('sub', 'i32', this.iconst(0), r) : r;
    }
    const vop = VEC_OF[op];
    if (vop) return this.emit({ op: vop, ty: 'i32', dst: this.reg(), args: [a, b], lane });
    let out = -1;
    for (let i = 0; i < 32 / lane; i++) {
      const r = this.op(op, 'i32', this.laneValue(a, lane, i, signed), this.laneValue(b, lane, i, signed));
      const m = this.op('and', 'i32', r, this.iconst(lane === 8 ? 0xff : 0xffff));
      const placed = i ? this.op('shl', 'i32', m, this.iconst(lane * i)) : m;
      out = out < 0 ? placed : this.op('or', 'i32', out, placed);
    }
    return out;
  }

  /** Lane i of a packed vector as an int (sign- or zero-extended). */
  private laneValue(v: number, lane: number, i: number, signed: boolean): number {
    const up = 32 - lane * (i + 1);
    const t = up ? this.op('shl', 'i32', v, this.iconst(up)) : v;
    return this.op(signed ? 'ashr' : 'lshr', 'i32', t, this.iconst(32 - lane));
  }

  /** v[i] for a constant i of a vector held in a register: its element (of the element's IR type). */
  private extractLane(v: number, vt: CType, i: number): number {
    const lane = packedLane(vt)!;
    if (lane === 32) return v;
    const s = i ? this.op('lshr', 'i32', v, this.iconst(lane * i)) : v;
    return this.emit({ op: 'trunc', ty: irType(vt.base!), dst: this.reg(), args: [s], from: 'i32' });
  }

  /** v with lane i replaced by the element value x. */
  private insertLane(v: number, vt: CType, i: number, x: number): number {
    const lane = packedLane(vt)!;
    if (lane === 32) return x;
    const mask = lane === 8 ? 0xff : 0xffff;
    const w = this.convert(x, { ...vt.base!, unsigned: true }, U32);
    const m = this.op('and', 'i32', w, this.iconst(mask));
    const placed = i ? this.op('shl', 'i32', m, this.iconst(lane * i)) : m;
    return this.op('or', 'i32', this.op('and', 'i32', v, this.iconst(~(mask << (lane * i)))), placed);
  }

  /** The constant lane index of v[i] on a packed vector (in range), else undefined (the vector is then read through memory). */
  private laneIndex(e: Extract<Expr, { k: 'velem' }>): number | undefined {
    if (!packedLane(e.a.ty)) return undefined;
    const c = evalConst(e.idx);
    if (!c || c.sym !== undefined) return undefined;
    const i = Number(c.val);
    return i >= 0 && i < e.a.ty.len! ? i : undefined;
  }

  /** Reads a bit-field: the storage unit (or, packed, the bytes it covers) shifted and sign- or zero-extended. */
  private loadBits(m: Member, addr: number): number {
    const t = m.type;
    const w = this.bitWindow(t, m.bitOffset!, m.bitWidth!, m.packed);
    const it: IrType = w.wide ? 'i64' : 'i32';
    const bits = w.wide ? 64 : 32;
    const unit = this.readWindow(t, addr, w);
    const up = bits - w.shift - m.bitWidth!;
    const k = (n: number): number => (w.wide ? this.const64(BigInt(n)) : this.iconst(n));
    let v = up ? this.op('shl', it, unit, k(up)) : unit;
    const signed = !t.unsigned && t.kind !== 'bool';
    v = this.op(signed ? 'ashr' : 'lshr', it, v, k(bits - m.bitWidth!));
    return this.convert(v, w.wide ? U64 : INT, t);
  }

  /**
   * Where a bit-field's bits are read from: its storage unit (the declared type's size at the
   * unit's offset, 8 bytes when it straddles), or in a packed record only the bytes its bits
   * cover (`byte`..`byte + bytes`), the bits starting at `shift` in what is read.
   */
  private bitWindow(t: CType, bitOff: number, width: number, packed?: boolean): { wide: boolean; byte: number; bytes: number; shift: number } {
    if (packed) {
      const byte = Math.floor(bitOff / 8), bytes = Math.ceil((bitOff + width) / 8) - byte;
      return { wide: bytes > 4, byte, bytes, shift: bitOff - 8 * byte };
    }
    const wide = t.size === 8 || bitOff + width > t.size * 8;
    return { wide, byte: 0, bytes: 0, shift: bitOff };
  }

  /** The window's bits as an unsigned i32 / i64 (little-endian bytes when packed). */
  private readWindow(t: CType, addr: number, w: { wide: boolean; byte: number; bytes: number }): number {
    if (w.bytes) {
      const it: IrType = w.wide ? 'i64' : 'i32';
      let v = -1;
      for (let i = 0; i < w.bytes; i++) {
        let b = this.convert(this.load(UCHAR, this.addOffset(addr, w.byte + i)), UCHAR, w.wide ? U64 : U32);
        if (i) b = this.op('shl', it, b, w.wide ? this.const64(BigInt(8 * i)) : this.iconst(8 * i));
        v = v < 0 ? b : this.op('or', it, v, b);
      }
      return v;
    }
    if (w.wide) return this.load(U64, addr);
    return this.convert(this.load(t, addr), { ...t, unsigned: true }, U32);
  }

  /** Writes a bit-field: read, mask, merge, write the storage unit (or, packed, the bytes it covers). */
  private storeBits(t: CType, addr: number, bitOff: number, width: number, v: number, packed?: boolean): void {
    const w = this.bitWindow(t, bitOff, width, packed);
    const it: IrType = w.wide ? 'i64' : 'i32';
    const k = (n: bigint): number => (w.wide ? this.const64(n) : this.iconst(Number(BigInt.asIntN(32, n))));
    const mask = ((1n << BigInt(width)) - 1n) << BigInt(w.shift);
    const ut = w.wide ? U64 : U32;
    const unit = this.readWindow(t, addr, w);
    const val = this.convert(v, { ...t, unsigned: true }, ut);
    const shifted = this.op('and', it, this.op('shl', it, val, k(BigInt(w.shift))), k(mask));
    const kept = this.op('and', it, unit, k(~mask));
    const merged = this.op('or', it, kept, shifted);
    if (w.bytes) {
      for (let i = 0; i < w.bytes; i++) {
        const b = i ? this.op('lshr', it, merged, k(BigInt(8 * i))) : merged;
        this.store(UCHAR, this.addOffset(addr, w.byte + i), this.convert(b, ut, UCHAR));
      }
    } else if (w.wide) this.store(U64, addr, merged);
    else this.store(t, addr, this.convert(merged, ut, t));
  }
}

/** The lane width of a vector held in one i32 register (4 bytes of 8-, 16- or 32-bit elements). */
function packedLane(t: CType): 8 | 16 | 32 | undefined {
  if (t.kind !== 'vector' || t.size !== 4) return undefined;
  return (t.base!.size * 8) as 8 | 16 | 32;
}

const CMP_OPS = new Set<Op>(['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge']);
const VEC_OF: Partial<Record<Op, VecOp>> = {
  add: 'vadd', sub: 'vsub', shl: 'vshl', lshr: 'vlshr', ashr: 'vashr', eq: 'veq', ne: 'vne',
  slt: 'vslt', sle: 'vsle', sgt: 'vsgt', sge: 'vsge', ult: 'vult', ule: 'vule', ugt: 'vugt', uge: 'vuge',
};

const U32: CType = { kind: 'int', size: 4, align: 4, unsigned: true };
const U64: CType = { kind: 'llong', size: 8, align: 8, unsigned: true };

function isTerminator(op: Op): boolean {
  return op === 'br' || op === 'jmp' || op === 'ret' || op === 'switch' || op === 'unreachable';
}
