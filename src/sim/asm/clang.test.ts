// Differential test against clang-19's integrated assembler: every kernel library and runtime C
// file is compiled to assembly by clang-19, then assembled by clang-19 (-c -mno-relax) and by us;
// sections must agree byte for byte and relocations by type, offset, symbol and addend. Twice:
// with the brief's flags, and with the flags the project builds with (src/sim/run/simulate.ts:
// line tables, no jump tables, 4-byte function alignment), where our line table must also give
// the rows of clang's .debug_line. crt0.S is assembled after clang-19 -E.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { loadFolder, planAndGenerate } from '../../testing/tiled-harness';
import { codegenTestFolders } from '../../testing/test-folders';
import { CLANG, HAL_DIR, LIBC_DIR, SIRACUSA_RT_DIR, XCV_MARCH, readBytes, scratchDir } from '../testing/toolchain';
import { assembleToElf } from './index';
import type { AsmObject } from './index';
import { compareObjects } from './differential';
import { readElfObject } from './elf-read';
import { CLANG_19, DWARFDUMP_19, missing } from '../../testing/requires';

const KERNELS_DIR = join(HAL_DIR, '..', 'kernels');
const SOURCES = [
  ...readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.c')).sort().map((f) => join(KERNELS_DIR, f)),
  join(HAL_DIR, 'hal_siracusa.c'),
  join(LIBC_DIR, 'libc.c'),
];
const TARGET = ['--target=riscv32-unknown-elf', `-march=rv32imc${XCV_MARCH}`, '-mabi=ilp32'];
const INCLUDES = ['-nostdlibinc', '-isystem', join(LIBC_DIR, 'include'), '-I', HAL_DIR, '-I', SIRACUSA_RT_DIR, '-I', KERNELS_DIR];
/** The brief's flags. */
const BRIEF = [...TARGET, '-O2', '-ffreestanding', '-fno-pic', '-mno-relax', '-DDPG_XPULP'];
/** What `dpg run --cc clang` adds (SIRACUSA_FLAGS): line tables, no jump tables, aligned functions. */
const PROJECT = [...BRIEF, '-gline-tables-only', '-fno-jump-tables', '-falign-functions=4'];
/** Sections clang's assembler makes from what we keep as data (.loc -> .debug_line, .cfi_* -> .debug_frame). */
const GENERATED = /^(\.llvm_addrsig|\.comment|\.note\.GNU-stack|\.debug_line|\.debug_line_str|\.debug_frame)$/;

function clang(args: string[]): void {
  const r = spawnSync(CLANG, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${CLANG} ${args.join(' ')}: ${r.stderr}`);
}

/** Assembles `s` with clang-19 and with us; returns both objects. */
function both(name: string): { ours: AsmObject; ref: AsmObject; elf: Uint8Array } {
  const dir = scratchDir();
  const src = join(dir, `${name}.s`);
  const obj = join(dir, `${name}.o`);
  clang([...TARGET, '-mno-relax', '-c', src, '-o', obj]);
  const { elf } = assembleToElf(readFileSync(src, 'utf8'), { file: basename(src) });
  return { ours: readElfObject(elf), ref: readElfObject(readBytes(obj)), elf };
}

function compile(c: string, flags: string[], tag: string): string {
  const name = `${basename(c, '.c')}-${tag}`;
  clang([...flags, ...INCLUDES, '-S', c, '-o', join(scratchDir(), `${name}.s`)]);
  return name;
}

/** clang's line table rows (address, line, column) of a .text section, from llvm-dwarfdump-19. */
function clangLines(obj: string): string[] {
  const r = spawnSync('llvm-dwarfdump-19', ['--debug-line', obj], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return r.stdout.split('\n').filter((l) => /^0x[0-9a-f]+\s+\d+\s+\d+\s+\d+/.test(l) && !l.includes('end_sequence'))
    .map((l) => { const [a, line, col] = l.trim().split(/\s+/); return `${parseInt(a, 16)} ${line}:${col}`; });
}

const totals = { files: 0, bytes: 0, relocs: 0, differences: 0 };

describe.skipIf(missing(CLANG_19))('differential: our assembler vs clang-19 on the kernel library and runtime', () => {
  for (const [tag, flags] of [['brief', BRIEF], ['project', PROJECT]] as const) {
    for (const c of SOURCES) {
      it(`${basename(c)} (${tag} flags)`, () => {
        const name = compile(c, flags, tag);
        const { ours, ref } = both(name);
        const cmp = compareObjects(ours, ref, GENERATED);
        totals.files++;
        totals.bytes += cmp.bytes;
        totals.relocs += cmp.relocs;
        totals.differences += cmp.differences.length;
        expect(cmp.differences).toEqual([]);
        expect(cmp.bytes).toBeGreaterThan(0);
        if (tag === 'project' && !missing(DWARFDUMP_19)) {
          const text = ours.sections.findIndex((s) => s.name === '.text');
          const mine = assembleToElf(readFileSync(join(scratchDir(), `${name}.s`), 'utf8')).object.lines
            .filter((l) => l.section === text).map((l) => `${l.offset} ${l.line}:${l.column}`);
          expect(mine).toEqual(clangLines(join(scratchDir(), `${name}.o`)));
        }
      });
    }
  }

  it('the generated program of mini-mobilenetv2 (Siracusa, 8 cores, tiled at L1 64000)', async () => {
    const folder = codegenTestFolders().find((f) => f.name === 'models/mini-mobilenetv2')!;
    const config = { ...DEFAULT_CONFIG, platform: 'siracusa' as const };
    const { code } = await planAndGenerate(loadFolder(folder.dir, config), { platform: 'siracusa', cores: 8, tiled: true, l1: 64000 });
    const out = join(scratchDir(), 'mnv2');
    mkdirSync(out, { recursive: true });
    for (const f of code.files) writeFileSync(join(out, f.path), f.content);
    const cs = code.files.filter((f) => f.path.endsWith('.c')).map((f) => join(out, f.path));
    expect(cs.length).toBeGreaterThan(1);
    for (const c of cs) {
      const name = compile(c, [...PROJECT, '-I', out], 'mnv2');
      const { ours, ref } = both(name);
      const cmp = compareObjects(ours, ref, GENERATED);
      totals.files++;
      totals.bytes += cmp.bytes;
      totals.relocs += cmp.relocs;
      totals.differences += cmp.differences.length;
      expect(cmp.differences, c).toEqual([]);
    }
  });

  it('crt0.S (after clang-19 -E)', () => {
    const out = join(scratchDir(), 'crt0.s');
    clang(['--target=riscv32-unknown-elf', '-E', '-x', 'assembler-with-cpp', '-I', SIRACUSA_RT_DIR, join(SIRACUSA_RT_DIR, 'crt0.S'), '-o', out]);
    const { ours, ref } = both('crt0');
    const cmp = compareObjects(ours, ref, GENERATED);
    totals.files++;
    totals.bytes += cmp.bytes;
    totals.differences += cmp.differences.length;
    expect(cmp.differences).toEqual([]);
    expect(ours.sections.find((s) => s.name === '.text.start')?.size).toBeGreaterThan(40);
  });

  it('reports the totals', () => {
    console.log(`clang-19 differential: ${totals.files} objects, ${totals.bytes} bytes and ${totals.relocs} relocations compared, ${totals.differences} differences`);
    expect(totals.differences).toBe(0);
  });
});
