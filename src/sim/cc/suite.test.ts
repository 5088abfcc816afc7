// The C test suite (testdata/suite: one file per feature, ASSERT(expected, expr) checks, test.h):
// each file runs three ways and must print the same tally with no failed check.
//   clang-19: built with the bare runtime for rv32imc (CORE-V for the files whose asm needs it)
//             and run on qemu-riscv32 (the CORE-V builds on our simulator): validates the tests.
//   ours:     our compiler + assembler + linker with the same runtime, run on the simulator, at
//             -O2 with the CORE-V selections and at -O0 without them.
//   interp:   our front end's IR in the IR interpreter (files without inline asm), as lowered
//             and after the optimiser (-O2).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runElf } from '../index';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { buildBuiltin, type BuiltinOptions } from '../testing/builtin';
import { CLANG, LIBC_DIR, XCV_MARCH, compileCAsync, readBytes, runQemuAsync, scratchDir } from '../testing/toolchain';
import { CLANG_19, QEMU_RISCV32, missing } from '../../testing/requires';
import { compileToIr } from './compile';
import { libc, libcHeaders } from './front-util';
import { filesFrom } from './fs';
import { runModule } from './interp';
import { optimize } from './opt';

const SUITE = fileURLToPath(new URL('./testdata/suite/', import.meta.url));
const NAMES = readdirSync(SUITE).filter((f) => f.endsWith('.c')).sort();
const text = (name: string) => readFileSync(join(SUITE, name), 'utf8');
/** The suite in the in-memory file system, under /suite (with abi/). */
const suiteFiles = (): Record<string, string> => Object.fromEntries(readdirSync(SUITE, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.[ch]$/.test(f)).map((f) => [`/suite/${f}`, text(f)]));

const usesAsm = (name: string) => /\b__asm__\b/.test(text(name));
const usesXcv = (name: string) => /"cv\./.test(text(name));
const TALLY = /^(\d+) checks, 0 failed\n$/;

/**
 * Files our front end refuses on purpose (GNU extensions the kernel library does not use): the
 * error it must give, at file:line:col. When support lands, the test fails: move the file out.
 */
const UNSUPPORTED: Record<string, RegExp> = {
  'gnu_extras.c': /^\/suite\/\w+\.c:\d+:\d+: (case ranges are not supported|expected an expression, found ':')/,
};

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

/** clang-19's output for each file, the reference the other two must print. */
const reference = new Map<string, Promise<string>>();
function clangRun(name: string): Promise<string> {
  let r = reference.get(name);
  if (!r) {
    r = (async () => {
      const xcv = usesXcv(name);
      const elf = await compileCAsync([join(SUITE, name)], join(scratchDir(), `suite-${name}.elf`), { march: xcv ? `rv32imc${XCV_MARCH}` : 'rv32imc', extraIncludes: [SUITE] });
      if (xcv) {
        const run = runElf(m, readBytes(elf), { maxCycles: 1e9 });
        if (run.stopped !== 'exit' || run.exitCode !== 0) throw new Error(`clang-19's build stopped by ${run.stopped}, exit ${run.exitCode}:\n${run.stdout}`);
        return run.stdout;
      }
      const q = await runQemuAsync(elf, 20_000);
      if (q.exitCode !== 0) throw new Error(`clang-19's build on qemu exited ${q.exitCode}${q.timedOut ? ' (timed out)' : ''}:\n${q.stdout}`);
      return q.stdout;
    })();
    reference.set(name, r);
  }
  return r;
}

const tools = missing(CLANG_19, QEMU_RISCV32);

describe.skipIf(tools)('C suite: clang-19 (the reference; validates the tests)', () => {
  it.for(NAMES)('%s', { timeout: 60_000 }, async (name) => {
    expect(await clangRun(name)).toMatch(TALLY);
  });
});

const CONFIGS: [string, BuiltinOptions][] = [['-O2, CORE-V', { opt: 2, xpulp: true }], ['-O0, rv32imc', { opt: 0, xpulp: false }]];

describe.skipIf(tools)('C suite: our compiler on the simulator', () => {
  for (const [label, o] of CONFIGS) {
    it.for(NAMES)(`%s (${label})`, { timeout: 60_000 }, async (name) => {
      const want = await clangRun(name);
      const build = () => buildBuiltin([`/suite/${name}`], suiteFiles(), o);
      if (UNSUPPORTED[name]) return void expect(build).toThrow(UNSUPPORTED[name]);
      const b = build();
      // Plain RV32 code has no CORE-V instruction (bar the file that writes them in inline asm).
      if (!o.xpulp && !name.includes('xcv')) expect(b.asm.join('\n')).not.toMatch(/^\s+cv\./m);
      const run = runElf(m, b.link.elf, { maxCycles: 1e9 });
      expect(run.stdout).toBe(want);
      expect(run.stopped).toBe('exit');
      expect(run.exitCode).toBe(0);
    });
  }
});

