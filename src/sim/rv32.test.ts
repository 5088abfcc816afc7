// Per-instruction tests of RV32I, M, Zicsr and C on the wasm core, with hand-computed results.
import { beforeAll, describe, expect, it } from 'vitest';
import { encode } from './isa/encode';
import type { Machine } from './machine';
import { nodeMachine } from './node';
import { CODE, DATA, RD, RS1, RS2, TCDM, exec1, runWords } from './testing/harness';

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

const u = (v: number) => v >>> 0;

describe('RV32I register-register and immediate ops', () => {
  const cases: [string, number, number, number, number?][] = [
    // id, rs1, rs2 (or imm), expected rd
    ['add', 5, 7, 12], ['add', 0x7fffffff, 1, 0x80000000], ['sub', 5, 7, u(-2)], ['sub', 0, 0x80000000, 0x80000000],
    ['sll', 1, 35, 8], ['slt', u(-1), 0, 1], ['slt', 0, u(-1), 0], ['sltu', u(-1), 0, 0], ['sltu', 0, u(-1), 1],
    ['xor', 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0], ['srl', 0x80000000, 4, 0x08000000], ['sra', 0x80000000, 4, 0xf8000000],
    ['sra', 0x80000000, 36, 0xf8000000], ['or', 0xf0, 0x0f, 0xff], ['and', 0xf0f0, 0xff00, 0xf000],
  ];
  it.each(cases)('%s %d, %d = %d', (id, a, b, want) => {
    expect(exec1(m, id, { a, b })).toBe(want);
  });

  const imm: [string, number, number, number][] = [
    ['addi', 5, -7, u(-2)], ['addi', 0x7fffffff, 1, 0x80000000], ['slti', u(-5), -4, 1], ['slti', 5, -4, 0],
    ['sltiu', 5, -1, 1], ['sltiu', u(-1), 5, 0], ['xori', 0x0f0f, -1, 0xfffff0f0], ['ori', 0x100, 0x0ff, 0x1ff],
    ['andi', 0xffffffff, 0x7f0, 0x7f0], ['slli', 3, 31, 0x80000000], ['srli', 0x80000001, 31, 1], ['srai', 0x80000001, 31, 0xffffffff],
  ];
  it.each(imm)('%s %d, imm %d = %d', (id, a, i, want) => {
    expect(exec1(m, id, { a }, { imm: i })).toBe(want);
  });

  it('lui and auipc', () => {
    expect(exec1(m, 'lui', {}, { imm: 0x12345000 })).toBe(0x12345000);
    expect(exec1(m, 'lui', {}, { imm: 0xfffff000 | 0 })).toBe(0xfffff000);
    expect(exec1(m, 'auipc', {}, { imm: 0x1000 })).toBe(CODE + 0x1000);
    expect(exec1(m, 'auipc', {}, { imm: -0x1000 })).toBe(CODE - 0x1000);
  });

  it('never writes x0', () => {
    runWords(m, [encode('addi', { rd: 0, rs1: 0, imm: 5 }), encode('add', { rd: RD, rs1: 0, rs2: 0 })]);
    expect(m.reg(0, 0)).toBe(0);
    expect(m.reg(0, RD)).toBe(0);
  });
});

describe('RV32M', () => {
  const MIN = 0x80000000;
  const cases: [string, number, number, number][] = [
    ['mul', 7, u(-3), u(-21)], ['mul', 0x10000, 0x10000, 0],
    ['mulh', u(-1), u(-1), 0], ['mulh', MIN, MIN, 0x40000000], ['mulh', 0x7fffffff, 2, 0],
    ['mulhsu', u(-1), u(-1), u(-1)], ['mulhsu', 2, 0x80000000, 1],
    ['mulhu', u(-1), u(-1), 0xfffffffe], ['mulhu', 0x10000, 0x10000, 1],
    ['div', u(-7), 2, u(-3)], ['div', MIN, u(-1), MIN], ['div', 5, 0, u(-1)],
    ['divu', u(-7), 2, 0x7ffffffc], ['divu', 5, 0, u(-1)],
    ['rem', u(-7), 2, u(-1)], ['rem', MIN, u(-1), 0], ['rem', 5, 0, 5],
    ['remu', u(-7), 2, 1], ['remu', 5, 0, 5],
  ];
  it.each(cases)('%s %d, %d = %d', (id, a, b, want) => {
    expect(exec1(m, id, { a, b })).toBe(want);
  });
});

