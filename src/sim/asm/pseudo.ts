// Pseudo-instructions: the aliases GNU and LLVM assemblers accept, each written as the table
// instructions it stands for. Returns undefined when `name` with these operands is no pseudo (the
// caller then looks in the table), so `jal label` and `jal ra, label` both work.
import { rowById } from '../isa/table';
import type { Operands } from '../isa/table';
import type { Expr } from './expr';
import { matchInsn, regOf, splitMem } from './insn';
import type { Fix, Insn, OperandCtx, OperandText } from './insn';

export type Op =
  | { k: 'insn'; insn: Insn }
  /** Defines a local label here (the %pcrel_hi anchor of la / lla / lw sym). */
  | { k: 'label'; name: string }
  /** auipc rd, 0; jalr link, 0(rd) with R_RISCV_CALL_PLT (call, tail). */
  | { k: 'call'; rd: number; link: number; expr: Expr; col: number };

export interface PseudoCtx extends OperandCtx {
  newPcrelLabel(): string;
}

const ZERO = 0;
const RA = 1;
const T1 = 6;

const I = (id: string, ops: Partial<Operands>, fix?: Fix): Op => ({ k: 'insn', insn: { row: rowById(id), ops, fix } });

function reg(ctx: OperandCtx, o: OperandText | undefined, what = 'a register'): number {
  if (!o) return ctx.error(0, `missing operand: expected ${what}`);
  const r = regOf(o.text);
  if (r === undefined) ctx.error(o.col, `expected ${what}, found '${o.text.trim()}'`);
  return r;
}

function target(ctx: OperandCtx, o: OperandText, slot: 'imm' = 'imm'): Fix {
  return { slot, expr: ctx.expr(o), pcrel: true, hi20: false, col: o.col };
}

const sext12 = (v: number) => (v << 20) >> 20;

/** LLVM's RISCVMatInt for RV32: lui / addi, or a 6-bit value shifted left when that is as short. */
export function loadImmediate(rd: number, value: number): Op[] {
  const seq = (v: number): [string, number][] => {
    const hi20 = ((v + 0x800) >>> 12) & 0xfffff;
    const lo12 = sext12(v);
    const s: [string, number][] = [];
    if (hi20) s.push(['lui', hi20]);
    if (lo12 || !hi20) s.push(['addi', lo12]);
    return s;
  };
  const v = value | 0;
  let s = seq(v);
  if ((v & 0xfff) !== 0 && (v & 1) === 0 && s.length >= 2) {
    let tz = 0;
    while (((v >>> tz) & 1) === 0) tz++;
    const shifted = v >> tz;
    const t = seq(shifted);
    const compressible = shifted >= -32 && shifted < 32;
    if (t.length + 1 < s.length || (compressible && t.length + 1 === s.length)) s = [...t, ['slli', tz]];
  }
  let src = ZERO;
  return s.map(([op, imm]) => {
    const o = op === 'lui' ? I('lui', { rd, imm: imm << 12 }) : I(op, { rd, rs1: src, imm });
    src = rd;
    return o;
  });
}

const BRANCH_ZERO: Record<string, [string, boolean]> = {
  beqz: ['beq', false], bnez: ['bne', false], bltz: ['blt', false], bgez: ['bge', false],
  blez: ['bge', true], bgtz: ['blt', true],
};
const BRANCH_SWAP: Record<string, string> = { bgt: 'blt', ble: 'bge', bgtu: 'bltu', bleu: 'bgeu' };
const LOADS = new Set(['lb', 'lh', 'lw', 'lbu', 'lhu']);
const STORES = new Set(['sb', 'sh', 'sw']);
const CSR_ALIAS: Record<string, string> = { csrw: 'csrrw', csrs: 'csrrs', csrc: 'csrrc', csrwi: 'csrrwi', csrsi: 'csrrsi', csrci: 'csrrci' };

const isSymbolOperand = (o: OperandText) => regOf(o.text) === undefined && !splitMem(o);

/** A pc-relative pair: label: auipc rd, %pcrel_hi(sym); then `second` with %pcrel_lo(label). */
function pcrelPair(ctx: PseudoCtx, rd: number, sym: OperandText, second: (lo: Fix) => Op): Op[] {
  const label = ctx.newPcrelLabel();
  const hi: Fix = { slot: 'imm', expr: ctx.expr(sym), mod: 'pcrel_hi', pcrel: false, hi20: true, col: sym.col };
  const lo: Fix = { slot: 'imm', expr: { k: 'sym', name: label }, mod: 'pcrel_lo', pcrel: false, hi20: false, col: sym.col };
  return [{ k: 'label', name: label }, I('auipc', { rd }, hi), second(lo)];
}

