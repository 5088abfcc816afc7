// The assembler feature by feature: pseudo-instructions, compression, labels, directives,
// sections, relocations, branch relaxation, the line table, the ELF layer and diagnostics.
import { describe, expect, it } from 'vitest';
import { disassembleBytes } from '../disasm';
import { assemble, assembleToElf, AsmError, R_RISCV, RELOC_NAMES, SHF, SHT } from './index';
import type { AsmObject } from './index';
import { readElfObject } from './elf-read';

const A = (src: string, rvc = true) => assemble(src, { rvc, arch: '' });
const sec = (o: AsmObject, name: string) => o.sections.find((s) => s.name === name)!;
const text = (o: AsmObject, name = '.text') => disassembleBytes(sec(o, name).data).map((d) => d.text);
const relocs = (o: AsmObject, name = '.text') =>
  sec(o, name).relocs.map((r) => `${r.offset} ${RELOC_NAMES[r.type]} ${r.symbol}${r.addend ? `+${r.addend}` : ''}`);
const err = (src: string): AsmError => {
  try { A(src); } catch (e) { if (e instanceof AsmError) return e; throw e; }
  throw new Error('no error');
};

describe('pseudo-instructions', () => {
  it('expands the common ones as LLVM does', () => {
    const o = A(`
      nop
      mv a0, a1
      not a0, a1
      neg a0, a1
      seqz a0, a1
      snez a0, a1
      sltz a0, a1
      sgtz a0, a1
      zext.b a0, a1
      sext.b a0, a1
      zext.h a0, a1
      jr a0
      jalr a0
      ret
      csrr t0, mhartid
      csrw mscratch, a0
      csrwi mscratch, 3
    `, false);
    expect(text(o)).toEqual([
      'addi zero, zero, 0', 'addi a0, a1, 0', 'xori a0, a1, -1', 'sub a0, zero, a1', 'sltiu a0, a1, 1',
      'sltu a0, zero, a1', 'slt a0, a1, zero', 'slt a0, zero, a1', 'andi a0, a1, 255', 'slli a0, a1, 24', 'srai a0, a0, 24',
      'slli a0, a1, 16', 'srli a0, a0, 16', 'jalr zero, 0(a0)', 'jalr ra, 0(a0)', 'jalr zero, 0(ra)',
      'csrrs t0, mhartid, zero', 'csrrw zero, mscratch, a0', 'csrrwi zero, mscratch, 3',
    ]);
  });

  it('loads immediates with LLVM sequences (lui/addi, c.li + c.slli)', () => {
    const o = A('li a0, 0x12345678\nli a0, 0x800\nli a0, -2048\nli a0, 0xfffff000\nli a0, 0x7ffff800\nli a0, 5');
    expect(text(o)).toEqual(['lui a0, 74565', 'addi a0, a0, 1656', 'c.li a0, 1', 'c.slli a0, 11', 'addi a0, zero, -2048',
      'c.lui a0, 1048575', 'lui a0, 524288', 'addi a0, a0, -2048', 'c.li a0, 5']);
  });

  it('turns branch aliases into base branches', () => {
    const o = A('1:\nbeqz a0, 1b\nbnez t0, 1b\nblez a0, 1b\nbgez a0, 1b\nbltz a0, 1b\nbgtz a0, 1b\nbgt a0, a1, 1b\nble a0, a1, 1b\nbgtu a0, a1, 1b\nbleu a0, a1, 1b', false);
    expect(text(o).map((t) => t.replace(/, 0x[0-9a-f]+$/, ''))).toEqual([
      'beq a0, zero', 'bne t0, zero', 'bge zero, a0', 'bge a0, zero', 'blt a0, zero', 'blt zero, a0',
      'blt a1, a0', 'bge a1, a0', 'bltu a1, a0', 'bgeu a1, a0']);
  });

  it('writes la / lla / lw sym / sw sym as pc-relative pairs', () => {
    const o = A('la a0, ext\nlla a1, ext+8\nlw a2, ext\nsw a2, ext, t0');
    expect(relocs(o)).toEqual(['0 R_RISCV_PCREL_HI20 ext', '4 R_RISCV_PCREL_LO12_I .Lpcrel_hi0', '8 R_RISCV_PCREL_HI20 ext+8',
      '12 R_RISCV_PCREL_LO12_I .Lpcrel_hi1', '16 R_RISCV_PCREL_HI20 ext', '20 R_RISCV_PCREL_LO12_I .Lpcrel_hi2',
      '24 R_RISCV_PCREL_HI20 ext', '28 R_RISCV_PCREL_LO12_S .Lpcrel_hi3']);
    expect(text(o)[6]).toBe('auipc t0, 0');
    expect(o.symbols.find((s) => s.name === '.Lpcrel_hi1')).toMatchObject({ section: 0, value: 8, binding: 'local' });
  });

  it('calls and tails through R_RISCV_CALL_PLT, resolving local functions of the section', () => {
    const o = A('f:\ncall ext\ntail ext\ncall f\n.globl f');
    expect(relocs(o)).toEqual(['0 R_RISCV_CALL_PLT ext', '8 R_RISCV_CALL_PLT ext', '16 R_RISCV_CALL_PLT f']);
    const p = A('f:\nnop\ncall f');
    expect(relocs(p)).toEqual([]);
    expect(text(p).slice(1)).toEqual(['auipc ra, 0', 'jalr ra, -2(ra)']);
  });

  it('takes explicit %pcrel_hi / %pcrel_lo pairs', () => {
    const o = A('.Lx: auipc a0, %pcrel_hi(sym+4)\naddi a1, a0, %pcrel_lo(.Lx)\nlw a2, %pcrel_lo(.Lx)(a0)\nsw a2, %pcrel_lo(.Lx)(a0)');
    expect(relocs(o)).toEqual(['0 R_RISCV_PCREL_HI20 sym+4', '4 R_RISCV_PCREL_LO12_I .Lx', '8 R_RISCV_PCREL_LO12_I .Lx', '12 R_RISCV_PCREL_LO12_S .Lx']);
    expect(err('addi a0, a0, %hi(x)').message).toMatch(/%hi does not fit addi's \{imm\} operand/);
  });

  it('accepts the LLVM 19 spellings cv.slet / cv.sletu', () => {
    expect(text(A('cv.slet a0, a1, a2\ncv.sletu a0, a1, a2'))).toEqual(['cv.sle a0, a1, a2', 'cv.sleu a0, a1, a2']);
  });
});

describe('compression', () => {
  it('compresses where LLVM does, and not under .option norvc', () => {
    const o = A('addi a0, a0, 1\n.option push\n.option norvc\naddi a0, a0, 1\n.option pop\naddi a0, a0, 1\nlw a0, 4(sp)\nadd a0, a1, a0\naddi sp, sp, -16');
    expect(text(o)).toEqual(['c.addi a0, 1', 'addi a0, a0, 1', 'c.addi a0, 1', 'c.lwsp a0, 4(sp)', 'c.add a0, a1', 'c.addi sp, -16']);
  });
  it('keeps hints and symbolic operands uncompressed', () => {
    const o = A('slli a0, a0, 0\naddi a0, a0, 0\nlui a0, %hi(x)\naddi a0, a0, %lo(x)');
    expect(text(o)).toEqual(['slli a0, a0, 0', 'c.mv a0, a0', 'lui a0, 0', 'addi a0, a0, 0']);
    expect(relocs(o)).toEqual(['6 R_RISCV_HI20 x', '10 R_RISCV_LO12_I x']);
  });
});

describe('labels and branches', () => {
  it('resolves local numeric labels 1f / 1b', () => {
    const o = A('1:\nj 1f\nnop\n1:\nj 1b\n2: j 2b');
    expect(text(o)).toEqual(['c.j 0x4', 'c.nop', 'c.j 0x4', 'c.j 0x6']);
  });
  it('grows branches that do not reach: c.beqz -> beq -> inverted branch over jal', () => {
    const far = (n: number) => `beqz a0, .Lt\n.zero ${n}\n.Lt: nop`;
    expect(text(A(far(10)))[0]).toBe('c.beqz a0, 0xc');
    expect(disassembleBytes(sec(A(far(1000)), '.text').data.slice(0, 4))[0].text).toBe('beq a0, zero, 0x3ec');
    const long = disassembleBytes(sec(A(far(5000)), '.text').data.slice(0, 6)).map((d) => d.text);
    expect(long).toEqual(['c.bnez a0, 0x6', 'jal zero, 0x138e']);
  });
  it('relocates branches to global, weak or undefined symbols', () => {
    const o = A('.globl g\ng: nop\nbeqz a0, g\nj g\njal ext\ncv.beqimm a0, 3, ext\nc.j ext\nc.beqz a0, ext');
    expect(relocs(o)).toEqual(['4 R_RISCV_JAL g', '8 R_RISCV_JAL g', '12 R_RISCV_JAL ext', '16 R_RISCV_BRANCH ext',
      '20 R_RISCV_RVC_JUMP ext', '22 R_RISCV_RVC_BRANCH ext']);
    expect(text(o)[1]).toBe('c.bnez a0, 0x8');
  });
  it('takes labels for hardware loop bounds', () => {
    const o = A('cv.setupi 0, 10, .Lend\naddi a0, a0, 1\nadd a1, a1, a0\n.Lend:\ncv.starti 1, .Ls\n.Ls: cv.endi 1, .Le\nnop\n.Le:', false);
    expect(text(o)).toEqual(['cv.setupi 0, 10, 3', 'addi a0, a0, 1', 'add a1, a1, a0', 'cv.starti 1, 1', 'cv.endi 1, 2', 'addi zero, zero, 0']);
  });
});

describe('data, sections and symbols', () => {
  it('emits data directives and strings', () => {
    const o = A('.data\n.byte 1, -1\n.half 0x1234\n.short 2\n.word 0x01020304\n.long -1\n.quad 0x100000000\n.ascii "a\\n"\n.asciz "b\\x41\\101"\n.string "c"\n.zero 2\n.space 1, 7');
    expect([...sec(o, '.data').data]).toEqual([1, 255, 0x34, 0x12, 2, 0, 4, 3, 2, 1, 255, 255, 255, 255, 0, 0, 0, 0, 1, 0, 0, 0,
      97, 10, 98, 65, 65, 0, 99, 0, 0, 0, 7]);
  });
  it('writes 64-bit literals exactly', () => {
    const o = A('.data\n.quad -1016645171329766240\n.quad 0xf1e4269a6445eca0\n.quad 010');
    const d = [...sec(o, '.data').data];
    expect(d.slice(0, 8)).toEqual([0xa0, 0xec, 0x45, 0x64, 0x9a, 0x26, 0xe4, 0xf1]);
    expect(d.slice(8, 16)).toEqual(d.slice(0, 8));
    expect(d[16]).toBe(8);
  });
  it('aligns with zeros in data and nops in code', () => {
    const o = A('.data\n.byte 1\n.p2align 2\n.byte 2\n.balign 8\n.byte 3\n.text\nc.nop\n.p2align 3\nnop');
    expect([...sec(o, '.data').data]).toEqual([1, 0, 0, 0, 2, 0, 0, 0, 3]);
    expect(sec(o, '.data').align).toBe(8);
    expect(text(o)).toEqual(['c.nop', 'c.nop', 'addi zero, zero, 0', 'c.nop']);
  });
  it('opens sections with flags, types and custom names', () => {
    const o = A('.section .l1,"aw",@progbits\n.word 1\n.section .wmem,"a",@progbits\n.byte 2\n.section .text.start,"ax"\nnop\n.section .sbss,"aw",@nobits\n.zero 8\n.section .rodata.str1.1,"aMS",@progbits,1\n.asciz "x"\n.bss\n.zero 4\n');
    expect(sec(o, '.l1')).toMatchObject({ type: SHT.PROGBITS, flags: SHF.ALLOC | SHF.WRITE, size: 4 });
    expect(sec(o, '.wmem').flags).toBe(SHF.ALLOC);
    expect(sec(o, '.text.start').flags).toBe(SHF.ALLOC | SHF.EXECINSTR);
    expect(sec(o, '.sbss')).toMatchObject({ type: SHT.NOBITS, size: 8 });
    expect(sec(o, '.rodata.str1.1')).toMatchObject({ flags: SHF.ALLOC | SHF.MERGE | SHF.STRINGS, entsize: 1 });
    expect(sec(o, '.bss')).toMatchObject({ type: SHT.NOBITS, size: 4 });
  });
  it('keeps symbol bindings, types and sizes; .set; .comm / .lcomm', () => {
    const o = A(`
      .globl f
      .type f,@function
    f: nop
      ret
    .Lend:
      .size f, .Lend-f
      .weak w
      .local l
      .set K, 3*4
      .equ K2, K+1
      .data
    l: .word K2, f, .Lend - f, ext+4
      .comm c, 16, 8
      .lcomm lc, 12, 4
    `);
    const s = (n: string) => o.symbols.find((x) => x.name === n);
    expect(s('f')).toMatchObject({ binding: 'global', type: 'func', size: 4, section: 0, value: 0 });
    expect(s('l')).toMatchObject({ binding: 'local' });
    expect(s('c')).toMatchObject({ section: 'common', size: 16, value: 8, binding: 'global' });
    expect(s('lc')).toMatchObject({ binding: 'local', size: 12 });
    expect(s('w')).toMatchObject({ binding: 'weak', section: -1 });
    expect([...sec(o, '.data').data.slice(0, 4)]).toEqual([13, 0, 0, 0]);
    expect([...sec(o, '.data').data.slice(8, 12)]).toEqual([4, 0, 0, 0]);
    expect(relocs(o, '.data')).toEqual(['4 R_RISCV_32 f', '12 R_RISCV_32 ext+4']);
  });
  it('uses %hi / %lo on constants directly and as relocations on symbols', () => {
    const o = A('lui a0, %hi(0x12345fff)\naddi a0, a0, %lo(0x12345fff)\nsw a0, %lo(sym)(a0)\nlui a1, %hi(sym+4)', false);
    expect(text(o)).toEqual(['lui a0, 74566', 'addi a0, a0, -1', 'sw a0, 0(a0)', 'lui a1, 0']);
    expect(relocs(o)).toEqual(['8 R_RISCV_LO12_S sym', '12 R_RISCV_HI20 sym+4']);
  });
  it('accepts and ignores .cfi_*, .ident, .addrsig, .file; .attribute fills .riscv.attributes', () => {
    const o = assemble('.file "x.c"\n.attribute 4, 16\n.attribute 5, "rv32i2p1"\n.cfi_startproc\nnop\n.cfi_endproc\n.ident "x"\n.addrsig\n.addrsig_sym f', {});
    expect(o.sourceFile).toBe('x.c');
    const attr = sec(o, '.riscv.attributes');
    expect(attr.type).toBe(SHT.RISCV_ATTRIBUTES);
    expect(new TextDecoder().decode(attr.data)).toContain('riscv');
    expect([...attr.data.slice(-12)]).toEqual([5, ...new TextEncoder().encode('rv32i2p1'), 0, 4, 16]);
  });
});

describe('line table', () => {
  it('maps instruction offsets to file:line:column from .loc', () => {
    const o = A('.file 0 "/dir" "k.c" md5 0x00112233445566778899aabbccddeeff\n.file 1 "h.h"\n.loc 0 3 5\naddi a0, a0, 1\n.loc 1 7 2 prologue_end\nlui a0, 1\n.loc 0 4 0 is_stmt 0\ncall f');
    expect(o.lines).toEqual([
      { section: 0, offset: 0, file: 'k.c', line: 3, column: 5 },
      { section: 0, offset: 2, file: 'h.h', line: 7, column: 2 },
      { section: 0, offset: 4, file: 'k.c', line: 4, column: 0 },
    ]);
  });
});

describe('ELF', () => {
  it('writes an object that reads back to the same model', () => {
    const { object, elf } = assembleToElf('.globl f\nf: call g\nla a0, d\n.data\nd: .word f\n.bss\n.zero 8');
    const back = readElfObject(elf);
    for (const s of object.sections) {
      const b = back.sections.find((x) => x.name === s.name)!;
      expect({ ...b, data: [...b.data] }).toEqual({ ...s, data: [...s.data] });
    }
    expect(back.symbols.map((s) => s.name).sort()).toEqual(object.symbols.map((s) => s.name).sort());
    expect(elf[18]).toBe(243);
    expect(R_RISCV.CALL_PLT).toBe(19);
  });
});

describe('diagnostics', () => {
  it('names an unknown mnemonic with file:line:col', () => {
    const e = err('nop\n  frob a0, a1');
    expect(e.message).toBe("input.s:2:3: unknown mnemonic 'frob'");
  });
  it('gives the range of an operand out of range', () => {
    expect(err('addi a0, a0, 5000').message).toMatch(/^input\.s:1:14: addi: operand out of range: .* \[-2048, 2047\], not 5000$/);
    expect(err('c.lwsp a0, 3(sp)').message).toMatch(/a multiple of 4 in \[0, 252\]/);
    expect(err('cv.beqimm a0, 1, .Lfar\n.zero 5000\n.Lfar:').message).toMatch(/^input.s:1:18: operand out of range: cv.beqimm to .Lfar needs a multiple of 2 in \[-4096, 4094\], not 5004$/);
  });
  it('reports undefined local labels', () => {
    expect(err('j 1f').message).toBe("input.s:1:1: undefined local label '1f' (no '1:' after it)");
    expect(err('j 1b').message).toMatch(/undefined local label '1b'/);
    expect(err('nop\nj .Lnowhere').message).toBe("input.s:2:3: undefined local label '.Lnowhere'");
  });
  it('names wrong operands and unknown directives', () => {
    expect(err('add a0, a1').message).toMatch(/add takes 3 operands/);
    expect(err('add a0, a1, 5').message).toMatch(/expected a register/);
    expect(err('.frob 1').message).toBe("input.s:1:1: unknown directive '.frob'");
    expect(err('li a0, sym').message).toMatch(/li needs a constant/);
  });
  it('follows preprocessor line markers', () => {
    expect(err('# 40 "crt0.S"\nnop\nbad a0').message).toBe("crt0.S:41:1: unknown mnemonic 'bad'");
  });
});

describe('robustness', () => {
  it('answers mutated sources with an AsmError, never another exception', () => {
    const base = `
      .text
      .globl f
      .p2align 2
      .type f,@function
    f:
      addi sp, sp, -16
      sw ra, 12(sp)
      la a0, .Lstr
      lui a1, %hi(tab)
      lw a1, %lo(tab)(a1)
    1:
      cv.lbu a2, (a0), 1
      cv.beqimm a2, 0, 2f
      bnez a2, 1b
    2:
      call g
      li a0, 0x12345
      lw ra, 12(sp)
      addi sp, sp, 16
      ret
    .Lend:
      .size f, .Lend-f
      .section .rodata.str1.1,"aMS",@progbits,1
    .Lstr:
      .asciz "hi\\n"
      .data
    tab:
      .word f, .Lstr+1, 7
      .uleb128 .Lend-f
    `.split('\n');
    const junk = ['', ',', '(', ')', '%lo(', '1f', '1b', '.', '0x', '"', 'a0', 'zero', '99999999999', '-', '%hi(x)', ':', '.L', 'sp)', '\\'];
    let seed = 7;
    const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
    const others: string[] = [];
    for (let t = 0; t < 1500; t++) {
      const ls = [...base];
      for (let k = 0; k < 2; k++) {
        const i = rand(ls.length);
        const l = ls[i];
        const p = rand(l.length + 1);
        const r = rand(4);
        ls[i] = r === 0 ? l.slice(0, p) + junk[rand(junk.length)] + l.slice(p) : r === 1 ? l.slice(0, p) + l.slice(p + 1 + rand(5)) : r === 2 ? ls[rand(ls.length)] : l.slice(0, p);
      }
      try { assemble(ls.join('\n')); } catch (e) { if (!(e instanceof AsmError)) others.push(`${(e as Error).message}\n${ls.join('\n')}`); }
    }
    expect(others.slice(0, 3)).toEqual([]);
  });
});
