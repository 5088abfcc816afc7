// The linker feature by feature, on small objects clang-19 makes from C and assembly snippets:
// each relocation type, ALIGN, merged strings, COMMON, weak symbols and the errors (undefined,
// duplicate, overflowing memories), checked byte for byte against ld.lld-19 with the runtime's
// link.ld wherever lld accepts the input; the layout against link.ld's text; the line table
// against llvm-addr2line; and a program linked by us running on the simulator.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_STACKS, SIRACUSA_MAP } from '../../compiler/platforms/siracusa-memory';
import { PlaygroundError } from '../../common/errors';
import { nodeMachine } from '../node';
import { runSiracusa } from '../siracusa';
import { HAL_DIR, LIBC_DIR, scratchDir, SIRACUSA_RT_DIR, XCV_MARCH } from '../testing/toolchain';
import { functionAt, lineAt, link, linkSiracusa, SIRACUSA_LAYOUT, sourceAt } from './index';
import { readElfObject } from '../asm/elf-read';
import { assemble, writeElf } from '../asm';
import { ADDR2LINE_19, CLANG_19, LLD_19, missing } from '../../testing/requires';

const tools = !missing(CLANG_19, LLD_19, ADDR2LINE_19);
const LINK_LD = join(SIRACUSA_RT_DIR, 'link.ld');

