// The assembler: GNU-syntax RISC-V assembly (what clang-19 -S emits for rv32imc + CORE-V) ->
// AsmObject. Three steps: read the statements into per-section item lists (instructions,
// bytes, alignment, space); lay the sections out, growing branches and jumps that do not reach
// (compressed -> full -> inverted branch over a jal) until nothing changes; emit the bytes,
// resolving what is local to a section and turning the rest into relocations.
import { encode } from '../isa/encode';
import { B_IMM, C_B, C_J, J_IMM, S_IMM } from '../isa/fields';
import { rowById } from '../isa/table';
import type { Operands, Row } from '../isa/table';
import { compress } from './compress';
import { EvalError, ExprSyntaxError, evaluate, parseExpr } from './expr';
import type { Expr, Val } from './expr';
import { fieldRange, matchInsn } from './insn';
import type { Fix, Insn, OperandText } from './insn';
import { expandPseudo } from './pseudo';
import type { Op, PseudoCtx } from './pseudo';
import { readString, statements } from './source';
import type { Statement } from './source';
import { AsmError, R_RISCV, SHF, SHT } from './types';
import type { AsmLocation, AsmObject, LineEntry, ObjReloc, ObjSection, ObjSymbol, SymBinding, SymType } from './types';

export interface AssembleOptions {
  /** The file name diagnostics use. */
  file?: string;
  /** The C extension at the start (`.option rvc` / `norvc` switch it); default true. */
  rvc?: boolean;
  /**
   * The ISA string of the Tag_RISCV_arch attribute before any `.attribute 5` (as clang takes it
   * from -march); default the project's rv32imc + CORE-V. Empty: no attribute section unless the
   * source has `.attribute` directives.
   */
  arch?: string;
  /**
   * Files `.incbin "name"` may read, in memory: a compiler hands large initialisers over as bytes
   * instead of text (microLlama's weights are megabytes of .byte lines otherwise).
   */
  blobs?: ReadonlyMap<string, Uint8Array>;
  /** Relax cv.beqimm / cv.bneimm out of range into the inverted branch over a jal (our compiler's code; LLVM rejects them). */
  relaxCoreVBranches?: boolean;
}

export const DEFAULT_ARCH = 'rv32i2p1_m2p0_c2p0_zmmul1p0_xcvalu1p0_xcvbi1p0_xcvbitmanip1p0_xcvmac1p0_xcvmem1p0_xcvsimd1p0';

type Item =
  | { k: 'bytes'; b: number[]; fixes: DataFix[] }
  | { k: 'insn'; row: Row; ops: Partial<Operands>; fix?: Fix; word?: number; size: number; rvc: boolean; loc: AsmLocation }
  | { k: 'call'; rd: number; link: number; expr: Expr; loc: AsmLocation }
  | { k: 'align'; pow: number; fill?: number; max: number; rvc: boolean }
  | { k: 'space'; n: number; fill: number }
  | { k: 'blob'; data: Uint8Array }
  /** .uleb128 / .sleb128: its size follows its value, known after layout. */
  | { k: 'leb'; signed: boolean; expr: Expr; size: number; loc: AsmLocation };

interface DataFix { at: number; size: number; expr: Expr; loc: AsmLocation }

/** What one instruction line becomes, before its location is known (the memo keeps these). */
type Encoded =
  | { k: 'insn'; row: Row; ops: Partial<Operands>; fix?: Fix; word?: number; size: number }
  | { k: 'call'; rd: number; link: number; expr: Expr; col: number };

/**
 * Instruction lines read before, by mode, column and text: compiled code repeats most of its
 * lines (`lw a0, 0(s1)`, `mv s0, a0`, prologues), so each is tokenised, matched, compressed and
 * encoded once. Lines whose reading depends on where they are or on symbols (numeric labels, `.`,
 * la's anchors, equates) are not kept. Cleared when it grows past MEMO_MAX entries.
 */
const memo = new Map<string, Encoded[]>();
const MEMO_MAX = 200_000;

interface Sec {
  index: number;
  name: string;
  type: number;
  flags: number;
  entsize: number;
  align: number;
  items: Item[];
  /** Item start offsets after layout (items.length + 1 entries). */
  off: number[];
  /** Whether a label closed the last bytes item (the next data starts a new one). */
  open: boolean;
  /** In code sections after layout: how many variable-size items precede each item. */
  variable?: number[];
}

interface Sym {
  name: string;
  binding?: SymBinding;
  type: SymType;
  sizeExpr?: Expr;
  sec?: Sec;
  item?: number;
  equ?: Expr;
  common?: { size: number; align: number };
  visibility?: 'hidden' | 'protected';
  loc?: AsmLocation;
}

/** `.loc` with a file number, a line and optionally a column, then anything (LLVM's flags), or nothing. */
const LOC = /^[ \t]*(\d+)[ \t]+(\d+)(?:[ \t]+(\d+))?(?:[ \t]|$)/;
const B_ROWS = new Set(['beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu']);
const INVERT: Record<string, string> = {
  beq: 'bne', bne: 'beq', blt: 'bge', bge: 'blt', bltu: 'bgeu', bgeu: 'bltu', 'cv.beqimm': 'cv.bneimm', 'cv.bneimm': 'cv.beqimm',
};
/** CORE-V's branches with an immediate: relaxed too (LLVM would reject one out of range; our compiler emits them freely). */
const CV_BRANCHES = new Set(['cv.beqimm', 'cv.bneimm']);
const fits = (v: number, bits: number) => v >= -(2 ** (bits - 1)) && v < 2 ** (bits - 1) && (v & 1) === 0;
const sext12 = (v: number) => (v << 20) >> 20;

function defaultSection(name: string): { type: number; flags: number } {
  const A = SHF.ALLOC;
  if (/^\.text(\.|$)/.test(name)) return { type: SHT.PROGBITS, flags: A | SHF.EXECINSTR };
  if (/^\.(s?bss|tbss)(\.|$)/.test(name)) return { type: SHT.NOBITS, flags: A | SHF.WRITE };
  if (/^\.(s?data|tdata)(\.|$)/.test(name)) return { type: SHT.PROGBITS, flags: A | SHF.WRITE };
  if (/^\.s?rodata(\.|$)/.test(name)) return { type: SHT.PROGBITS, flags: A };
  if (/^\.init_array(\.|$)/.test(name)) return { type: SHT.INIT_ARRAY, flags: A | SHF.WRITE };
  if (/^\.fini_array(\.|$)/.test(name)) return { type: SHT.FINI_ARRAY, flags: A | SHF.WRITE };
  if (/^\.note(\.|$)/.test(name)) return { type: SHT.NOTE, flags: 0 };
  return { type: SHT.PROGBITS, flags: 0 };
}

