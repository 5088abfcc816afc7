// RVC (RV32C, integer subset): each compressed instruction is decoded straight into the base
// instruction it stands for, so the executor has no compressed cases at all; only the
// disassembler prints the compressed spelling.
import * as Fm from './formats';
import type { Format } from './formats';
import type { Row } from './row';
import { bits } from './row';

const c = (id: string, pattern: string, format: Format, expands: string, over?: string[]): Row =>
  ({ id, name: id, ext: 'C', ...bits(pattern), format, expands, over });

export const RVC: Row[] = [
  // The all-zero halfword is defined illegal (it would otherwise be c.addi4spn x8, sp, 0).
  { id: 'c.unimp', name: 'c.unimp', ext: 'C', ...bits('0000000000000000'), format: Fm.NONE, exec: 'TRAP(CAUSE_ILLEGAL, 0);', jumps: true, over: ['c.addi4spn'] },
  c('c.addi4spn', '000 -------- --- 00', Fm.CIW, 'addi'),
  c('c.lw', '010 --- --- -- --- 00', Fm.CL, 'lw'),
  c('c.sw', '110 --- --- -- --- 00', Fm.CS, 'sw'),
  c('c.nop', '000 0 00000 00000 01', Fm.CI_NOP, 'addi', ['c.addi']),
  c('c.addi', '000 - ----- ----- 01', Fm.CI, 'addi'),
  c('c.jal', '001 ----------- 01', Fm.CJ_LINK, 'jal'),
  c('c.li', '010 - ----- ----- 01', Fm.CI_LI, 'addi'),
  c('c.addi16sp', '011 - 00010 ----- 01', Fm.CI_SP, 'addi', ['c.lui']),
  c('c.lui', '011 - ----- ----- 01', Fm.CI_LUI, 'lui'),
  // RV32: shift amounts with bit 5 set (inst[12]) are reserved.
  c('c.srli', '100 0 00 --- ----- 01', Fm.CB_SHIFT, 'srli'),
  c('c.srai', '100 0 01 --- ----- 01', Fm.CB_SHIFT, 'srai'),
  c('c.andi', '100 - 10 --- ----- 01', Fm.CB_ANDI, 'andi'),
  c('c.sub', '100 0 11 --- 00 --- 01', Fm.CA, 'sub'),
  c('c.xor', '100 0 11 --- 01 --- 01', Fm.CA, 'xor'),
  c('c.or', '100 0 11 --- 10 --- 01', Fm.CA, 'or'),
  c('c.and', '100 0 11 --- 11 --- 01', Fm.CA, 'and'),
  c('c.j', '101 ----------- 01', Fm.CJ, 'jal'),
  c('c.beqz', '110 --- --- ----- 01', Fm.CB, 'beq'),
  c('c.bnez', '111 --- --- ----- 01', Fm.CB, 'bne'),
  c('c.slli', '000 0 ----- ----- 10', Fm.CI_SHIFT, 'slli'),
  c('c.lwsp', '010 - ----- ----- 10', Fm.CI_LWSP, 'lw'),
  c('c.jr', '100 0 ----- 00000 10', Fm.CR_JR, 'jalr', ['c.mv']),
  c('c.mv', '100 0 ----- ----- 10', Fm.CR_MV, 'add'),
  c('c.ebreak', '100 1 00000 00000 10', Fm.NONE, 'ebreak', ['c.jalr', 'c.add']),
  c('c.jalr', '100 1 ----- 00000 10', Fm.CR_JALR, 'jalr', ['c.add']),
  c('c.add', '100 1 ----- ----- 10', Fm.CR_ADD, 'add'),
  c('c.swsp', '110 ------ ----- 10', Fm.CSS, 'sw'),
];