let n = 0;
/** Compiles a C (or, with `.s`/`.S` in `name`, assembly) snippet to an object; returns its path. */
function obj(name: string, src: string, flags: string[] = []): string {
  const dir = scratchDir(), id = `${n++}-${name}`;
  writeFileSync(join(dir, id), src);
  const out = join(dir, `${id}.o`);
  execFileSync('clang-19', ['--target=riscv32-unknown-elf', `-march=rv32imc${XCV_MARCH}`, '-mabi=ilp32', '-O2', '-ffreestanding', '-nostdlib',
    '-c', join(dir, id), '-o', out, ...flags], { stdio: 'pipe' });
  return out;
}
const read = (paths: string[]) => paths.map((p) => ({ name: p.replace(/.*\//, ''), bytes: new Uint8Array(readFileSync(p)) }));
const ours = (paths: string[]) => linkSiracusa(read(paths));
function lld(paths: string[]): Uint8Array {
  const out = join(scratchDir(), `lld-${n++}.elf`);
  execFileSync('ld.lld-19', ['-T', LINK_LD, '--no-relax', '-o', out, ...paths], { stdio: 'pipe' });
  return new Uint8Array(readFileSync(out));
}

/** Each non-empty loadable section of an executable: name, address and bytes (zeros for NOBITS). */
function loaded(elf: Uint8Array): Record<string, { addr: number; bytes: number[] }> {
  const dv = new DataView(elf.buffer, elf.byteOffset, elf.byteLength);
  const shoff = dv.getUint32(32, true), shnum = dv.getUint16(48, true), shstrndx = dv.getUint16(50, true);
  const sh = (i: number, f: number) => dv.getUint32(shoff + 40 * i + f, true);
  const name = (off: number) => { let e = sh(shstrndx, 16) + off, s = ''; while (elf[e]) s += String.fromCharCode(elf[e++]); return s; };
  const out: Record<string, { addr: number; bytes: number[] }> = {};
  for (let i = 1; i < shnum; i++) {
    if (!(sh(i, 8) & 2) || !sh(i, 20)) continue;
    const nobits = sh(i, 4) === 8;
    out[name(sh(i, 0))] = { addr: sh(i, 12), bytes: nobits ? new Array(sh(i, 20)).fill(0) : [...elf.subarray(sh(i, 16), sh(i, 16) + sh(i, 20))] };
  }
  return out;
}

/** Links with both linkers and expects the same loadable sections, byte for byte. */
function sameAsLld(paths: string[]) {
  const r = ours(paths);
  expect(loaded(r.elf)).toEqual(loaded(lld(paths)));
  return r;
}

function linkError(paths: string[]): string {
  try {
    ours(paths);
  } catch (e) {
    if (e instanceof PlaygroundError) return e.message;
    throw e;
  }
  throw new Error('the link succeeded');
}

const START = `.section .text.start,"ax"\n.globl _start\n_start:\n  call main\n1: j 1b\n`;
const start = () => obj('start.s', START);

describe('the layout', () => {
  const script = readFileSync(LINK_LD, 'utf8');
  it('has link.ld\'s memories and stacks, from siracusa-memory.ts', () => {
    for (const m of SIRACUSA_LAYOUT.memories) {
      const line = new RegExp(`^\\s*${m.name} \\(\\w+\\)\\s*: ORIGIN = 0x([0-9A-F]+), LENGTH = (\\d+)([KM])`, 'm').exec(script)!;
      expect(Number.parseInt(line[1], 16), m.name).toBe(m.base);
      expect(Number(line[2]) * (line[3] === 'K' ? 1024 : 1024 * 1024), m.name).toBe(m.bytes);
      expect(m.base).toBe(SIRACUSA_MAP[m.name].base);
    }
    expect(script).toContain(`__controller_stack_size = 0x${CORE_STACKS.controller.toString(16)};`);
    expect(script).toContain(`__worker_stack_size = 0x${CORE_STACKS.worker.toString(16)};`);
    expect(script).toContain(`__stacks_bottom = __worker_stacks_top - ${CORE_STACKS.workers} * __worker_stack_size;`);
  });
  it('has link.ld\'s output sections in its order, with their inputs, alignment and memory', () => {
    const sections = [...script.matchAll(/^\s*(\.\w+)( \(NOLOAD\))? :( ALIGN\((\d+)\))?\s*\{([^}]*)\}\s*> (\w+)/gm)];
    expect(sections.map((s) => s[1])).toEqual(SIRACUSA_LAYOUT.rules.map((r) => r.name));
    sections.forEach((s, i) => {
      const rule = SIRACUSA_LAYOUT.rules[i];
      expect(rule.memory).toBe(s[6]);
      expect(rule.align).toBe(s[4] ? Number(s[4]) : 1);
      expect(!!rule.nobits).toBe(!!s[2]);
      const groups = [...s[5].matchAll(/\*\(([^)]*)\)/g)].map((g) => g[1].split(/\s+/));
      expect(rule.groups).toEqual(groups);
      for (const sym of [rule.startSymbol, rule.endSymbol].filter(Boolean)) expect(s[5]).toContain(`${sym} = .`);
    });
  });
});

describe.skipIf(!tools)('linking small objects, against ld.lld-19', () => {
  it('places .text.start first, then code, rodata, data, bss, L1, weight memory and L3 data, with the script\'s symbols', () => {
    const c = obj('data.c', `
      int counter = 3; const int table[3] = {1, 2, 3}; int zeros[10];
      __attribute__((section(".l1"))) int fast[4] = {5};
      __attribute__((section(".wmem"))) const signed char weights[8] = {1, 2};
      __attribute__((section(".l3"))) int far[4] = {7};
      extern char __bss_start[], __bss_end[], __l1_start[], __l1_end[], __stacks_bottom[], __controller_stack_top[];
      void *syms[] = {__bss_start, __bss_end, __l1_start, __l1_end, __stacks_bottom, __controller_stack_top};
      int main(void) { return counter + table[1] + zeros[2] + fast[0] + weights[1] + far[0]; }`);
    const r = sameAsLld([start(), c]);
    expect(r.entry).toBe(SIRACUSA_MAP.L2.base);
    const at = (name: string) => r.sections.find((s) => s.name === name)!;
    expect(at('.l1').addr).toBe(SIRACUSA_MAP.L1.base);
    expect(at('.wmem').addr).toBe(SIRACUSA_MAP.WMEM.base);
    expect(at('.l3').addr).toBe(SIRACUSA_MAP.L3.base);
    expect(at('.rodata').addr % 8).toBe(0);
    expect(at('.bss').addr % 16).toBe(0);
    expect(r.symbols.find((s) => s.name === 'zeros')).toMatchObject({ size: 40, kind: 'object' });
    expect(r.symbols.find((s) => s.name === 'main')).toMatchObject({ kind: 'func' });
  });

  it('applies every relocation clang emits for code: HI20/LO12, PCREL, CALL, BRANCH, JAL, compressed, CORE-V branch immediates', () => {
    const a = obj('relocs.s', `
      .text
      .globl f
      f:
        lui a0, %hi(var)
        addi a0, a0, %lo(var)
        lw a1, %lo(var)(a0)
        sw a1, %lo(var+4)(a0)
      1: auipc a2, %pcrel_hi(var)
        addi a2, a2, %pcrel_lo(1b)
      2: auipc a3, %pcrel_hi(var)
        sw a1, %pcrel_lo(2b)(a3)
        call g
        tail g
        beq a0, a1, g
        cv.beqimm a0, 5, g
        cv.bneimm a0, -3, g
        jal g
        j g
        c.beqz a0, g2
        c.j g2
        c.jal g2
      g2:
        ret
      .data
      .globl var
      var: .word f, g, var + 8
        .word g - f
      `, ['-mrelax']);
    const b = obj('g.s', '.text\n.globl g\ng: ret\n.globl main\nmain: ret\n');
    sameAsLld([start(), a, b]);
    const types = new Set(readElfObject(readFileSync(a), 'a').sections.flatMap((s) => s.relocs.map((r) => r.type)));
    // BRANCH 16, JAL 17, CALL_PLT 19, PCREL_HI20 23, PCREL_LO12_I/S 24/25, HI20 26, LO12_I/S 27/28, RVC_BRANCH 44, RVC_JUMP 45, 32 1, ADD32/SUB32 35/39.
    for (const t of [1, 16, 17, 19, 23, 24, 25, 26, 27, 28, 35, 39, 44, 45]) expect(types, `relocation ${t}`).toContain(t);
  });

  it('honours R_RISCV_ALIGN without relaxing: the same bytes as ld.lld --no-relax', () => {
    const a = obj('align.s', `.text\n.globl h\nh: c.nop\n.p2align 4\nh2: ret\n.p2align 3\nh3: call g\n.p2align 5\nh4: ret\n`, ['-mrelax']);
    const b = obj('g.s', '.text\n.globl g\ng: ret\n.globl main\nmain: ret\n');
    const r = sameAsLld([start(), b, a]);
    for (const [name, align] of [['h2', 16], ['h3', 8], ['h4', 32]] as const) expect((r.symbols.find((s) => s.name === name)!.addr) % align, name).toBe(0);
  });

  it('relocates the debug sections (ADD/SUB, SET/SUB6, SET8, ULEB128) like lld', () => {
    const a = obj('dbg.s', `
      .text
      .globl main
      main: nop
      l1: nop
        .p2align 3
      l2: ret
      .section .debug_x,"",@progbits
        .byte l2 - main
        .half l2 - l1
        .word l2 - main
        .uleb128 l2 - l1
      .text
      .globl cfi
      cfi:
        .cfi_sections .debug_frame
        .cfi_startproc
        addi sp, sp, -16
        .cfi_def_cfa_offset 16
        nop
        .p2align 2
        addi sp, sp, 16
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
      `, ['-mrelax']);
    const types = new Set(readElfObject(readFileSync(a), 'a').sections.flatMap((s) => s.relocs.map((r) => r.type)));
    for (const t of [33, 37, 34, 38, 35, 39, 52, 53, 60, 61]) expect(types, `relocation ${t}`).toContain(t);
    const r = sameAsLld([start(), a]);
    void r;
    const ref = lld([start(), a]);
    const dbg = (elf: Uint8Array, sec: string) => {
      const f = join(scratchDir(), `dbg-${n++}.elf`);
      writeFileSync(f, elf);
      return execFileSync('llvm-objdump-19', ['-s', '-j', sec, f], { encoding: 'utf8' }).split('\n').slice(3).join('\n');
    };
    for (const sec of ['.debug_x', '.debug_frame']) expect(dbg(ours([start(), a]).elf, sec), sec).toBe(dbg(ref, sec));
  });

  it('deduplicates mergeable strings and constants across objects, in ld.lld\'s order (32 shards by XXH3)', () => {
    const strs = Array.from({ length: 40 }, (_, i) => `"string number ${i}${'x'.repeat(i * 7)}"`);
    const a = obj('s1.c', `const char *a(int i) { const char *t[] = {${strs.join(', ')}}; return t[i]; } const char *b(void) { return "shared"; }`);
    const b = obj('s2.c', `const char *c(int i) { return i ? "shared" : ${strs[3]}; } int main(void) { return 0; }`);
    const r = sameAsLld([start(), a, b]);
    const size = strs.reduce((n, q) => n + q.length - 1, 0) + 'shared\0'.length;
    expect(r.sections.find((s) => s.name === '.rodata')!.size).toBeGreaterThanOrEqual(size);
  });

  it('resolves weak and strong definitions, COMMON symbols and undefined weak references', () => {
    const a = obj('weak.c', '__attribute__((weak)) int which(void) { return 1; } extern int maybe(void) __attribute__((weak)); int common_x;\n' +
      'int main(void) { return which() + (maybe ? maybe() : 0) + common_x; }', ['-fcommon']);
    const b = obj('strong.c', 'int which(void) { return 2; } int common_x[4];', ['-fcommon']);
    const r = sameAsLld([start(), a, b]);
    const which = r.symbols.filter((s) => s.name === 'which');
    expect(which).toHaveLength(1);
    expect(r.symbols.find((s) => s.name === 'common_x')).toMatchObject({ size: 16 });
  });

  it('names the object and section of an undefined symbol, and both objects of a duplicate', () => {
    const a = obj('undef.c', 'extern int missing(void); int main(void) { return missing(); }');
    expect(linkError([start(), a])).toMatch(/^link: undefined symbol missing, referenced from \d+-undef\.c\.o \(\.text\+0x[0-9a-f]+\)/);
    const b = obj('dup1.c', 'int twice(void) { return 1; } int main(void) { return 0; }');
    const c = obj('dup2.c', 'int twice(void) { return 2; }');
    expect(linkError([start(), b, c])).toMatch(/duplicate symbol twice: defined in \d+-dup1\.c\.o and in \d+-dup2\.c\.o/);
  });

  it('refuses L1 data that reaches the core stacks, saying how many bytes are usable', () => {
    const a = obj('big-l1.c', '__attribute__((section(".l1"))) char big[245000] = {1}; int main(void) { return big[0]; }');
    const usable = SIRACUSA_MAP.L1.bytes - CORE_STACKS.controller - CORE_STACKS.workers * CORE_STACKS.worker;
    expect(linkError([start(), a])).toBe(`link: .l1: L1 data (245000 B) overlaps the core stacks: ${usable} B are usable (use less L1 (the buffers in .l1 sections))`);
    const b = obj('big-l2.c', 'char huge[3 << 20]; int main(void) { return huge[5]; }');
    expect(linkError([start(), b])).toMatch(/^link: \.bss: L2 overflows: code \d+ B, zeroed data 3145728 B end at 0x1c3[0-9a-f]+, \d+ B of its 2097152 B/);
  });

  it('names the relocation, place and symbol of a branch that cannot reach', () => {
    // cv.beqimm (CORE-V) takes R_RISCV_BRANCH, and clang cannot turn it into a longer jump as it does a beq.
    const a = obj('near.s', '.text\n.globl main\nmain: cv.beqimm a0, 3, far\nret\n');
    const b = obj('far.s', '.text\n.space 8192\n.globl far\nfar: ret\n');
    expect(linkError([start(), a, b])).toMatch(/^\d+-near\.s\.o: R_RISCV_BRANCH at \.text\+0x0 against far: the target is 819\d bytes away; R_RISCV_BRANCH reaches -4096\.\.4094$/);
  });

  it('refuses a section the layout has no place for, and objects that are not RV32 relocatable ELF', () => {
    const a = obj('odd.c', '__attribute__((section(".mystery"))) int x = 1; int main(void) { return x; }');
    expect(linkError([start(), a])).toMatch(/section \.mystery has no place in the memory layout/);
    expect(() => link([{ name: 'x.o', bytes: new Uint8Array([1, 2, 3]) }], SIRACUSA_LAYOUT)).toThrow(/not an ELF object/);
    expect(() => link([{ name: 'x.elf', bytes: lld([start(), obj('m.c', 'int main(void) { return 0; }')]) }], SIRACUSA_LAYOUT))
      .toThrow(/not a relocatable object/);
  });
});

describe.skipIf(!tools)('garbage collection of unused sections (gcSections)', () => {
  it('keeps what the entry reaches, drops the rest, and points the dropped code\'s debug info nowhere', () => {
    const used = obj('used.c', 'int used_data = 5; int helper(void) { return used_data; }', ['-gline-tables-only']);
    const unused = obj('unused.c', 'int unused_data[100] = {1}; int never(void) { return unused_data[3]; }', ['-gline-tables-only']);
    const main = obj('main.c', 'int helper(void);\nint main(void) {\n  return helper();\n}\n', ['-gline-tables-only']);
    const all = ours([start(), used, unused, main]), gc = linkSiracusa(read([start(), used, unused, main]), { gcSections: true });
    const names = (r: typeof gc) => r.symbols.map((x) => x.name);
    expect(names(all)).toContain('never');
    expect(names(gc)).not.toContain('never');
    expect(names(gc)).not.toContain('unused_data');
    expect(names(gc)).toEqual(expect.arrayContaining(['main', 'helper', 'used_data', '_start']));
    expect(gc.sections.find((x) => x.name === '.data')!.size).toBe(4);
    // No line rows for the collected function; main's still there.
    expect(gc.lines.rows.every((r) => r.addr !== 0)).toBe(true);
    expect(sourceAt(gc, gc.symbols.find((x) => x.name === 'main')!.addr).line).toMatch(/main\.c:[23]$/);
  });
});

describe.skipIf(!tools)('line table, symbols and a run on the simulator', () => {
  const flags = ['-gline-tables-only', '-fno-builtin', '-isystem', join(LIBC_DIR, 'include'), '-nostdlibinc', '-I', HAL_DIR, '-I', SIRACUSA_RT_DIR];
  const programWith = (dwarf: string) => [
    obj('crt0.S', readFileSync(join(SIRACUSA_RT_DIR, 'crt0.S'), 'utf8'), ['-I', SIRACUSA_RT_DIR]),
    obj('libc.c', readFileSync(join(LIBC_DIR, 'libc.c'), 'utf8'), [...flags, dwarf]),
    obj('hal_siracusa.c', readFileSync(join(HAL_DIR, 'hal_siracusa.c'), 'utf8'), [...flags, dwarf]),
    obj('hello.c', '#include <stdio.h>\nstatic int sq(int x) { return x * x; }\nint main(void) {\n  printf("hello %d\\n", sq(7));\n  return 0;\n}\n', [...flags, dwarf]),
  ];
  const program = () => [
    obj('crt0.S', readFileSync(join(SIRACUSA_RT_DIR, 'crt0.S'), 'utf8'), ['-I', SIRACUSA_RT_DIR]),
    obj('hal_siracusa.c', readFileSync(join(HAL_DIR, 'hal_siracusa.c'), 'utf8'), flags),
    obj('libc.c', readFileSync(join(LIBC_DIR, 'libc.c'), 'utf8'), flags),
    obj('hello.c', '#include <stdio.h>\nstatic int sq(int x) { return x * x; }\nint main(void) {\n  printf("hello %d\\n", sq(7));\n  return 0;\n}\n', flags),
  ];

  it('runs a program linked by us on the cluster, with the same cycles as lld\'s build', async () => {
    const objs = program();
    const r = ours(objs), ref = lld(objs);
    const m = await nodeMachine();
    const a = runSiracusa(m, r.elf, { maxCycles: 1e7 }), b = runSiracusa(m, ref, { maxCycles: 1e7 });
    expect(a.stdout).toBe('hello 49\n');
    expect(a.exitCode).toBe(0);
    expect(a.cycles).toBe(b.cycles);
  });

  it.each(['-gdwarf-5', '-gdwarf-4'])('maps every pc to the line llvm-addr2line-19 gives, and names the function (%s)', (dwarf) => {
    const r = ours(programWith(dwarf));
    const elf = join(scratchDir(), 'lines.elf');
    writeFileSync(elf, r.elf);
    const text = r.sections.find((s) => s.name === '.text')!;
    const pcs = Array.from({ length: text.size / 2 }, (_, i) => text.addr + 2 * i).filter((_, i) => i % 3 === 0);
    const out = execFileSync('llvm-addr2line-19', ['-e', elf, ...pcs.map((p) => `0x${p.toString(16)}`)], { encoding: 'utf8' }).trim().split('\n');
    pcs.forEach((pc, i) => {
      const ref = out[i].replace(/ \(discriminator \d+\)$/, '');
      const l = lineAt(r.lines, pc);
      expect(l ? `${l.file}:${l.line}` : '??:0', `pc 0x${pc.toString(16)}`).toBe(ref.startsWith('??') || ref.endsWith(':0') ? '??:0' : ref);
    });
    const main = r.symbols.find((s) => s.name === 'main')!;
    expect(functionAt(r.symbols, main.addr + 2)?.name).toBe('main');
    expect(sourceAt(r, main.addr).line).toMatch(/^\d+-hello\.c:[34]$/);
  });
});

// Our compiler hands the linker the assembler's objects directly: no ELF in between, and the line
// table from the objects' `.loc` rows (our assembler writes no .debug_line).
describe('AsmObject input', () => {
  const prog = `
    .file 1 "prog.c"
    .section .text.start,"ax"
    .globl _start
    _start:
    .loc 1 3 0
      call main
    1: j 1b
    .text
    .globl main
    .type main,@function
    main:
    .loc 1 10 2
      li a0, 7
    .loc 1 11 5
      la a1, value
      lw a1, 0(a1)
    .loc 1 12 1
      ret
    .size main, .-main
    .data
    .globl value
    value: .word main
  `;

  it('links an AsmObject as it links the same object written as ELF', () => {
    const object = assemble(prog, { file: 'prog.s' });
    const direct = linkSiracusa([{ name: 'prog.o', object }]);
    const viaElf = linkSiracusa([{ name: 'prog.o', bytes: writeElf(object) }]);
    expect(direct.elf).toEqual(viaElf.elf);
    expect(direct.symbols).toEqual(viaElf.symbols);
  });

  it('maps pcs to the .loc lines, section by section, and names the function', () => {
    const r = linkSiracusa([{ name: 'prog.o', object: assemble(prog, { file: 'prog.s' }) }]);
    const main = r.symbols.find((s) => s.name === 'main')!;
    const start = r.symbols.find((s) => s.name === '_start')!;
    expect(lineAt(r.lines, start.addr)).toEqual({ file: 'prog.c', line: 3 });
    expect(lineAt(r.lines, main.addr)).toEqual({ file: 'prog.c', line: 10 });
    // la is auipc + addi (8 bytes) after li (2 bytes, compressed): the lw is at +10.
    expect(lineAt(r.lines, main.addr + 2)).toEqual({ file: 'prog.c', line: 11 });
    expect(lineAt(r.lines, main.addr + main.size - 2)).toEqual({ file: 'prog.c', line: 12 });
    expect(lineAt(r.lines, main.addr + main.size)).toBeUndefined();
    expect(sourceAt(r, main.addr + 2)).toEqual({ fn: 'main', line: 'prog.c:11' });
  });

  it('refuses a relocation against a symbol the object does not have', () => {
    const object = assemble(prog, { file: 'prog.s' });
    object.sections.find((s) => s.name === '.data')!.relocs[0].symbol = 'nowhere';
    expect(() => linkSiracusa([{ name: 'prog.o', object }])).toThrow(/prog\.o: a relocation in \.data at 0x0 names nowhere, which is not in the symbol table/);
  });
});