/** Operands a directive cannot do without, and which of them name a symbol. */
const MIN_OPERANDS: Record<string, number> = {
  '.type': 2, '.size': 2, '.set': 2, '.equ': 2, '.equiv': 2, '.p2align': 1, '.align': 1, '.balign': 1, '.zero': 1, '.space': 1,
  '.skip': 1, '.comm': 2, '.lcomm': 2, '.attribute': 2, '.file': 1, '.section': 1, '.pushsection': 1, '.loc': 1, '.option': 1,
};
const SYMBOL_OPERANDS: Record<string, number[]> = { '.type': [0], '.size': [0], '.set': [0], '.equ': [0], '.equiv': [0], '.comm': [0], '.lcomm': [0] };

const SECTION_TYPES: Record<string, number> = {
  progbits: SHT.PROGBITS, nobits: SHT.NOBITS, note: SHT.NOTE, init_array: SHT.INIT_ARRAY, fini_array: SHT.FINI_ARRAY,
};

class Assembler {
  private secs: Sec[] = [];
  private byName = new Map<string, Sec>();
  private cur!: Sec;
  private prev?: Sec;
  private sectionStack: Sec[] = [];
  private syms = new Map<string, Sym>();
  private rvc: boolean;
  private optionStack: boolean[] = [];
  private numeric = new Map<string, number>();
  private forwardRefs: { name: string; loc: AsmLocation }[] = [];
  private pcrelCount = 0;
  private tmpCount = 0;
  private files = new Map<number, string>();
  private sourceFile?: string;
  /** The .loc not yet attached to an instruction (a second .loc attaches it where it stands, as in LLVM). */
  private pendingLoc?: { file: string; line: number; column: number };
  private lineItems: { sec: Sec; item: number; file: string; line: number; column: number }[] = [];
  private attributes: { tag: number; value: number | string }[] = [];
  private laidOut = false;
  private loc: AsmLocation = { file: 'input.s', line: 0, column: 0 };
  /** Set while reading a line when its reading depends on its place or on symbols (not memoised). */
  private situated = false;
  private readonly pctx: PseudoCtx = {
    expr: (o) => this.expr(o),
    constant: (e) => this.constant(e),
    error: (col, what) => this.err(what, col),
    newPcrelLabel: () => { this.situated = true; return `.Lpcrel_hi${this.pcrelCount++}`; },
  };

  constructor(private opts: AssembleOptions) {
    this.rvc = opts.rvc ?? true;
    const arch = opts.arch ?? DEFAULT_ARCH;
    if (arch) this.attributes.push({ tag: 5, value: arch });
    this.cur = this.section('.text');
  }

  // ------------------------------------------------------------------ diagnostics
  private err(what: string, col?: number): never {
    throw new AsmError({ ...this.loc, column: col ?? this.loc.column }, what);
  }

  private at(col: number): AsmLocation { return { ...this.loc, column: col }; }

  // ------------------------------------------------------------------ sections and symbols
  private section(name: string, type?: number, flags?: number, entsize = 0): Sec {
    let s = this.byName.get(name);
    if (!s) {
      const d = defaultSection(name);
      s = { index: this.secs.length, name, type: type ?? d.type, flags: flags ?? d.flags, entsize, align: 1, items: [], off: [], open: false };
      this.secs.push(s);
      this.byName.set(name, s);
    }
    return s;
  }

  private switchTo(s: Sec): void {
    if (s !== this.cur) { this.prev = this.cur; this.cur = s; }
  }

  private sym(name: string): Sym {
    let s = this.syms.get(name);
    if (!s) { s = { name, type: 'notype' }; this.syms.set(name, s); }
    return s;
  }

  private defineLabel(name: string, col: number): void {
    const s = this.sym(name);
    if (s.sec || s.equ || s.common) this.err(`symbol '${name}' is already defined`, col);
    s.sec = this.cur;
    s.item = this.cur.items.length;
    s.loc = this.at(col);
    this.cur.open = true;
  }

  private tempLabel(): string {
    this.situated = true;
    const name = `.Ltmp$${this.tmpCount++}`;
    this.defineLabel(name, this.loc.column);
    return name;
  }

  private numLabel = (n: string, dir: 'f' | 'b'): string => {
    this.situated = true;
    const k = this.numeric.get(n) ?? 0;
    if (dir === 'b') {
      if (k === 0) this.err(`undefined local label '${n}b' (no '${n}:' before it)`);
      return `.L${n}$${k - 1}`;
    }
    const name = `.L${n}$${k}`;
    this.forwardRefs.push({ name, loc: { ...this.loc } });
    return name;
  };

  // ------------------------------------------------------------------ expressions
  private expr(o: OperandText): Expr {
    try {
      const e = parseExpr(o.text, this.numLabel);
      return this.replaceDot(e);
    } catch (e) {
      if (e instanceof ExprSyntaxError) this.err(e.message, o.col + e.at);
      throw e;
    }
  }

  /** `.` becomes a label at the current position. */
  private replaceDot(e: Expr): Expr {
    let label: string | undefined;
    const walk = (x: Expr): Expr => {
      switch (x.k) {
        case 'dot': return { k: 'sym', name: (label ??= this.tempLabel()) };
        case 'un': return { ...x, a: walk(x.a) };
        case 'bin': return { ...x, a: walk(x.a), b: walk(x.b) };
        case 'mod': return { ...x, a: walk(x.a) };
        default: return x;
      }
    };
    return walk(e);
  }

  private labelOffset(s: Sym): number | undefined {
    return s.sec && s.item !== undefined && this.laidOut ? s.sec.off[s.item] : undefined;
  }

  /**
   * `strict`: a data value (not .size / .set): like LLVM, a difference of two labels of a code
   * section is folded only when no item of variable size (a branch that may grow, a LEB128) lies
   * between them; otherwise it becomes a pair of ADD / SUB relocations.
   */
  private eval(e: Expr, col?: number, strict = false): Val {
    this.evalCol = col;
    this.evalStrict = strict;
    this.evalActive.clear();
    try {
      return evaluate(e, this.evalEnv);
    } catch (err) {
      if (err instanceof EvalError) this.err(err.message, col);
      throw err;
    }
  }

  // The environment of eval(), made once: its settings for the current call are these fields.
  private evalCol?: number;
  private evalStrict = false;
  /** Equates being evaluated (a cycle is an error). */
  private readonly evalActive = new Set<string>();
  private readonly evalEnv = {
    lookup: (name: string): Val | undefined => {
      this.situated = true;
      const s = this.syms.get(name);
      if (!s?.equ) return undefined;
      if (this.evalActive.has(name)) this.err(`symbol '${name}' is defined in terms of itself`, this.evalCol);
      this.evalActive.add(name);
      const v = evaluate(s.equ, this.evalEnv);
      this.evalActive.delete(name);
      return v;
    },
    dot: (): Val => this.err('internal: unreplaced .'),
    fold: (a: string, b: string): number | undefined => {
      const sa = this.syms.get(a);
      const sb = this.syms.get(b);
      if (!sa?.sec || !sb?.sec || sa.sec !== sb.sec || !this.laidOut) return undefined;
      if (this.evalStrict && sa.sec.variable) {
        const [lo, hi] = sa.item! < sb.item! ? [sa.item!, sb.item!] : [sb.item!, sa.item!];
        if (sa.sec.variable[hi] - sa.sec.variable[lo] > 0) return undefined;
      }
      return this.labelOffset(sa)! - this.labelOffset(sb)!;
    },
  };

