// RV32I, M, Zicsr and Zifencei. Timing (CV32E40P, see shared/reference/siracusa.md) is part of
// each exec: `stall` counts cycles beyond the one every instruction takes.
import * as Fm from './formats';
import type { Row } from './row';
import { row } from './row';

const J = { jumps: true } as const;

// Taken branches cost 3 cycles, 4 to a 32-bit instruction at a non-word-aligned address.
const branch = (id: string, f3: string, cond: string): Row =>
  row(id, 'I', `------- ----- ----- ${f3} ----- 1100011`, Fm.BRANCH,
    `if (${cond}) { pc += imm; stall += 2 + tgt(pc); } else pc += len;`, J);

// Loads: 1 cycle, 2 for a misaligned word or a halfword crossing a word; `ld` arms the
// one-cycle load-use stall of the next instruction.
const load = (id: string, f3: string, helper: string, mis: string): Row =>
  row(id, 'I', `------- ----- ----- ${f3} ----- 0000011`, Fm.LOAD,
    `const ea: u32 = A + imm; const v = ${helper}(ea); CHECK; W(v); stall += ${mis}(ea); ld = rd;`);

const store = (id: string, f3: string, helper: string, mis: string): Row =>
  row(id, 'I', `------- ----- ----- ${f3} ----- 0100011`, Fm.STORE,
    `const ea: u32 = A + imm; ${helper}(ea, B); CHECK; stall += ${mis}(ea);`);

const alu = (id: string, f7: string, f3: string, expr: string, ext: 'I' | 'M' = 'I'): Row =>
  row(id, ext, `${f7} ----- ----- ${f3} ----- 0110011`, Fm.R, `W(${expr});`);

const alui = (id: string, f3: string, expr: string): Row =>
  row(id, 'I', `------- ----- ----- ${f3} ----- 0010011`, Fm.I, `W(${expr});`);

const shifti = (id: string, f7: string, f3: string, expr: string): Row =>
  row(id, 'I', `${f7} ----- ----- ${f3} ----- 0010011`, Fm.SHIFT, `W(${expr});`);

// CSR instructions: csrAccess reads (and, when `wr`, writes) a CSR and flags unknown ones.
const csr = (id: string, f3: string, fmt: typeof Fm.CSRR, src: string, op: string, writes: string): Row =>
  row(id, 'Zicsr', `------------ ----- ${f3} ----- 1110011`, fmt,
    `const s: i32 = ${src}; const old = csrAccess(S, imm, s, ${op}, ${writes}, cyc0 + <u64>(n + stall), ins0 + <u64>n); CHECK; W(old); stall += csrExtra;`);