export function expandPseudo(name: string, ops: OperandText[], ctx: PseudoCtx, rvc: boolean): Op[] | undefined {
  const n = ops.length;
  const [a, b, c] = ops;
  switch (name) {
    case 'nop': return n === 0 ? [I('addi', { rd: 0, rs1: 0, imm: 0 })] : undefined;
    case 'ret': return n === 0 ? [I('jalr', { rd: ZERO, rs1: RA, imm: 0 })] : undefined;
    case 'unimp': return n === 0 ? [rvc ? I('c.unimp', {}) : I('csrrw', { rd: 0, rs1: 0, imm: 0xc00 })] : undefined;
    case 'fence': return n === 0 ? [I('fence', { aux: 15, imm: 15 })] : undefined;
    case 'li': {
      if (n !== 2) return undefined;
      const rd = reg(ctx, a);
      const e = ctx.expr(b);
      const v = ctx.constant(e);
      if (v === undefined) ctx.error(b.col, 'li needs a constant expression');
      if (v < -(2 ** 31) || v >= 2 ** 32) ctx.error(b.col, `operand out of range: li's immediate must be a 32-bit integer, not ${v}`);
      return loadImmediate(rd, v);
    }
    case 'la': case 'lla':
      if (n !== 2) return undefined;
      return pcrelPair(ctx, reg(ctx, a), b, (lo) => I('addi', { rd: reg(ctx, a), rs1: reg(ctx, a) }, lo));
    case 'mv': return n === 2 ? [I('addi', { rd: reg(ctx, a), rs1: reg(ctx, b), imm: 0 })] : undefined;
    case 'not': return n === 2 ? [I('xori', { rd: reg(ctx, a), rs1: reg(ctx, b), imm: -1 })] : undefined;
    case 'neg': return n === 2 ? [I('sub', { rd: reg(ctx, a), rs1: ZERO, rs2: reg(ctx, b) })] : undefined;
    case 'seqz': return n === 2 ? [I('sltiu', { rd: reg(ctx, a), rs1: reg(ctx, b), imm: 1 })] : undefined;
    case 'snez': return n === 2 ? [I('sltu', { rd: reg(ctx, a), rs1: ZERO, rs2: reg(ctx, b) })] : undefined;
    case 'sltz': return n === 2 ? [I('slt', { rd: reg(ctx, a), rs1: reg(ctx, b), rs2: ZERO })] : undefined;
    case 'sgtz': return n === 2 ? [I('slt', { rd: reg(ctx, a), rs1: ZERO, rs2: reg(ctx, b) })] : undefined;
    case 'zext.b': return n === 2 ? [I('andi', { rd: reg(ctx, a), rs1: reg(ctx, b), imm: 255 })] : undefined;
    case 'sext.b': case 'sext.h': case 'zext.h': {
      if (n !== 2) return undefined;
      const rd = reg(ctx, a);
      const sh = name === 'sext.b' ? 24 : 16;
      return [I('slli', { rd, rs1: reg(ctx, b), imm: sh }), I(name === 'zext.h' ? 'srli' : 'srai', { rd, rs1: rd, imm: sh })];
    }
    case 'j': return n === 1 ? [I('jal', { rd: ZERO }, target(ctx, a))] : undefined;
    case 'jal': return n === 1 ? [I('jal', { rd: RA }, target(ctx, a))] : undefined;
    case 'jr': return n === 1 ? [I('jalr', { rd: ZERO, rs1: reg(ctx, a), imm: 0 })] : undefined;
    case 'jalr':
      if (n === 1 && !splitMem(a)) return [I('jalr', { rd: RA, rs1: reg(ctx, a), imm: 0 })];
      if (n === 1) return undefined;
      // jalr rd, rs1, imm (the GNU three-operand spelling).
      if (n === 3 && regOf(b.text) !== undefined) {
        const v = ctx.constant(ctx.expr(c));
        if (v === undefined) ctx.error(c.col, 'jalr needs a constant offset');
        return [I('jalr', { rd: reg(ctx, a), rs1: reg(ctx, b), imm: v })];
      }
      return undefined;
    case 'call': case 'tail': {
      const link = name === 'call' ? RA : ZERO;
      if (n === 1) return [{ k: 'call', rd: name === 'call' ? RA : T1, link, expr: ctx.expr(a), col: a.col }];
      if (n === 2 && name === 'call') { const rd = reg(ctx, a); return [{ k: 'call', rd, link: rd, expr: ctx.expr(b), col: b.col }]; }
      return undefined;
    }
    case 'csrr': return n === 2 ? [...csr(ctx, 'csrrs', reg(ctx, a), b, { text: 'zero', col: b.col })] : undefined;
    case 'csrw': case 'csrs': case 'csrc': case 'csrwi': case 'csrsi': case 'csrci': {
      if (n !== 2) return undefined;
      let base = CSR_ALIAS[name];
      if (!base.endsWith('i') && regOf(b.text) === undefined) base += 'i';
      return csr(ctx, base, ZERO, a, b);
    }
    default: break;
  }
  if (name in BRANCH_ZERO && n === 2) {
    const [base, swap] = BRANCH_ZERO[name];
    const r = reg(ctx, a);
    return [I(base, swap ? { rs1: ZERO, rs2: r } : { rs1: r, rs2: ZERO }, target(ctx, b))];
  }
  if (name in BRANCH_SWAP && n === 3) return [I(BRANCH_SWAP[name], { rs1: reg(ctx, b), rs2: reg(ctx, a) }, target(ctx, c))];
  if (LOADS.has(name) && n === 2 && isSymbolOperand(b)) {
    const rd = reg(ctx, a);
    return pcrelPair(ctx, rd, b, (lo) => I(name, { rd, rs1: rd }, lo));
  }
  if (STORES.has(name) && n === 3 && isSymbolOperand(b)) {
    const rs = reg(ctx, a);
    const tmp = reg(ctx, c, 'a temporary register');
    return pcrelPair(ctx, tmp, b, (lo) => I(name, { rs2: rs, rs1: tmp }, lo));
  }
  return undefined;
}

function csr(ctx: OperandCtx, id: string, rd: number, csrOp: OperandText, src: OperandText): Op[] {
  // Reuse the table's operand reading for the CSR and source operands.
  const rdName = `x${rd}`;
  const text = [rdName, csrOp.text, src.text];
  const cols = [csrOp.col, csrOp.col, src.col];
  return [{ k: 'insn', insn: matchCsr(ctx, id, text.map((t, i) => ({ text: t, col: cols[i] }))) }];
}

function matchCsr(ctx: OperandCtx, id: string, ops: OperandText[]): Insn {
  return matchInsn(id, ops, ctx, ops[0].col, ops[2].col);
}