/**
 * The calling convention against clang-19's: abi/abi_caller.c and abi/abi_callee.c built by
 * different compilers and linked by our linker, both ways round; the output must be clang-19's
 * own build's (on qemu).
 */
describe.skipIf(tools)('C suite: calls between our code and clang-19\'s', () => {
  const ABI = join(SUITE, 'abi');
  const clangObject = (file: string) => {
    const out = join(scratchDir(), `abi-${file}.o`);
    execFileSync(CLANG, ['--target=riscv32-unknown-elf', '-march=rv32imc', '-mabi=ilp32', '-O2', '-ffreestanding', '-fno-builtin', '-nostdlibinc',
      '-isystem', join(LIBC_DIR, 'include'), '-mno-relax', '-w', '-c', join(ABI, file), '-o', out], { stdio: 'pipe' });
    return { name: `${file}.clang.o`, bytes: readBytes(out) };
  };
  const want = async () => {
    const elf = await compileCAsync([join(ABI, 'abi_caller.c'), join(ABI, 'abi_callee.c')], join(scratchDir(), 'abi.elf'), { march: 'rv32imc' });
    const q = await runQemuAsync(elf, 20_000);
    expect(q.stdout).toMatch(TALLY);
    return q.stdout;
  };
  const pairs = [['ours', 'abi_caller.c', 'abi_callee.c'], ['clang-19', 'abi_callee.c', 'abi_caller.c']] as const;
  for (const [label, o] of CONFIGS) {
    it.for(pairs)(`the caller built by %s (ours ${label})`, { timeout: 60_000 }, async ([, oursFile, clangFile]) => {
      const reference = await want();
      const b = buildBuiltin([`/suite/abi/${oursFile}`], suiteFiles(), { ...o, extra: [clangObject(clangFile)] });
      const run = runElf(m, b.link.elf, { maxCycles: 1e9 });
      expect(run.stdout).toBe(reference);
      expect(run.exitCode).toBe(0);
    });
  }
});

function interpret(src: string, extra: Record<string, string> = {}, path = '/suite/main.c', level?: 1 | 2) {
  const files = filesFrom({ ...suiteFiles(), [path]: src, ...libcHeaders(), ...extra });
  const mod = compileToIr(path, { files, systemPaths: ['/libc/include'] }).module;
  return runModule([level ? optimize(mod, { level }) : mod, libc()], { maxSteps: 2e8 });
}

describe.skipIf(tools)('C suite: our front end in the IR interpreter', () => {
  it.for(NAMES.filter((n) => !usesAsm(n)))('%s', { timeout: 60_000 }, async (name) => {
    const want = await clangRun(name);
    if (UNSUPPORTED[name]) return void expect(() => interpret(text(name), {}, `/suite/${name}`)).toThrow(UNSUPPORTED[name]);
    for (const level of [undefined, 2] as const) {
      const r = interpret(text(name), {}, undefined, level);
      expect(r.error, `opt ${level ?? 0}`).toBeUndefined();
      expect(r.stdout, `opt ${level ?? 0}`).toBe(want);
      expect(r.exitCode).toBe(0);
    }
  });
});

it.skipIf(tools)('C suite: the ABI pair (abi/) in the IR interpreter', { timeout: 60_000 }, async () => {
  const files = filesFrom({ ...suiteFiles(), ...libcHeaders() });
  const mods = ['abi_caller.c', 'abi_callee.c'].map((f) => compileToIr(`/suite/abi/${f}`, { files, systemPaths: ['/libc/include'] }).module);
  const r = runModule([...mods, libc()], { maxSteps: 2e8 });
  expect(r.error).toBeUndefined();
  expect(r.stdout).toMatch(TALLY);
  expect(r.exitCode).toBe(0);
});

it('a failed check is printed with its line and expression, and the exit code is 1', () => {
  const r = interpret('#include "test.h"\nint main(void) {\n  ASSERT(3, 1 + 1);\n  ASSERT(2, HIDE(2));\n  return done();\n}\n');
  expect(r.error).toBeUndefined();
  expect(r.stdout).toBe('line 3: 1 + 1 => 2 (0x2), want 3 (0x3)\n2 checks, 1 failed\n');
  expect(r.exitCode).toBe(1);
});
