// Instruction formats: which fields of the word fill the five operand slots of a decoded
// instruction, and how the disassembler prints them. A decoded instruction is always
// {op, rd, rs1, rs2, aux, imm}: registers in rd/rs1/rs2, a third register or a small second
// immediate in aux, and the main immediate in imm.
import * as F from './fields';
import type { Field } from './fields';

export interface Format {
  name: string;
  rd?: Field;
  rs1?: Field;
  rs2?: Field;
  /** A third register (rs3) or a second immediate of at most 6 bits (stored sign-extended). */
  aux?: Field;
  imm?: Field;
  /** Whether rd is a register the instruction writes (writes to x0 are sent to a sink slot). */
  writesRd: boolean;
  /**
   * Operand text. Tokens: {rd} {rs1} {rs2} {rs3} (aux as a register) register names;
   * {imm} {aux} signed decimal; {uimm} unsigned decimal; {hi20} imm >>> 12; {target} pc + imm;
   * {csr} a CSR name; {pred} {succ} fence sets (aux, imm); {slot#} a slot as a plain number.
   */
  syntax: string;
}

const fmt = (name: string, slots: Omit<Format, 'name' | 'writesRd' | 'syntax'>, syntax: string, writesRd = true): Format =>
  ({ name, ...slots, syntax, writesRd });

// RV32I
export const R = fmt('R', { rd: F.RD, rs1: F.RS1, rs2: F.RS2 }, '{rd}, {rs1}, {rs2}');
export const I = fmt('I', { rd: F.RD, rs1: F.RS1, imm: F.I_IMM }, '{rd}, {rs1}, {imm}');
export const SHIFT = fmt('SHIFT', { rd: F.RD, rs1: F.RS1, imm: F.SHAMT }, '{rd}, {rs1}, {imm}');
export const LOAD = fmt('LOAD', { rd: F.RD, rs1: F.RS1, imm: F.I_IMM }, '{rd}, {imm}({rs1})');
export const STORE = fmt('STORE', { rs1: F.RS1, rs2: F.RS2, imm: F.S_IMM }, '{rs2}, {imm}({rs1})', false);
export const BRANCH = fmt('BRANCH', { rs1: F.RS1, rs2: F.RS2, imm: F.B_IMM }, '{rs1}, {rs2}, {target}', false);
export const U = fmt('U', { rd: F.RD, imm: F.U_IMM }, '{rd}, {hi20}');
export const JAL = fmt('JAL', { rd: F.RD, imm: F.J_IMM }, '{rd}, {target}');
export const JALR = fmt('JALR', { rd: F.RD, rs1: F.RS1, imm: F.I_IMM }, '{rd}, {imm}({rs1})');
export const CSRR = fmt('CSRR', { rd: F.RD, rs1: F.RS1, imm: F.CSR }, '{rd}, {csr}, {rs1}');
export const CSRI = fmt('CSRI', { rd: F.RD, aux: F.ZIMM, imm: F.CSR }, '{rd}, {csr}, {aux}');
export const FENCE = fmt('FENCE', { aux: F.FENCE_PRED, imm: F.FENCE_SUCC }, '{pred}, {succ}', false);
export const NONE = fmt('NONE', {}, '', false);

// RVC: every compressed format fills the slots of the base instruction it expands to.
export const CIW = fmt('CIW', { rd: F.CRP_LO, rs1: F.SP, imm: F.C_ADDI4SPN }, '{rd}, {rs1}, {uimm}');
export const CL = fmt('CL', { rd: F.CRP_LO, rs1: F.CRP_HI, imm: F.C_LSW }, '{rd}, {imm}({rs1})');
export const CS = fmt('CS', { rs1: F.CRP_HI, rs2: F.CRP_LO, imm: F.C_LSW }, '{rs2}, {imm}({rs1})', false);
export const CI = fmt('CI', { rd: F.CR_HI, rs1: F.CR_HI, imm: F.C_IMM6 }, '{rd}, {imm}');
export const CI_NOP = fmt('CI_NOP', { rd: F.ZERO, rs1: F.ZERO, imm: F.C_ZERO_IMM }, '');
export const CI_LI = fmt('CI_LI', { rd: F.CR_HI, rs1: F.ZERO, imm: F.C_IMM6 }, '{rd}, {imm}');
export const CI_LUI = fmt('CI_LUI', { rd: F.CR_HI, imm: F.C_LUI }, '{rd}, {hi20}');
export const CI_SP = fmt('CI_SP', { rd: F.SP, rs1: F.SP, imm: F.C_ADDI16SP }, '{rd}, {imm}');
export const CI_SHIFT = fmt('CI_SHIFT', { rd: F.CR_HI, rs1: F.CR_HI, imm: F.C_SHAMT }, '{rd}, {imm}');
export const CB_SHIFT = fmt('CB_SHIFT', { rd: F.CRP_HI, rs1: F.CRP_HI, imm: F.C_SHAMT }, '{rd}, {imm}');
export const CB_ANDI = fmt('CB_ANDI', { rd: F.CRP_HI, rs1: F.CRP_HI, imm: F.C_IMM6 }, '{rd}, {imm}');
export const CA = fmt('CA', { rd: F.CRP_HI, rs1: F.CRP_HI, rs2: F.CRP_LO }, '{rd}, {rs2}');
export const CJ = fmt('CJ', { rd: F.ZERO, imm: F.C_J }, '{target}');
export const CJ_LINK = fmt('CJ_LINK', { rd: F.RA, imm: F.C_J }, '{target}');
export const CB = fmt('CB', { rs1: F.CRP_HI, rs2: F.ZERO, imm: F.C_B }, '{rs1}, {target}', false);
export const CI_LWSP = fmt('CI_LWSP', { rd: F.CR_HI, rs1: F.SP, imm: F.C_LWSP }, '{rd}, {imm}({rs1})');
export const CSS = fmt('CSS', { rs1: F.SP, rs2: F.CR_LO, imm: F.C_SWSP }, '{rs2}, {imm}({rs1})', false);
export const CR_JR = fmt('CR_JR', { rd: F.ZERO, rs1: F.CR_HI, imm: F.C_ZERO_IMM }, '{rs1}');
export const CR_JALR = fmt('CR_JALR', { rd: F.RA, rs1: F.CR_HI, imm: F.C_ZERO_IMM }, '{rs1}');
export const CR_MV = fmt('CR_MV', { rd: F.CR_HI, rs1: F.ZERO, rs2: F.CR_LO }, '{rd}, {rs2}');
export const CR_ADD = fmt('CR_ADD', { rd: F.CR_HI, rs1: F.CR_HI, rs2: F.CR_LO }, '{rd}, {rs2}');

