// Our objects linked by ld.lld-19: each test program with the bare runtime (crt0, sys.c, the
// tiny libc) is compiled to assembly by clang-19 (CORE-V), assembled once by us and once by
// clang-19, and both object sets are linked with the same command. The executables must load the
// same bytes, and ours must run on the simulator to the same output.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseElf } from '../elf';
import { runElf } from '../index';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { csmith, handWritten } from '../testing/differential';
import type { Program } from '../testing/differential';
import { CLANG, LIBC_DIR, RUNTIME_DIR, XCV_MARCH, readBytes, scratchDir } from '../testing/toolchain';
import { compareObjects } from './differential';
import { readElfObject } from './elf-read';
import { assembleToElf } from './index';
import { CLANG_19, CSMITH as CSMITH_NEED, LLD_19, missing } from '../../testing/requires';

const LLD = 'ld.lld-19';
const TARGET = ['--target=riscv32-unknown-elf', `-march=rv32imc${XCV_MARCH}`, '-mabi=ilp32'];
const CFLAGS = [...TARGET, '-O2', '-ffreestanding', '-fno-builtin', '-nostdlibinc', '-isystem', join(LIBC_DIR, 'include'), '-w', '-mno-relax'];

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

/** Assembly of a C or .S file, then its object from us and from clang-19. */
function objects(src: string, tag: string, includes: string[] = []): { ours: string; ref: string } {
  const dir = scratchDir();
  const stem = join(dir, `link-${tag}-${basename(src).replace(/\.\w+$/, '')}`);
  const s = `${stem}.s`;
  if (src.endsWith('.S')) run(CLANG, ['--target=riscv32-unknown-elf', '-E', '-x', 'assembler-with-cpp', src, '-o', s]);
  else run(CLANG, [...CFLAGS, ...includes.flatMap((i) => ['-I', i]), '-S', src, '-o', s]);
  run(CLANG, [...TARGET, '-mno-relax', '-c', s, '-o', `${stem}.clang.o`]);
  writeFileSync(`${stem}.ours.o`, assembleToElf(readFileSync(s, 'utf8'), { file: basename(s) }).elf);
  return { ours: `${stem}.ours.o`, ref: `${stem}.clang.o` };
}

function link(objs: string[], out: string): Uint8Array {
  run(LLD, ['-T', join(RUNTIME_DIR, 'link.ld'), '--no-relax', '-o', out, ...objs]);
  return readBytes(out);
}

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

/** Three csmith programs too: many globals, structs, unions and odd initialisers. */
const SEEDS = [1, 2, 3];

describe.skipIf(missing(CLANG_19, LLD_19, CSMITH_NEED))('our objects linked by ld.lld-19', () => {
  const programs: Program[] = [...handWritten(), ...SEEDS.map((seed) => csmith(seed))];
  it.each(programs.map((p) => [p.name, p] as const))('%s runs as clang-19\'s build does', (name, p) => {
    const srcs = [join(RUNTIME_DIR, 'crt0.S'), join(RUNTIME_DIR, 'sys.c'), join(LIBC_DIR, 'libc.c'), ...p.sources];
    const objs = srcs.map((s) => objects(s, name, p.includes));
    for (const o of objs) expect(compareObjects(readElfObject(readBytes(o.ours)), readElfObject(readBytes(o.ref))).differences, o.ours).toEqual([]);
    const dir = scratchDir();
    const ours = link(objs.map((o) => o.ours), join(dir, `link-${name}.ours.elf`));
    const ref = link(objs.map((o) => o.ref), join(dir, `link-${name}.clang.elf`));
    const a = parseElf(ours);
    const b = parseElf(ref);
    expect(a.entry).toBe(b.entry);
    expect(a.segments.map((s) => [s.vaddr, s.memsz, [...s.data]])).toEqual(b.segments.map((s) => [s.vaddr, s.memsz, [...s.data]]));
    const r = runElf(m, ours, { maxCycles: 4e9 });
    const q = runElf(m, ref, { maxCycles: 4e9 });
    expect(r.stopped).toBe('exit');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(q.stdout);
    expect(r.stdout.length).toBeGreaterThan(0);
  });
});