describe('loads and stores', () => {
  it('sign- and zero-extend narrow loads, in L2 and L1', () => {
    for (const base of [DATA, TCDM]) {
      m.write(base, new Uint8Array([0x81, 0xff, 0x34, 0x92]));
      const load = (id: string, imm: number) => exec1(m, id, { a: base }, { imm });
      expect(load('lb', 0)).toBe(0xffffff81);
      expect(load('lbu', 0)).toBe(0x81);
      expect(load('lh', 2)).toBe(0xffff9234);
      expect(load('lhu', 2)).toBe(0x9234);
      expect(load('lw', 0)).toBe(0x9234ff81);
      expect(load('lh', 1)).toBe(0x34ff); // misaligned halfword
    }
  });

  it('store bytes, halfwords and words', () => {
    m.write(DATA, new Uint8Array(8));
    exec1(m, 'sw', { a: DATA, b: 0x11223344 }, { imm: 4 });
    exec1(m, 'sh', { a: DATA + 8, b: 0xaabbccdd }, { imm: -8 });
    exec1(m, 'sb', { a: DATA, b: 0x1ee }, { imm: 2 });
    expect([...m.read(DATA, 8)]).toEqual([0xdd, 0xcc, 0xee, 0, 0x44, 0x33, 0x22, 0x11]);
  });

  it('trap on unmapped addresses with the address in tval', () => {
    expect(runWords(m, [encode('lw', { rd: RD, rs1: RS1, imm: 0 })], { regs: { [RS1]: 0x20000000 } })).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 5, name: 'load access fault', pc: CODE, tval: 0x20000000, disasm: 'lw t0, 0(t1)' });
    expect(runWords(m, [encode('sw', { rs1: RS1, rs2: RS2, imm: 0 })], { regs: { [RS1]: 0x1c1ffffe } })).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 7, tval: 0x1c1ffffe });
    expect(m.reg(0, RD)).toBe(0);
  });
});

describe('control flow', () => {
  const br = (id: string, a: number, b: number) => {
    runWords(m, [encode(id, { rs1: RS1, rs2: RS2, imm: 16 })], { regs: { [RS1]: a, [RS2]: b } });
    return m.pc(0) === CODE + 16;
  };
  it('branches', () => {
    expect([br('beq', 3, 3), br('beq', 3, 4), br('bne', 3, 4), br('bne', 3, 3)]).toEqual([true, false, true, false]);
    expect([br('blt', u(-1), 0), br('blt', 0, u(-1)), br('bge', 0, 0), br('bge', u(-1), 0)]).toEqual([true, false, true, false]);
    expect([br('bltu', 0, u(-1)), br('bltu', u(-1), 0), br('bgeu', u(-1), 0), br('bgeu', 0, 1)]).toEqual([true, false, true, false]);
  });

  it('jal and jalr link and jump', () => {
    runWords(m, [encode('jal', { rd: 1, imm: -8 })]);
    expect([m.pc(0), u(m.reg(0, 1))]).toEqual([CODE - 8, CODE + 4]);
    runWords(m, [encode('jalr', { rd: RD, rs1: RD, imm: 3 })], { regs: { [RD]: CODE + 0x100 } });
    expect([m.pc(0), u(m.reg(0, RD))]).toEqual([CODE + 0x102, CODE + 4]); // bit 0 cleared, rd == rs1
  });
});

