// Instruction operands from the ISA table: each row's format syntax (the disassembler's, LLVM's
// no-alias spelling) is read back as a pattern, e.g. '{rd}, {imm}({rs1})', so one table gives
// decode, disassembly and assembly. An operand that is not a constant yet (a label, %lo(sym))
// becomes a fixup the assembler resolves after layout or turns into a relocation.
import { CSR_NAMES, REG_NAMES } from '../disasm';
import { fieldWidth } from '../isa/fields';
import type { Field } from '../isa/fields';
import { TABLE } from '../isa/table';
import type { Operands, Row } from '../isa/table';
import type { Expr, Modifier } from './expr';

export const REGS = new Map<string, number>();
REG_NAMES.forEach((n, i) => { REGS.set(n, i); REGS.set(`x${i}`, i); });
REGS.set('fp', 8);

const CSRS = new Map(Object.entries(CSR_NAMES).map(([k, v]) => [v, Number(k)]));

export type Slot = 'rd' | 'rs1' | 'rs2' | 'aux' | 'imm';

/**
 * An operand to fill in later. `pcrel`: a branch / jump target; `hi20`: lui's upper immediate;
 * `words`: a hardware loop's distance in words to a label (Row.wordOffset).
 */
export interface Fix { slot: Slot; expr: Expr; mod?: Modifier; pcrel: boolean; hi20: boolean; words?: boolean; col: number }

export interface Insn { row: Row; ops: Partial<Operands>; fix?: Fix }

/** One operand as written, with its column. */
export interface OperandText { text: string; col: number }

export interface OperandCtx {
  expr(o: OperandText): Expr;
  /** The value of an expression if it is a constant now (no label, no modifier). */
  constant(e: Expr): number | undefined;
  error(col: number, what: string): never;
}

/** Rows by mnemonic, in table order (a mnemonic can have several operand forms). */
export const ROWS_BY_NAME = new Map<string, Row[]>();
for (const r of TABLE) {
  const list = ROWS_BY_NAME.get(r.name) ?? [];
  list.push(r);
  ROWS_BY_NAME.set(r.name, list);
}

type Piece =
  | { k: 'one'; tok: string }
  | { k: 'mem'; off?: string; base: string };