  private constant(e: Expr): number | undefined {
    if (e.k === 'num') return e.v;
    if (e.k === 'mod') return undefined;
    try {
      const v = this.eval(e);
      return v.sym || v.sub ? undefined : v.c;
    } catch (err) {
      if (err instanceof AsmError) return undefined;
      throw err;
    }
  }

  private absolute(o: OperandText | undefined, what: string): number {
    if (!o) this.err(`missing ${what}`);
    const v = this.constant(this.expr(o));
    if (v === undefined) this.err(`${what} must be a constant expression, not '${o.text}'`, o.col);
    return v;
  }

  // ------------------------------------------------------------------ emitting items
  private bytes(): { k: 'bytes'; b: number[]; fixes: DataFix[] } {
    const items = this.cur.items;
    const last = items[items.length - 1];
    if (last?.k === 'bytes' && !this.cur.open) return last;
    const it = { k: 'bytes' as const, b: [] as number[], fixes: [] as DataFix[] };
    items.push(it);
    this.cur.open = false;
    return it;
  }

  private push(item: Item): void {
    this.cur.items.push(item);
    this.cur.open = false;
  }

  private data(size: number, o: OperandText): void {
    // 64-bit literals exceed a double's precision: written exactly from the text.
    const big = size === 8 ? /^(-?)(0[xX][0-9a-fA-F]+|[0-9]+)$/.exec(o.text.replace(/\s+/g, '')) : null;
    if (big && this.cur.type !== SHT.NOBITS) {
      const lit = /^0[0-7]+$/.test(big[2]) ? `0o${big[2].slice(1)}` : big[2];
      let x = BigInt.asUintN(64, (big[1] ? -1n : 1n) * BigInt(lit));
      const b = this.bytes().b;
      for (let i = 0; i < 8; i++) { b.push(Number(x & 0xffn)); x >>= 8n; }
      return;
    }
    const e = this.expr(o);
    if (this.cur.type === SHT.NOBITS) {
      if (this.constant(e) !== 0) this.err(`non-zero data in the NOBITS section ${this.cur.name}`, o.col);
      this.push({ k: 'space', n: size, fill: 0 });
      return;
    }
    const it = this.bytes();
    const v = this.constant(e);
    if (v !== undefined) { putLE(it.b, it.b.length, size, v); return; }
    it.fixes.push({ at: it.b.length, size, expr: e, loc: this.at(o.col) });
    for (let i = 0; i < size; i++) it.b.push(0);
  }

  /** An instruction's row, size and (when it has no fixup) word, in the current mode. */
  private encodeInsn(insn: Insn): Encoded {
    const { row, ops, fix } = insn;
    if (fix) return { k: 'insn', row, ops, fix, size: this.relaxable(row, fix) && row.size === 4 ? this.minSize(row, ops) : row.size };
    if (this.rvc && row.size === 4) {
      const c = compress(row, ops);
      if (c) return { k: 'insn', row: c.row, ops, word: c.word, size: 2 };
    }
    let word: number;
    try { word = encode(row.id, ops); } catch (e) { this.err(`${row.name}: ${(e as Error).message}`); }
    return { k: 'insn', row, ops, word, size: row.size };
  }

  /** Appends an encoded instruction (or call) at the current position. */
  private place(e: Encoded): void {
    const sec = this.cur;
    if (e.k === 'call') {
      this.attachLoc();
      sec.align = Math.max(sec.align, this.rvc ? 2 : 4);
      this.push({ k: 'call', rd: e.rd, link: e.link, expr: e.expr, loc: this.at(e.col) });
      return;
    }
    if (!(sec.flags & SHF.EXECINSTR) && sec.items.length === 0 && sec.type === SHT.PROGBITS && sec.flags === 0) sec.flags |= SHF.EXECINSTR;
    sec.align = Math.max(sec.align, this.rvc ? 2 : 4);
    this.attachLoc();
    this.push({ k: 'insn', row: e.row, ops: e.ops, fix: e.fix, word: e.word, size: e.size, rvc: this.rvc, loc: { file: this.loc.file, line: this.loc.line, column: this.loc.column } });
  }

  private attachLoc(): void {
    if (!this.pendingLoc) return;
    this.lineItems.push({ sec: this.cur, item: this.cur.items.length, ...this.pendingLoc });
    this.pendingLoc = undefined;
  }

  /** The smallest size a branch or jump may take (compressed when a compressed form exists). */
  private minSize(row: Row, ops: Partial<Operands>): number {
    return this.rvc && compressibleTransfer(row, ops) ? 2 : 4;
  }

  // ------------------------------------------------------------------ statements
  run(text: string): AsmObject {
    const file = this.opts.file ?? 'input.s';
    for (const st of statements(text, file)) {
      this.loc = { file: st.file, line: st.line, column: st.opCol };
      for (const l of st.labels) {
        this.loc.column = l.col;
        if (/^[0-9]+$/.test(l.name)) {
          const k = this.numeric.get(l.name) ?? 0;
          this.defineLabel(`.L${l.name}$${k}`, l.col);
          this.numeric.set(l.name, k + 1);
        } else this.defineLabel(l.name, l.col);
      }
      this.loc.column = st.opCol;
      if (st.op === '') continue;
      if (st.op === '?') this.err(`cannot read '${st.rest.trim()}'`);
      if (st.op.startsWith('.')) this.directive(st);
      else this.mnemonic(st);
    }
    return this.finish();
  }

  private mnemonic(st: Statement): void {
    const key = `${this.rvc ? 'c' : 'n'}${this.opts.relaxCoreVBranches ? 'r' : ''}${st.restCol}\t${st.op}\t${st.rest}`;
    const known = memo.get(key);
    if (known) {
      for (const e of known) this.place(e);
      return;
    }
    const name = st.op.toLowerCase().replace(/^cv\.slet(u?)$/, 'cv.sle$1');
    const ctx = this.pctx;
    const endCol = st.restCol + st.rest.length;
    this.situated = false;
    const ops = expandPseudo(name, st.operands, ctx, this.rvc)
      ?? [{ k: 'insn', insn: matchInsn(name, st.operands, ctx, st.opCol, endCol) } as Op];
    const encoded: Encoded[] = [];
    for (const op of ops) {
      if (op.k === 'label') { this.situated = true; this.defineLabel(op.name, st.opCol); continue; }
      const e: Encoded = op.k === 'insn' ? this.encodeInsn(op.insn) : { k: 'call', rd: op.rd, link: op.link, expr: op.expr, col: op.col };
      encoded.push(e);
      this.place(e);
    }
    if (!this.situated) {
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(key, encoded);
    }
  }