describe('Zicsr', () => {
  it('reads mhartid, uhartid, misa and the counters', () => {
    placeAndRun([encode('csrrs', { rd: RD, rs1: 0, imm: 0xf14 })], 7);
    expect(m.reg(0, RD)).toBe(7);
    placeAndRun([encode('csrrs', { rd: RD, rs1: 0, imm: 0xcd0 })], 3);
    expect(m.reg(0, RD)).toBe(3);
    placeAndRun([encode('csrrs', { rd: RD, rs1: 0, imm: 0x301 })]);
    expect(u(m.reg(0, RD))).toBe(0x40801104);
    // Three 1-cycle adds, then mcycle (counted before it) and minstret.
    const add = encode('addi', { rd: 10, rs1: 10, imm: 1 });
    placeAndRun([add, add, add, encode('csrrs', { rd: RD, rs1: 0, imm: 0xb00 }), encode('csrrs', { rd: RS1, rs1: 0, imm: 0xc02 })]);
    expect([m.reg(0, RD), m.reg(0, RS1)]).toEqual([3, 4]);
  });

  it('writes, sets and clears a machine CSR', () => {
    placeAndRun([
      encode('csrrwi', { rd: 0, aux: 0x15, imm: 0x340 }), // mscratch = 0b10101
      encode('csrrsi', { rd: RD, aux: 0x0a, imm: 0x340 }), // t0 = 0x15, mscratch = 0x1f
      encode('csrrci', { rd: RS1, aux: 0x03, imm: 0x340 }), // t1 = 0x1f, mscratch = 0x1c
      encode('csrrw', { rd: RS2, rs1: 0, imm: 0x340 }), // t2 = 0x1c, mscratch = 0
      encode('csrrs', { rd: 10, rs1: 0, imm: 0x340 }),
    ]);
    expect([m.reg(0, RD), m.reg(0, RS1), m.reg(0, RS2), m.reg(0, 10)]).toEqual([0x15, 0x1f, 0x1c, 0]);
    placeAndRun([encode('csrrw', { rd: RD, rs1: RS1, imm: 0x341 }), encode('csrrc', { rd: RS2, rs1: RS1, imm: 0x341 })], 0, { [RS1]: 0xff });
    expect([m.reg(0, RD), m.reg(0, RS2)]).toEqual([0, 0xff]);
  });

  it('traps on unknown CSRs and on writes to read-only ones', () => {
    expect(placeAndRun([encode('csrrs', { rd: RD, rs1: 0, imm: 0x7c0 })])).toBe(2);
    expect(m.trap(0).cause).toBe(2);
    expect(placeAndRun([encode('csrrw', { rd: RD, rs1: RS1, imm: 0xf14 })])).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 2, insn: encode('csrrw', { rd: RD, rs1: RS1, imm: 0xf14 }) });
  });

  function placeAndRun(words: number[], hartid = 0, regs: Record<number, number> = {}): number {
    runWords(m, words, { steps: 0 });
    m.resetCore(0, CODE, hartid);
    for (const [r, v] of Object.entries(regs)) m.setReg(0, Number(r), v);
    return m.step(0, words.length);
  }
});

describe('system', () => {
  it('ecall stops after the instruction, ebreak and illegal words trap at it', () => {
    expect(runWords(m, [encode('ecall')])).toBe(1);
    expect(m.pc(0)).toBe(CODE + 4);
    expect(runWords(m, [encode('ebreak')])).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 3, pc: CODE, disasm: 'ebreak' });
    expect(runWords(m, [0xffffffff >>> 0 & ~0x7c | 0x3])).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 2, name: 'illegal instruction' });
    expect(runWords(m, [0x0000])).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 2, disasm: 'c.unimp' });
  });

  it('fence and fence.i run (fence.i re-decodes changed code)', () => {
    runWords(m, [encode('addi', { rd: RD, rs1: 0, imm: 1 }), encode('fence', { aux: 15, imm: 15 }), encode('fence.i')]);
    expect(m.reg(0, RD)).toBe(1);
  });

  it('traps when fetching outside the memory map', () => {
    runWords(m, [encode('jalr', { rd: 0, rs1: RS1, imm: 0 })], { regs: { [RS1]: 0x40000000 }, steps: 2 });
    expect(m.trap(0)).toMatchObject({ cause: 1, pc: 0x40000000 });
  });
});