export const RV32: Row[] = [
  row('lui', 'I', '------------------------- 0110111', Fm.U, 'W(imm);'),
  row('auipc', 'I', '------------------------- 0010111', Fm.U, 'W(<i32>pc + imm);'),
  // Jumps: 2 cycles, 3 to a 32-bit instruction at a non-word-aligned address.
  row('jal', 'I', '------------------------- 1101111', Fm.JAL,
    'W(<i32>(pc + len)); pc += imm; stall += 1 + tgt(pc);', J),
  // jalr also waits a cycle when the previous instruction wrote its base register.
  row('jalr', 'I', '------------ ----- 000 ----- 1100111', Fm.JALR,
    'const t: u32 = (A + imm) & ~1; if (rs1 != 0 && <i32>((pw >> 10) & 63) == rs1) stall++; W(<i32>(pc + len)); pc = t; stall += 1 + tgt(pc);', J),
  branch('beq', '000', 'A == B'),
  branch('bne', '001', 'A != B'),
  branch('blt', '100', 'A < B'),
  branch('bge', '101', 'A >= B'),
  branch('bltu', '110', '<u32>A < <u32>B'),
  branch('bgeu', '111', '<u32>A >= <u32>B'),
  load('lb', '000', 'LB', 'mis1'),
  load('lh', '001', 'LH', 'mis2'),
  load('lw', '010', 'LW', 'mis4'),
  load('lbu', '100', 'LBU', 'mis1'),
  load('lhu', '101', 'LHU', 'mis2'),
  store('sb', '000', 'SB', 'mis1'),
  store('sh', '001', 'SH', 'mis2'),
  store('sw', '010', 'SW', 'mis4'),
  alui('addi', '000', 'A + imm'),
  alui('slti', '010', '<i32>(A < imm)'),
  alui('sltiu', '011', '<i32>(<u32>A < <u32>imm)'),
  alui('xori', '100', 'A ^ imm'),
  alui('ori', '110', 'A | imm'),
  alui('andi', '111', 'A & imm'),
  shifti('slli', '0000000', '001', 'A << imm'),
  shifti('srli', '0000000', '101', '<i32>(<u32>A >> imm)'),
  shifti('srai', '0100000', '101', 'A >> imm'),
  alu('add', '0000000', '000', 'A + B'),
  alu('sub', '0100000', '000', 'A - B'),
  alu('sll', '0000000', '001', 'A << (B & 31)'),
  alu('slt', '0000000', '010', '<i32>(A < B)'),
  alu('sltu', '0000000', '011', '<i32>(<u32>A < <u32>B)'),
  alu('xor', '0000000', '100', 'A ^ B'),
  alu('srl', '0000000', '101', '<i32>(<u32>A >> (B & 31))'),
  alu('sra', '0100000', '101', 'A >> (B & 31)'),
  alu('or', '0000000', '110', 'A | B'),
  alu('and', '0000000', '111', 'A & B'),
  row('fence', 'I', '0000 ---- ---- 00000 000 00000 0001111', Fm.FENCE, ''),
  row('fence.i', 'Zifencei', '0000 0000 0000 00000 001 00000 0001111', Fm.NONE, 'flushICache(); stall += 1;'),
  // ecall leaves the run loop; the host services the system call and resumes after it (at the
  // loop start if it ended a hardware loop's body).
  row('ecall', 'I', '000000000000 00000 000 00000 1110011', Fm.NONE, 'pc += 4; HWNEXT; n++; STOP(STOP_ECALL);', J),
  row('ebreak', 'I', '000000000001 00000 000 00000 1110011', Fm.NONE, 'TRAP(CAUSE_BREAKPOINT, pc);', J),
  csr('csrrw', '001', Fm.CSRR, 'A', 'CSR_WRITE', 'true'),
  csr('csrrs', '010', Fm.CSRR, 'A', 'CSR_SET', 'rs1 != 0'),
  csr('csrrc', '011', Fm.CSRR, 'A', 'CSR_CLEAR', 'rs1 != 0'),
  csr('csrrwi', '101', Fm.CSRI, 'aux', 'CSR_WRITE', 'true'),
  csr('csrrsi', '110', Fm.CSRI, 'aux', 'CSR_SET', 'aux != 0'),
  csr('csrrci', '111', Fm.CSRI, 'aux', 'CSR_CLEAR', 'aux != 0'),
  // (Widening: AssemblyScript folds `<u64><u32>load<i32>(p)` into a sign-extending load, so the
// unsigned operands are widened signed and masked instead.)
// M: mul 1 cycle, mulh* 5, div/rem 3 + the divisor's leading zeros (35 for zero).
  alu('mul', '0000001', '000', 'A * B', 'M'),
  row('mulh', 'M', '0000001 ----- ----- 001 ----- 0110011', Fm.R, 'W(<i32>((<i64>A * <i64>B) >> 32)); stall += 4;'),
  row('mulhsu', 'M', '0000001 ----- ----- 010 ----- 0110011', Fm.R, 'W(<i32>((<i64>A * (<i64>B & 0xffffffff)) >> 32)); stall += 4;'),
  row('mulhu', 'M', '0000001 ----- ----- 011 ----- 0110011', Fm.R, 'W(<i32>(((<u64>A & 0xffffffff) * (<u64>B & 0xffffffff)) >> 32)); stall += 4;'),
  row('div', 'M', '0000001 ----- ----- 100 ----- 0110011', Fm.R,
    'W(B == 0 ? -1 : (A == i32.MIN_VALUE && B == -1) ? A : A / B); stall += 2 + <i32>clz<i32>(B < 0 ? -B : B);'),
  row('divu', 'M', '0000001 ----- ----- 101 ----- 0110011', Fm.R,
    'W(B == 0 ? -1 : <i32>(<u32>A / <u32>B)); stall += 2 + <i32>clz<i32>(B);'),
  row('rem', 'M', '0000001 ----- ----- 110 ----- 0110011', Fm.R,
    'W(B == 0 ? A : (A == i32.MIN_VALUE && B == -1) ? 0 : A % B); stall += 2 + <i32>clz<i32>(B < 0 ? -B : B);'),
  row('remu', 'M', '0000001 ----- ----- 111 ----- 0110011', Fm.R,
    'W(B == 0 ? A : <i32>(<u32>A % <u32>B)); stall += 2 + <i32>clz<i32>(B);'),
];