  private directive(st: Statement): void {
    // `.loc N L [C]`, a quarter of compiled code's lines, read without splitting operands.
    if (st.op === '.loc') {
      const m = LOC.exec(st.rest);
      if (m) {
        const file = this.files.get(Number(m[1]));
        if (file !== undefined) {
          this.attachLoc();
          this.pendingLoc = { file, line: Number(m[2]), column: m[3] === undefined ? 0 : Number(m[3]) };
          return;
        }
      }
    }
    const d = st.op.toLowerCase();
    const o = st.operands;
    const min = MIN_OPERANDS[d] ?? 0;
    if (o.length < min || o.slice(0, min).some((x) => x.text === '')) {
      this.err(`${d} needs ${min} operand${min > 1 ? 's' : ''}`, o[o.length - 1]?.col);
    }
    for (const i of SYMBOL_OPERANDS[d] ?? []) {
      const x = o[i];
      if (x && !/^([A-Za-z_.$][\w.$@]*|"[^"]+")$/.test(x.text)) this.err(`'${x.text}' is not a symbol name`, x.col);
    }
    if (['.globl', '.global', '.weak', '.local', '.hidden', '.protected', '.internal'].includes(d)) {
      for (const x of o) if (!/^[A-Za-z_.$][\w.$@]*$/.test(x.text)) this.err(`'${x.text}' is not a symbol name`, x.col);
    }
    switch (d) {
      case '.text': case '.data': case '.bss': case '.rodata':
        this.switchTo(this.section(d)); return;
      case '.section': case '.pushsection': {
        if (d === '.pushsection') this.sectionStack.push(this.cur);
        this.switchTo(this.sectionDirective(st)); return;
      }
      case '.popsection': {
        const s = this.sectionStack.pop();
        if (!s) this.err('.popsection without .pushsection');
        this.switchTo(s); return;
      }
      case '.previous': if (this.prev) this.switchTo(this.prev); return;
      case '.globl': case '.global': case '.weak': case '.local':
        for (const x of o) this.sym(x.text).binding = d === '.weak' ? 'weak' : d === '.local' ? 'local' : 'global';
        return;
      case '.hidden': case '.protected': for (const x of o) this.sym(x.text).visibility = d.slice(1) as 'hidden'; return;
      case '.internal': for (const x of o) this.sym(x.text).visibility = 'hidden'; return;
      case '.type': {
        const t = (o[1]?.text ?? '').replace(/^[@%]/, '').replace(/^"|"$/g, '');
        const map: Record<string, SymType> = { function: 'func', object: 'object', notype: 'notype', tls_object: 'object', common: 'object' };
        if (!map[t]) this.err(`unknown symbol type '${o[1]?.text ?? ''}' in .type`, o[1]?.col);
        this.sym(o[0].text).type = map[t]; return;
      }
      case '.size': this.sym(o[0].text).sizeExpr = this.expr(o[1]); return;
      case '.set': case '.equ': case '.equiv': {
        if (o.length !== 2) this.err(`${d} takes a symbol and an expression`);
        const s = this.sym(o[0].text);
        if (s.sec) this.err(`symbol '${o[0].text}' is already defined`, o[0].col);
        s.equ = this.expr(o[1]);
        // A value with a label (sym = .Lfoo + 4) is an alias; constants are evaluated now.
        const v = this.constant(s.equ);
        if (v !== undefined) s.equ = { k: 'num', v };
        return;
      }
      case '.p2align': case '.align': case '.balign': {
        const n = this.absolute(o[0], `${d}'s alignment`);
        let pow = n;
        if (d === '.balign') {
          if (n & (n - 1)) this.err(`.balign needs a power of two, not ${n}`, o[0].col);
          pow = Math.log2(Math.max(n, 1));
        }
        if (pow > 16) this.err(`alignment 2^${pow} is too large`, o[0].col);
        const fill = o[1] && o[1].text !== '' ? this.absolute(o[1], 'fill value') : undefined;
        const max = o[2] ? this.absolute(o[2], 'maximum padding') : 0;
        this.cur.align = Math.max(this.cur.align, 2 ** pow);
        const code = (this.cur.flags & SHF.EXECINSTR) !== 0;
        this.push({ k: 'align', pow, fill: code ? fill : (fill ?? 0), max, rvc: this.rvc });
        return;
      }
      case '.byte': for (const x of o) this.data(1, x); return;
      case '.half': case '.short': case '.2byte': for (const x of o) this.data(2, x); return;
      case '.word': case '.long': case '.4byte': case '.int': for (const x of o) this.data(4, x); return;
      case '.quad': case '.8byte': case '.dword': for (const x of o) this.data(8, x); return;
      case '.uleb128': case '.sleb128':
        for (const x of o) {
          const e = this.expr(x);
          const v = this.constant(e);
          const signed = d === '.sleb128';
          if (v !== undefined) this.bytes().b.push(...leb(v, signed));
          else this.push({ k: 'leb', signed, expr: e, size: 1, loc: this.at(x.col) });
        }
        return;
      case '.zero': case '.space': case '.skip': {
        const n = this.absolute(o[0], `${d}'s size`);
        const fill = o[1] ? this.absolute(o[1], 'fill value') : 0;
        if (n < 0) this.err(`${d} with a negative size`, o[0].col);
        if (this.cur.type === SHT.NOBITS && fill !== 0) this.err(`non-zero fill in the NOBITS section ${this.cur.name}`);
        this.push({ k: 'space', n, fill });
        return;
      }
      case '.incbin': {
        const s = readString(st.rest);
        if (!s || s.rest.trim() !== '') this.err('.incbin needs one file name in quotes', st.restCol);
        const name = String.fromCharCode(...s.bytes);
        const data = this.opts.blobs?.get(name);
        if (!data) this.err(`.incbin: no file '${name}' was given to the assembler`, st.restCol);
        if (this.cur.type === SHT.NOBITS) this.err(`.incbin in the NOBITS section ${this.cur.name}`, st.restCol);
        this.push({ k: 'blob', data });
        return;
      }
      case '.ascii': case '.asciz': case '.string': {
        let rest = st.rest;
        const it = this.bytes();
        for (;;) {
          const s = readString(rest);
          if (!s) this.err(`${d} needs string literals`, st.restCol);
          it.b.push(...s.bytes);
          if (d !== '.ascii') it.b.push(0);
          rest = s.rest.trim();
          if (!rest.startsWith(',')) break;
          rest = rest.slice(1);
        }
        if (rest !== '') this.err(`unexpected '${rest}' after the string`);
        return;
      }
      case '.comm': case '.lcomm': {
        const s = this.sym(o[0].text);
        const size = this.absolute(o[1], `${d}'s size`);
        const align = o[2] ? this.absolute(o[2], `${d}'s alignment`) : Math.min(16, 2 ** Math.ceil(Math.log2(Math.max(size, 1))));
        // A .comm of a symbol declared .local is a .lcomm (LLVM allocates it in .bss).
        if (d === '.comm' && s.binding !== 'local') {
          if (s.sec) this.err(`symbol '${s.name}' is already defined`, o[0].col);
          s.common = { size, align };
          s.binding ??= 'global';
          s.type = 'object';
          return;
        }
        const save = this.cur;
        this.switchTo(this.section('.bss'));
        this.cur.align = Math.max(this.cur.align, align);
        this.push({ k: 'align', pow: Math.log2(align), fill: 0, max: 0, rvc: this.rvc });
        this.defineLabel(s.name, o[0].col);
        s.binding ??= 'local';
        s.type = 'object';
        s.sizeExpr = { k: 'num', v: size };
        this.push({ k: 'space', n: size, fill: 0 });
        this.switchTo(save);
        return;
      }
      case '.option': {
        const what = (o[0]?.text ?? '').toLowerCase();
        if (what === 'push') this.optionStack.push(this.rvc);
        else if (what === 'pop') {
          const v = this.optionStack.pop();
          if (v === undefined) this.err('.option pop without .option push');
          this.rvc = v;
        } else if (what === 'rvc') this.rvc = true;
        else if (what === 'norvc') this.rvc = false;
        else if (what === 'arch') {
          for (const x of o.slice(1)) {
            const t = x.text.replace(/\s+/g, '');
            if (/^\+c$/i.test(t)) this.rvc = true;
            else if (/^-c$/i.test(t)) this.rvc = false;
            else if (/^rv32/i.test(t)) this.rvc = /^rv32[a-z]*c/i.test(t.split('_')[0]);
          }
        } else if (!['relax', 'norelax', 'pic', 'nopic', 'exact', 'noexact'].includes(what)) this.err(`unknown .option '${what}'`, o[0]?.col);
        return;
      }
      case '.attribute': {
        const tagText = o[0]?.text ?? '';
        const named: Record<string, number> = { tag_riscv_stack_align: 4, tag_riscv_arch: 5, tag_riscv_unaligned_access: 6, tag_riscv_priv_spec: 8, tag_riscv_priv_spec_minor: 10, tag_riscv_priv_spec_revision: 12 };
        const tag = named[tagText.toLowerCase()] ?? this.absolute(o[0], '.attribute tag');
        const str = readString(o[1]?.text ?? '');
        const value = str ? new TextDecoder().decode(new Uint8Array(str.bytes)) : this.absolute(o[1], '.attribute value');
        const old = this.attributes.find((a) => a.tag === tag);
        if (old) old.value = value; else this.attributes.push({ tag, value });
        return;
      }
      case '.file': {
        if (!/^\s*\d/.test(st.rest)) {
          const name = readString(o[0].text);
          this.sourceFile = name ? new TextDecoder().decode(new Uint8Array(name.bytes)) : o[0].text;
          return;
        }
        // .file N ["dir"] "name" [md5 0x...]
        const m = /^\s*(\d+)\s+(.*)$/.exec(st.rest);
        if (!m) this.err('bad .file directive');
        const strs: string[] = [];
        let rest = m[2];
        for (let s = readString(rest); s; s = readString(rest)) { strs.push(new TextDecoder().decode(new Uint8Array(s.bytes))); rest = s.rest; }
        if (!strs.length) this.err('.file needs a file name');
        // The name as written (relative to the compilation directory, the optional first string).
        this.files.set(Number(m[1]), strs[strs.length - 1]);
        return;
      }
      case '.loc': {
        const parts = st.rest.trim().split(/\s+/);
        const fileNo = Number(parts[0]);
        const line = Number(parts[1]);
        const column = parts[2] !== undefined && /^\d+$/.test(parts[2]) ? Number(parts[2]) : 0;
        if (!Number.isInteger(fileNo) || !Number.isInteger(line)) this.err('.loc needs a file number and a line');
        const file = this.files.get(fileNo);
        if (file === undefined) this.err(`.loc names file ${fileNo}, which no .file declared`);
        this.attachLoc();
        this.pendingLoc = { file, line, column };
        return;
      }
      case '.ident': case '.addrsig': case '.addrsig_sym': case '.loc_mark_labels':
        return;
      default:
        if (d.startsWith('.cfi_')) return;
        this.err(`unknown directive '${st.op}'`);
    }
  }

  private sectionDirective(st: Statement): Sec {
    const o = st.operands;
    if (!o.length) this.err('.section needs a name');
    const name = o[0].text.replace(/^"|"$/g, '');
    if (o.length === 1) return this.section(name);
    const flagStr = readString(o[1].text);
    if (!flagStr) this.err(`.section flags must be a string, not '${o[1].text}'`, o[1].col);
    let flags = 0;
    for (const ch of new TextDecoder().decode(new Uint8Array(flagStr.bytes))) {
      const f: Record<string, number> = { a: SHF.ALLOC, w: SHF.WRITE, x: SHF.EXECINSTR, M: SHF.MERGE, S: SHF.STRINGS, T: SHF.TLS };
      if (!(ch in f)) { if (ch === 'G' || ch === 'o' || ch === 'R') continue; this.err(`unknown section flag '${ch}'`, o[1].col); }
      flags |= f[ch];
    }
    let type = defaultSection(name).type;
    if (o[2]) {
      const t = o[2].text.replace(/^[@%]/, '');
      if (!(t in SECTION_TYPES)) this.err(`unknown section type '${o[2].text}'`, o[2].col);
      type = SECTION_TYPES[t];
    }
    const entsize = o[3] ? this.absolute(o[3], 'entry size') : 0;
    const existing = this.byName.get(name);
    if (existing) return existing;
    return this.section(name, type, flags, entsize);
  }

  // ------------------------------------------------------------------ layout
  private itemSize(it: Item, off: number): number {
    switch (it.k) {
      case 'bytes': return it.b.length;
      case 'insn': return it.size;
      case 'call': return 8;
      case 'space': return it.n;
      case 'blob': return it.data.length;
      case 'leb': return it.size;
      case 'align': {
        const a = 2 ** it.pow;
        const pad = (a - (off % a)) % a;
        return it.max && pad > it.max ? 0 : pad;
      }
    }
  }

  private offsets(s: Sec): void {
    const off = new Array<number>(s.items.length + 1);
    let o = 0;
    for (let i = 0; i < s.items.length; i++) { off[i] = o; o += this.itemSize(s.items[i], o); }
    off[s.items.length] = o;
    s.off = off;
  }

  /** The section offset a pc-relative target resolves to, or undefined (then a relocation). */
  private target(v: Val, sec: Sec, loc: AsmLocation): number | undefined {
    if (v.sub) throw new AsmError(loc, 'a branch target cannot be a difference of symbols');
    if (!v.sym) throw new AsmError(loc, 'a branch target must be a symbol');
    const s = this.syms.get(v.sym);
    if (!s?.sec || s.sec !== sec || s.binding === 'global' || s.binding === 'weak') return undefined;
    return this.labelOffset(s)! + v.c;
  }

  private sameSection(a: string, b: string): boolean {
    const sa = this.syms.get(a);
    return !!sa?.sec && sa.sec === this.syms.get(b)?.sec;
  }

  private lebValue(it: Extract<Item, { k: 'leb' }>): number {
    const v = this.eval(it.expr, it.loc.column);
    if (v.sym || v.sub) throw new AsmError(it.loc, `.${it.signed ? 's' : 'u'}leb128 needs a constant (a difference of labels of one section), not '${describe(v)}'`);
    return v.c;
  }

  private relaxable(row: Row, fix: Fix): boolean {
    return relaxable(row, fix, !!this.opts.relaxCoreVBranches);
  }

  /** The size a relaxable branch or jump needs at its current offset. */
  private wantedSize(it: Extract<Item, { k: 'insn' }>, sec: Sec, pc: number): number {
    const t = this.target(this.eval(it.fix!.expr, it.fix!.col), sec, it.loc);
    const { row, ops } = it;
    const d = t === undefined ? undefined : t - pc;
    if (row.id === 'jal') {
      if (d !== undefined && it.rvc && compressibleTransfer(row, ops) && fits(d, 12)) return 2;
      return 4;
    }
    // Conditional branches.
    if (d !== undefined) {
      if (it.rvc && compressibleTransfer(row, ops) && fits(d, 9)) return 2;
      if (fits(d, 13)) return 4;
    }
    const inv = rowById(INVERT[row.id]);
    return it.rvc && compressibleTransfer(inv, ops) ? 6 : 8;
  }

  private layout(): void {
    this.laidOut = true;
    for (let round = 0; ; round++) {
      let changed = false;
      for (const s of this.secs) {
        this.offsets(s);
        for (let i = 0; i < s.items.length; i++) {
          const it = s.items[i];
          if (it.k === 'leb') {
            const want = leb(this.lebValue(it), it.signed).length;
            if (want > it.size) { it.size = want; changed = true; }
            continue;
          }
          if (it.k !== 'insn' || !it.fix || !this.relaxable(it.row, it.fix)) continue;
          const want = this.wantedSize(it, s, s.off[i]);
          if (want > it.size) { it.size = want; changed = true; }
        }
      }
      if (!changed) break;
      if (round > 1000) throw new Error('branch relaxation does not converge');
    }
    for (const s of this.secs) {
      this.offsets(s);
      if (!s.items.some((it) => it.k === 'insn' || it.k === 'call')) continue;
      s.variable = [0];
      s.items.forEach((it, i) => { s.variable![i + 1] = s.variable![i] + (isVariable(it) ? 1 : 0); });
    }
  }

  // ------------------------------------------------------------------ emission
  private relocs = new Map<Sec, ObjReloc[]>();
  private relocSyms = new Set<string>();

  private reloc(sec: Sec, offset: number, type: number, v: Val, loc: AsmLocation): void {
    if (v.sub) throw new AsmError(loc, `a relocated value cannot subtract symbol '${v.sub}'`);
    if (!v.sym) throw new AsmError(loc, 'internal: relocation without a symbol');
    const s = this.syms.get(v.sym);
    if (s?.equ) {
      // An alias of a label: relocate against what it stands for.
      const inner = this.eval(s.equ);
      return this.reloc(sec, offset, type, { c: inner.c + v.c, sym: inner.sym, sub: inner.sub }, loc);
    }
    this.relocSyms.add(v.sym);
    this.sym(v.sym);
    let list = this.relocs.get(sec);
    if (!list) { list = []; this.relocs.set(sec, list); }
    list.push({ offset, type, symbol: v.sym, addend: v.c });
  }

  private enc(id: string, ops: Partial<Operands>, loc: AsmLocation, what?: string): number {
    try {
      return encode(id, ops);
    } catch {
      const r = rowById(id);
      const fl = r.format.imm!;
      const rg = fieldRange(fl);
      throw new AsmError(loc, `operand out of range: ${what ?? r.name} needs ${rg.step > 1 ? `a multiple of ${rg.step}` : 'a value'} in [${rg.lo}, ${rg.hi}], not ${ops.imm}`);
    }
  }

  private emitInsn(it: Extract<Item, { k: 'insn' }>, sec: Sec, pc: number, out: Uint8Array): void {
    const put = (at: number, w: number, size: number) => putWord(out, at, w, size);
    if (!it.fix) { put(pc, it.word!, it.size); return; }
    const { row, ops, fix } = it;
    const loc = { ...it.loc, column: fix.col };
    const v = this.eval(fix.expr, fix.col);
    if (fix.pcrel) {
      const t = this.target(v, sec, loc);
      if (this.relaxable(row, fix)) {
        const c = it.size === 2 ? compressTransfer(row, ops)! : row;
        if (it.size <= 4) {
          if (t === undefined) {
            this.reloc(sec, pc, it.size === 2 ? (row.id === 'jal' ? R_RISCV.RVC_JUMP : R_RISCV.RVC_BRANCH) : (row.id === 'jal' ? R_RISCV.JAL : R_RISCV.BRANCH), v, loc);
            put(pc, this.enc(c.id, { ...ops, imm: 0 }, loc), it.size);
          } else put(pc, this.enc(c.id, { ...ops, imm: t - pc }, loc, `${row.name} to ${v.sym}`), it.size);
          return;
        }
        // An inverted branch over a jal.
        const inv = rowById(INVERT[row.id]);
        const first = it.size - 4;
        const invRow = first === 2 ? compressTransfer(inv, ops)! : inv;
        put(pc, this.enc(invRow.id, { ...ops, imm: it.size }, loc), first);
        if (t === undefined) {
          this.reloc(sec, pc + first, R_RISCV.JAL, v, loc);
          put(pc + first, this.enc('jal', { rd: 0, imm: 0 }, loc), 4);
        } else put(pc + first, this.enc('jal', { rd: 0, imm: t - pc - first }, loc, `jump to ${v.sym}`), 4);
        return;
      }
      // cv.beqimm & co, and explicitly compressed branches / jumps: one fixed size.
      const fl = row.format.imm;
      if (t === undefined) {
        const type = fl === C_B ? R_RISCV.RVC_BRANCH : fl === C_J ? R_RISCV.RVC_JUMP : fl === J_IMM ? R_RISCV.JAL : fl === B_IMM ? R_RISCV.BRANCH : -1;
        if (type < 0) throw new AsmError(loc, `${row.name} cannot take a symbolic target`);
        this.reloc(sec, pc, type, v, loc);
        put(pc, this.enc(row.id, { ...ops, imm: 0 }, loc), it.size);
      } else put(pc, this.enc(row.id, { ...ops, imm: t - pc }, loc, `${row.name} to ${v.sym}`), it.size);
      return;
    }
    if (fix.words) {
      const t = this.target(v, sec, loc);
      if (t === undefined) throw new AsmError(loc, `${row.name}: '${describe(v)}' must be a local label of this section`);
      const d = t - pc;
      if (d < 0 || d % 4) throw new AsmError(loc, `${row.name}: the label must lie a whole number of words after the instruction (it is ${d} bytes away)`);
      put(pc, this.enc(row.id, { ...ops, [fix.slot]: d / 4 }, loc, `${row.name}'s distance`), 4);
      return;
    }
    const isS = row.format.imm === S_IMM;
    let imm: number;
    if (fix.mod === 'pcrel_hi') { this.reloc(sec, pc, R_RISCV.PCREL_HI20, v, loc); imm = 0; }
    else if (fix.mod === 'pcrel_lo') { this.reloc(sec, pc, isS ? R_RISCV.PCREL_LO12_S : R_RISCV.PCREL_LO12_I, v, loc); imm = 0; }
    else if (fix.mod === 'hi' || fix.mod === 'lo') {
      if (v.sym || v.sub) {
        this.reloc(sec, pc, fix.mod === 'hi' ? R_RISCV.HI20 : isS ? R_RISCV.LO12_S : R_RISCV.LO12_I, v, loc);
        imm = 0;
      } else imm = fix.mod === 'hi' ? (((v.c + 0x800) >>> 12) << 12) | 0 : sext12(v.c);
    } else {
      if (v.sym || v.sub) throw new AsmError(loc, `${row.name}: operand '${describe(v)}' is not a constant (use %hi / %lo for addresses)`);
      imm = fix.hi20 ? (v.c << 12) | 0 : v.c;
    }
    put(pc, this.enc(row.id, { ...ops, [fix.slot]: imm }, loc), 4);
  }

  private emitSection(s: Sec): Uint8Array {
    const size = s.off[s.items.length];
    if (s.type === SHT.NOBITS) {
      for (const it of s.items) if (it.k === 'insn' || it.k === 'call') throw new AsmError(it.loc, `instruction in the NOBITS section ${s.name}`);
      return new Uint8Array(0);
    }
    const out = new Uint8Array(size);
    s.items.forEach((it, i) => {
      const pc = s.off[i];
      switch (it.k) {
        case 'bytes':
          out.set(it.b, pc);
          for (const f of it.fixes) {
            const v = this.eval(f.expr, f.loc.column, true);
            if (!v.sym && !v.sub) { putBytes(out, pc + f.at, f.size, v.c); continue; }
            if (v.sym && v.sub && this.sameSection(v.sym, v.sub)) {
              const [add, sub] = ({ 1: [R_RISCV.ADD8, R_RISCV.SUB8], 2: [R_RISCV.ADD16, R_RISCV.SUB16], 4: [R_RISCV.ADD32, R_RISCV.SUB32], 8: [R_RISCV.ADD64, R_RISCV.SUB64] } as Record<number, number[]>)[f.size];
              this.reloc(s, pc + f.at, add, { c: v.c, sym: v.sym }, f.loc);
              this.reloc(s, pc + f.at, sub, { c: 0, sym: v.sub }, f.loc);
              continue;
            }
            if (f.size !== 4) throw new AsmError(f.loc, `a ${f.size}-byte value cannot hold the address '${describe(v)}'`);
            this.reloc(s, pc + f.at, R_RISCV.R_32, v, f.loc);
          }
          return;
        case 'space': out.fill(it.fill & 0xff, pc, pc + it.n); return;
        case 'blob': out.set(it.data, pc); return;
        case 'leb': {
          // Padded to the size layout gave it (a value can shrink while others grow).
          const v = this.lebValue(it);
          const d = this.eval(it.expr, it.loc.column, true);
          if (d.sym && d.sub) {
            if (it.signed) throw new AsmError(it.loc, '.sleb128 of a difference of code labels');
            this.reloc(s, pc, R_RISCV.SET_ULEB128, { c: d.c, sym: d.sym }, it.loc);
            this.reloc(s, pc, R_RISCV.SUB_ULEB128, { c: 0, sym: d.sub }, it.loc);
          }
          const b = leb(v, it.signed);
          const pad = it.signed && v < 0 ? 0x7f : 0;
          for (let k = 0; k < it.size; k++) out[pc + k] = (k < b.length ? b[k] & 0x7f : pad) | (k < it.size - 1 ? 0x80 : 0);
          return;
        }
        case 'align': {
          const n = s.off[i + 1] - pc;
          if (it.fill !== undefined) { out.fill(it.fill & 0xff, pc, pc + n); return; }
          // Code: c.nop for an odd halfword, then 4-byte nops (a lone byte is zero).
          let p = pc;
          let left = n;
          if (left % 2) { out[p++] = 0; left--; }
          if (left % 4 === 2) { putBytes(out, p, 2, it.rvc ? 0x0001 : 0); p += 2; left -= 2; }
          for (; left >= 4; left -= 4, p += 4) putBytes(out, p, 4, 0x00000013);
          return;
        }
        case 'call': {
          const v = this.eval(it.expr, it.loc.column);
          const t = this.target(v, s, it.loc);
          // A call to a local function of the same section is resolved here.
          const d = t === undefined ? 0 : t - pc;
          if (t === undefined) this.reloc(s, pc, R_RISCV.CALL_PLT, v, it.loc);
          putBytes(out, pc, 4, encode('auipc', { rd: it.rd, imm: (((d + 0x800) >>> 12) << 12) | 0 }));
          putBytes(out, pc + 4, 4, encode('jalr', { rd: it.link, rs1: it.rd, imm: sext12(d) }));
          return;
        }
        case 'insn': this.emitInsn(it, s, pc, out); return;
      }
    });
    return out;
  }

  private finish(): AsmObject {
    for (const r of this.forwardRefs) {
      if (!this.syms.get(r.name)?.sec) throw new AsmError(r.loc, `undefined local label '${r.name.slice(2).split('$')[0]}f' (no '${r.name.slice(2).split('$')[0]}:' after it)`);
    }
    this.layout();
    const sections: ObjSection[] = this.secs.map((s) => {
      const data = this.emitSection(s);
      return { name: s.name, type: s.type, flags: s.flags, align: s.align, entsize: s.entsize, data, size: s.off[s.items.length], relocs: [] };
    });
    for (const [s, list] of this.relocs) sections[s.index].relocs = list;
    if (this.attributes.length) sections.push(attributesSection(this.attributes));
    // Undefined local labels used anywhere.
    for (const name of this.relocSyms) {
      const s = this.syms.get(name);
      if (name.startsWith('.L') && !s?.sec) {
        const where = this.findUse(name);
        throw new AsmError(where, `undefined local label '${name}'`);
      }
    }
    const lines: LineEntry[] = this.lineItems.map((l) => ({ section: l.sec.index, offset: l.sec.off[l.item], file: l.file, line: l.line, column: l.column }));
    return { sourceFile: this.sourceFile, sections, symbols: this.symbols(), lines };
  }

  private findUse(name: string): AsmLocation {
    for (const s of this.secs) {
      for (const it of s.items) {
        if (it.k === 'insn' && it.fix && mentions(it.fix.expr, name)) return { ...it.loc, column: it.fix.col };
        if (it.k === 'call' && mentions(it.expr, name)) return it.loc;
        if (it.k === 'bytes') for (const f of it.fixes) if (mentions(f.expr, name)) return f.loc;
      }
    }
    return this.loc;
  }

  private symbols(): ObjSymbol[] {
    const locals: ObjSymbol[] = [];
    const globals: ObjSymbol[] = [];
    if (this.sourceFile) locals.push({ name: this.sourceFile, binding: 'local', type: 'file', section: 'abs', value: 0, size: 0 });
    for (const s of this.syms.values()) {
      const global = s.binding === 'global' || s.binding === 'weak';
      const used = this.relocSyms.has(s.name);
      if (s.equ) {
        if (!global) continue;
        const v = this.eval(s.equ);
        if (v.sym || v.sub) continue;
        globals.push({ name: s.name, binding: s.binding!, type: s.type, section: 'abs', value: v.c, size: 0 });
        continue;
      }
      const temp = s.name.startsWith('.L');
      if (!global && !used && (temp || !s.sec) && !s.common) continue;
      let size = 0;
      if (s.sizeExpr) {
        const v = this.eval(s.sizeExpr);
        if (v.sym || v.sub) throw new AsmError(s.loc ?? this.loc, `.size of '${s.name}' is not a constant`);
        size = v.c;
      }
      const sym: ObjSymbol = {
        name: s.name,
        binding: s.binding === 'weak' ? 'weak' : global || (!s.sec && !s.common) ? 'global' : 'local',
        type: s.type,
        section: s.common ? 'common' : s.sec ? s.sec.index : -1,
        value: s.common ? s.common.align : s.sec ? this.labelOffset(s)! : 0,
        size: s.common ? s.common.size : size,
      };
      if (s.visibility) sym.visibility = s.visibility;
      (sym.binding === 'local' ? locals : globals).push(sym);
    }
    return [...locals, ...globals];
  }
}

function mentions(e: Expr, name: string): boolean {
  switch (e.k) {
    case 'sym': return e.name === name;
    case 'un': case 'mod': return mentions(e.a, name);
    case 'bin': return mentions(e.a, name) || mentions(e.b, name);
    default: return false;
  }
}

function describe(v: Val): string {
  return `${v.sym ?? ''}${v.sub ? ` - ${v.sub}` : ''}${v.c ? ` + ${v.c}` : ''}`;
}

/** Items LLVM keeps in fragments of variable size: branches and jumps it may relax, LEB128s. */
function isVariable(it: Item): boolean {
  if (it.k === 'leb') return true;
  if (it.k !== 'insn' || !it.fix?.pcrel) return false;
  if (B_ROWS.has(it.row.id)) return true;
  if (['c.j', 'c.jal', 'c.beqz', 'c.bnez'].includes(it.row.id)) return true;
  return it.row.id === 'jal' && it.rvc && compressibleTransfer(it.row, it.ops);
}

/** Conditional branches and jal to a label: their size is chosen at layout. */
function relaxable(row: Row, fix: Fix, coreV: boolean): boolean {
  return fix.pcrel && (B_ROWS.has(row.id) || row.id === 'jal' || (coreV && CV_BRANCHES.has(row.id)));
}

/** The compressed row a branch / jump takes when its offset fits (c.beqz, c.bnez, c.j, c.jal). */
function compressTransfer(row: Row, ops: Partial<Operands>): Row | undefined {
  const rs1 = ops.rs1 ?? 0;
  if ((row.id === 'beq' || row.id === 'bne') && (ops.rs2 ?? 0) === 0 && rs1 >= 8 && rs1 < 16) return rowById(row.id === 'beq' ? 'c.beqz' : 'c.bnez');
  if (row.id === 'jal' && (ops.rd ?? 0) === 0) return rowById('c.j');
  if (row.id === 'jal' && ops.rd === 1) return rowById('c.jal');
  return undefined;
}

const compressibleTransfer = (row: Row, ops: Partial<Operands>) => compressTransfer(row, ops) !== undefined;

/** The low `size` bytes of an instruction word. */
function putWord(out: Uint8Array, at: number, w: number, size: number): void {
  for (let i = 0; i < size; i++) out[at + i] = (w >>> (8 * i)) & 0xff;
}

/** v's two's complement in `size` bytes, little-endian (BigInt only beyond 2^53). */
function putLE(b: number[] | Uint8Array, at: number, size: number, v: number): void {
  const t = Math.trunc(v);
  if (size <= 4 && Number.isSafeInteger(t)) {
    const w = t >>> 0;
    for (let i = 0; i < size; i++) b[at + i] = (w >>> (8 * i)) & 0xff;
    return;
  }
  let x = BigInt.asUintN(size * 8, BigInt(t));
  for (let i = 0; i < size; i++) { b[at + i] = Number(x & 0xffn); x >>= 8n; }
}

const putBytes = (out: Uint8Array, at: number, size: number, v: number): void => putLE(out, at, size, v);

/** The LEB128 bytes of v. */
function leb(v: number, signed: boolean): number[] {
  const out: number[] = [];
  if (!signed) { uleb(out, v); return out; }
  for (;;) {
    const byte = v & 0x7f;
    v = Math.floor(v / 128);
    const done = (v === 0 && !(byte & 0x40)) || (v === -1 && (byte & 0x40));
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function uleb(out: number[], v: number): void {
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
}

/** .riscv.attributes: 'A', then the "riscv" vendor subsection with one file-level tag list. */
function attributesSection(attrs: { tag: number; value: number | string }[]): ObjSection {
  const content: number[] = [];
  for (const a of attrs) {
    uleb(content, a.tag);
    if (typeof a.value === 'string') { content.push(...new TextEncoder().encode(a.value), 0); } else uleb(content, a.value);
  }
  const vendor = [...new TextEncoder().encode('riscv'), 0];
  const fileLen = 1 + 4 + content.length;
  const subLen = 4 + vendor.length + fileLen;
  const out: number[] = [0x41];
  putLE(out, out.length, 4, subLen);
  out.push(...vendor, 1);
  putLE(out, out.length, 4, fileLen);
  out.push(...content);
  const data = new Uint8Array(out);
  return { name: '.riscv.attributes', type: SHT.RISCV_ATTRIBUTES, flags: 0, align: 1, entsize: 0, data, size: data.length, relocs: [] };
}

/** Assembles GNU-syntax RISC-V assembly into an object; throws AsmError with file:line:col. */
export function assemble(text: string, opts: AssembleOptions = {}): AsmObject {
  return new Assembler(opts).run(text);
}