describe('RVC expands to the base instructions', () => {
  const c = (id: string, ops: Parameters<typeof encode>[1], regs: Record<number, number>) => {
    runWords(m, [encode(id, ops)], { regs });
    return m;
  };
  it('arithmetic and moves', () => {
    expect(c('c.addi4spn', { rd: 8, imm: 16 }, { 2: 0x1000 }).reg(0, 8)).toBe(0x1010);
    expect(c('c.addi', { rd: 9, imm: -3 }, { 9: 10 }).reg(0, 9)).toBe(7);
    expect(c('c.li', { rd: 9, imm: -32 }, {}).reg(0, 9)).toBe(-32);
    expect(c('c.addi16sp', { imm: -64 }, { 2: 0x1000 }).reg(0, 2)).toBe(0x1000 - 64);
    expect(u(c('c.lui', { rd: 9, imm: -4096 }, {}).reg(0, 9))).toBe(0xfffff000);
    expect(u(c('c.srli', { rd: 8, imm: 4 }, { 8: 0x80000000 }).reg(0, 8))).toBe(0x08000000);
    expect(u(c('c.srai', { rd: 8, imm: 4 }, { 8: 0x80000000 }).reg(0, 8))).toBe(0xf8000000);
    expect(c('c.andi', { rd: 8, imm: -16 }, { 8: 0x1234 }).reg(0, 8)).toBe(0x1230);
    expect(c('c.sub', { rd: 8, rs2: 9 }, { 8: 5, 9: 7 }).reg(0, 8)).toBe(-2);
    expect(c('c.xor', { rd: 8, rs2: 9 }, { 8: 6, 9: 3 }).reg(0, 8)).toBe(5);
    expect(c('c.or', { rd: 8, rs2: 9 }, { 8: 6, 9: 3 }).reg(0, 8)).toBe(7);
    expect(c('c.and', { rd: 8, rs2: 9 }, { 8: 6, 9: 3 }).reg(0, 8)).toBe(2);
    expect(c('c.slli', { rd: 20, imm: 31 }, { 20: 1 }).reg(0, 20)).toBe(-0x80000000);
    expect(c('c.mv', { rd: 20, rs2: 21 }, { 21: 99 }).reg(0, 20)).toBe(99);
    expect(c('c.add', { rd: 20, rs2: 21 }, { 20: 1, 21: 99 }).reg(0, 20)).toBe(100);
    expect(c('c.nop', {}, {}).pc(0)).toBe(CODE + 2);
  });

  it('loads and stores', () => {
    m.write(DATA, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(c('c.lw', { rd: 8, rs1: 9, imm: 4 }, { 9: DATA }).reg(0, 8)).toBe(0x08070605);
    expect(c('c.lwsp', { rd: 20, imm: 4 }, { 2: DATA }).reg(0, 20)).toBe(0x08070605);
    c('c.sw', { rs1: 9, rs2: 8, imm: 0 }, { 9: DATA, 8: 0x0a0b0c0d });
    c('c.swsp', { rs2: 20, imm: 4 }, { 2: DATA, 20: 0x01020304 });
    expect([...m.read(DATA, 8)]).toEqual([0x0d, 0x0c, 0x0b, 0x0a, 4, 3, 2, 1]);
  });

  it('jumps and branches link past the 2-byte instruction', () => {
    expect(c('c.j', { imm: -2048 }, {}).pc(0)).toBe(CODE - 2048);
    c('c.jal', { imm: 2046 }, {});
    expect([m.pc(0), m.reg(0, 1)]).toEqual([CODE + 2046, CODE + 2]);
    c('c.jr', { rs1: 9 }, { 9: DATA + 1 });
    expect(m.pc(0)).toBe(DATA);
    c('c.jalr', { rs1: 9 }, { 9: DATA });
    expect([m.pc(0), m.reg(0, 1)]).toEqual([DATA, CODE + 2]);
    expect(c('c.beqz', { rs1: 8, imm: -256 }, { 8: 0 }).pc(0)).toBe(CODE - 256);
    expect(c('c.beqz', { rs1: 8, imm: -256 }, { 8: 1 }).pc(0)).toBe(CODE + 2);
    expect(c('c.bnez', { rs1: 8, imm: 254 }, { 8: 1 }).pc(0)).toBe(CODE + 254);
    expect(runWords(m, [encode('c.ebreak')])).toBe(2);
    expect(m.trap(0)).toMatchObject({ cause: 3, insn: 0x9002, disasm: 'c.ebreak' });
  });
});