const patternCache = new Map<string, Piece[]>();
function pattern(syntax: string): Piece[] {
  let p = patternCache.get(syntax);
  if (p) return p;
  p = syntax === '' ? [] : syntax.split(', ').map((s): Piece => {
    let m = /^\{(\w+#?)\}$/.exec(s);
    if (m) return { k: 'one', tok: m[1] };
    m = /^\{(\w+)\}\(\{(\w+)\}\)$/.exec(s);
    if (m) return { k: 'mem', off: m[1], base: m[2] };
    m = /^\(\{(\w+)\}\)$/.exec(s);
    if (m) return { k: 'mem', base: m[1] };
    throw new Error(`unreadable syntax piece '${s}'`);
  });
  patternCache.set(syntax, p);
  return p;
}

export const regOf = (s: string): number | undefined => REGS.get(s.trim());

/** Splits `off(reg)` into its offset text and base register, if the operand has that shape. */
export function splitMem(o: OperandText): { off: OperandText; base: number } | undefined {
  const t = o.text.trimEnd();
  if (!t.endsWith(')')) return undefined;
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    if (t[i] === ')') depth++;
    else if (t[i] === '(' && --depth === 0) {
      const base = regOf(t.slice(i + 1, -1));
      if (base === undefined) return undefined;
      return { off: { text: t.slice(0, i), col: o.col }, base };
    }
  }
  return undefined;
}

/** The range an immediate field accepts, for the diagnostic. */
export function fieldRange(fl: Field): { lo: number; hi: number; step: number } {
  const w = fieldWidth(fl);
  const step = 2 ** Math.min(...fl.slices.map(([, , at]) => at));
  return fl.signed ? { lo: -(2 ** (w - 1)), hi: 2 ** (w - 1) - step, step } : { lo: 0, hi: 2 ** w - step, step };
}

function rangeText(r: { lo: number; hi: number; step: number }): string {
  return `${r.step > 1 ? `a multiple of ${r.step}` : 'an integer'} in [${r.lo}, ${r.hi}]`;
}

class NoMatch extends Error {
  constructor(readonly col: number, what: string, readonly strong = false) { super(what); }
}

const FENCE_BITS: Record<string, number> = { i: 8, o: 4, r: 2, w: 1 };

/** Tries one row's syntax on the operands; throws NoMatch (with the reason) if it does not fit. */
function matchRow(r: Row, ops: OperandText[], ctx: OperandCtx, endCol: number): Insn {
  const pieces = pattern(r.syntax ?? r.format.syntax);
  if (pieces.length !== ops.length) {
    throw new NoMatch(ops[pieces.length]?.col ?? endCol, `${r.name} takes ${pieces.length} operand${pieces.length === 1 ? '' : 's'} (${(r.syntax ?? r.format.syntax) || 'none'}), not ${ops.length}`);
  }
  const out: Partial<Operands> = {};
  let fix: Fix | undefined;
  const reg = (tok: string, o: OperandText) => {
    const v = regOf(o.text);
    if (v === undefined) throw new NoMatch(o.col, `expected a register for {${tok}}, found '${o.text.trim()}'`);
    const slot: Slot = tok === 'rs3' ? 'aux' : (tok as Slot);
    out[slot] = v;
  };
  const imm = (tok: string, o: OperandText) => {
    const text = o.text.trim();
    if (regOf(text) !== undefined) throw new NoMatch(o.col, `expected an immediate for {${tok}}, found register '${text}'`);
    if (tok === 'csr') {
      const v = CSRS.get(text);
      if (v !== undefined) { out.imm = v; return; }
    }
    if (tok === 'pred' || tok === 'succ') {
      if (/^[iorw]+$/.test(text)) {
        const v = [...text].reduce((a, ch) => a | FENCE_BITS[ch], 0);
        if (tok === 'pred') out.aux = v; else out.imm = v;
        return;
      }
    }
    const slot: Slot = tok === 'aux' || tok === 'pred' ? 'aux' : tok.startsWith('rs2') ? 'rs2' : 'imm';
    const e = ctx.expr(o);
    const mod = e.k === 'mod' ? e.mod : undefined;
    const v = mod ? undefined : ctx.constant(e);
    const pcrel = tok === 'target';
    const hi20 = tok === 'hi20';
    if (r.wordOffset === slot && v === undefined && !mod) {
      if (fix) throw new NoMatch(o.col, 'two symbolic operands in one instruction', true);
      fix = { slot, expr: e, pcrel: false, hi20: false, words: true, col: o.col };
      return;
    }
    if (pcrel && v !== undefined) {
      // A constant target is an offset from the instruction (LLVM's reading), modulo 2^32.
      const fl = r.format.imm!;
      const rg = fieldRange(fl);
      const off = v | 0;
      if (off < rg.lo || off > rg.hi || off % rg.step !== 0) throw new NoMatch(o.col, `operand out of range: ${r.name}'s offset must be ${rangeText(rg)}, not ${off}`, true);
      out.imm = off;
      return;
    }
    if (v === undefined || pcrel) {
      if (fix) throw new NoMatch(o.col, 'two symbolic operands in one instruction', true);
      if (mod && (slot !== 'imm' || pcrel)) throw new NoMatch(o.col, `%${mod} is not allowed in {${tok}}`, true);
      if (mod && hi20 !== (mod === 'hi' || mod === 'pcrel_hi')) throw new NoMatch(o.col, `%${mod} does not fit ${r.name}'s {${tok}} operand`, true);
      fix = { slot, expr: mod ? (e as { a: Expr }).a : e, mod, pcrel, hi20, col: o.col };
      return;
    }
    const fl = r.format[slot];
    if (!fl) throw new Error(`row ${r.id}: {${tok}} has no field`);
    let val = v;
    if (hi20) {
      if (v < 0 || v > 0xfffff) throw new NoMatch(o.col, `operand out of range: ${r.name}'s {hi20} must be an integer in [0, 1048575]`, true);
      val = (v << 12) | 0;
    } else if ((tok === 'uimm' && fl.signed) || tok === 'csr' || tok.endsWith('#')) {
      const rg = fieldRange(fl);
      const width = 2 ** fieldWidth(fl);
      if (v < 0 || v >= width) throw new NoMatch(o.col, `operand out of range: ${r.name}'s {${tok}} must be an integer in [0, ${width - 1}]`, true);
      val = fl.signed && v > rg.hi ? v - width : v;
    } else {
      const rg = fieldRange(fl);
      if (v < rg.lo || v > rg.hi || v % rg.step !== 0) {
        throw new NoMatch(o.col, `operand out of range: ${r.name}'s {${tok}} must be ${rangeText(rg)}, not ${v}`, true);
      }
    }
    out[slot] = val;
  };
  pieces.forEach((p, i) => {
    const o = ops[i];
    if (p.k === 'one') {
      if (p.tok === 'rd' || p.tok === 'rs1' || p.tok === 'rs2' || p.tok === 'rs3') reg(p.tok, o);
      else imm(p.tok, o);
      return;
    }
    const m = splitMem(o);
    if (!m) throw new NoMatch(o.col, `expected a memory operand ${p.off ? `{${p.off}}` : ''}({${p.base}}), found '${o.text.trim()}'`);
    reg(p.base, { text: REG_NAMES[m.base], col: o.col });
    if (p.off === undefined) {
      if (m.off.text.trim() !== '') throw new NoMatch(o.col, `${r.name} takes no offset before ({${p.base}})`);
    } else if (p.off === 'rs2' || p.off === 'rs3') {
      reg(p.off, m.off);
    } else {
      imm(p.off, m.off.text.trim() === '' ? { text: '0', col: o.col } : m.off);
    }
  });
  return { row: r, ops: out, fix };
}

/** The table instruction `name` with these operands; throws a diagnostic via ctx when none fits. */
export function matchInsn(name: string, ops: OperandText[], ctx: OperandCtx, col: number, endCol: number): Insn {
  const rows = ROWS_BY_NAME.get(name);
  if (!rows) ctx.error(col, `unknown mnemonic '${name}'`);
  let best: NoMatch | undefined;
  for (const r of rows) {
    try {
      return matchRow(r, ops, ctx, endCol);
    } catch (e) {
      if (!(e instanceof NoMatch)) throw e;
      if (!best || (e.strong && !best.strong) || (e.strong === best.strong && e.col > best.col)) best = e;
    }
  }
  return ctx.error(best!.col, `${name}: ${best!.message}`);
}