// CORE-V
/** rd, rs1 (rs2 field fixed to zero by the match). */
export const R1 = fmt('R1', { rd: F.RD, rs1: F.RS1 }, '{rd}, {rs1}');
/** rd is also read (MAC, insert, packhi/lo, shuffle2, ...): same text as R. */
export const RD_RW = fmt('RD_RW', { rd: F.RD, rs1: F.RS1, rs2: F.RS2 }, '{rd}, {rs1}, {rs2}');
/** rd, rs1, rs2, Is3 (cv.addN, cv.mulsN, ...). */
export const RRI = fmt('RRI', { rd: F.RD, rs1: F.RS1, rs2: F.RS2, imm: F.CV_IS3 }, '{rd}, {rs1}, {rs2}, {imm}');
/** rd, rs1, Is3, Is2 (cv.extract, cv.bset, ...): Is3 in aux, Is2 in imm. */
export const RII = fmt('RII', { rd: F.RD, rs1: F.RS1, aux: F.CV_IS3, imm: F.CV_IS2 }, '{rd}, {rs1}, {aux}, {imm}');
export const RII_BITREV = fmt('RII_BITREV', { rd: F.RD, rs1: F.RS1, aux: F.CV_RADIX, imm: F.CV_IS2 }, '{rd}, {rs1}, {aux}, {imm}');
/** rd, rs1, Is2 (cv.clip, cv.clipu). */
export const RI5 = fmt('RI5', { rd: F.RD, rs1: F.RS1, imm: F.CV_IS2 }, '{rd}, {rs1}, {imm}');
export const SIMD_SCI = fmt('SIMD_SCI', { rd: F.RD, rs1: F.RS1, imm: F.CV_SIMM6 }, '{rd}, {rs1}, {imm}');
export const SIMD_SCIU = fmt('SIMD_SCIU', { rd: F.RD, rs1: F.RS1, imm: F.CV_UIMM6 }, '{rd}, {rs1}, {imm}');
export const LOAD_PI = fmt('LOAD_PI', { rd: F.RD, rs1: F.RS1, imm: F.I_IMM }, '{rd}, ({rs1}), {imm}');
export const LOAD_RR_PI = fmt('LOAD_RR_PI', { rd: F.RD, rs1: F.RS1, rs2: F.RS2 }, '{rd}, ({rs1}), {rs2}');
export const LOAD_RR = fmt('LOAD_RR', { rd: F.RD, rs1: F.RS1, rs2: F.RS2 }, '{rd}, {rs2}({rs1})');
export const STORE_PI = fmt('STORE_PI', { rs1: F.RS1, rs2: F.RS2, imm: F.S_IMM }, '{rs2}, ({rs1}), {imm}', false);
export const STORE_RR_PI = fmt('STORE_RR_PI', { rs1: F.RS1, rs2: F.RS2, aux: F.RS3_AT_RD }, '{rs2}, ({rs1}), {rs3}', false);
export const STORE_RR = fmt('STORE_RR', { rs1: F.RS1, rs2: F.RS2, aux: F.RS3_AT_RD }, '{rs2}, {rs3}({rs1})', false);
export const BRANCH_IMM = fmt('BRANCH_IMM', { rs1: F.RS1, aux: F.CV_SIMM5, imm: F.B_IMM }, '{rs1}, {aux}, {target}', false);
/**
 * Hardware loops: L (a number, not a register) rides in the rs2 slot, uimmL in imm, rs1 or
 * uimmS in rs1 / aux.
 */
export const HW_I = fmt('HW_I', { rs2: F.HW_L, imm: F.HW_UIMML }, '{rs2#}, {uimm}', false);
export const HW_R = fmt('HW_R', { rs2: F.HW_L, rs1: F.RS1 }, '{rs2#}, {rs1}', false);
export const HW_SETUPI = fmt('HW_SETUPI', { rs2: F.HW_L, aux: F.HW_UIMMS, imm: F.HW_UIMML }, '{rs2#}, {uimm}, {aux}', false);
export const HW_SETUP = fmt('HW_SETUP', { rs2: F.HW_L, rs1: F.RS1, imm: F.HW_UIMML }, '{rs2#}, {rs1}, {uimm}', false);
