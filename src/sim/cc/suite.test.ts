// The C test suite (testdata/suite: one file per feature, ASSERT(expected, expr) checks, test.h):
// each file runs three ways and must print the same tally with no failed check.
//   clang-19: built with the bare runtime for rv32imc (CORE-V for the files whose asm needs it)
//             and run on qemu-riscv32 (the CORE-V builds on our simulator): validates the tests.
//   ours:     our compiler + assembler + linker with the same runtime, run on the simulator, at
//             -O2 with the CORE-V selections and at -O0 without them.
//   interp:   our front end's IR in the IR interpreter (files without inline asm).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runElf } from '../index';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { buildBuiltin, type BuiltinOptions } from '../testing/builtin';
import { XCV_MARCH, compileCAsync, readBytes, runQemuAsync, scratchDir } from '../testing/toolchain';
import { CLANG_19, QEMU_RISCV32, missing } from '../../testing/requires';
import { compileToIr } from './compile';
import { libc, libcHeaders } from './front-util';
import { filesFrom } from './fs';
import { runModule } from './interp';

const SUITE = fileURLToPath(new URL('./testdata/suite/', import.meta.url));
const NAMES = readdirSync(SUITE).filter((f) => f.endsWith('.c')).sort();
const text = (name: string) => readFileSync(join(SUITE, name), 'utf8');
/** The suite in the in-memory file system, under /suite. */
const suiteFiles = (): Record<string, string> => Object.fromEntries(readdirSync(SUITE).map((f) => [`/suite/${f}`, text(f)]));

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
      const run = runElf(m, b.link.elf, { maxCycles: 1e9 });
      expect(run.stdout).toBe(want);
      expect(run.stopped).toBe('exit');
      expect(run.exitCode).toBe(0);
    });
  }
});

function interpret(src: string, extra: Record<string, string> = {}, path = '/suite/main.c') {
  const files = filesFrom({ ...suiteFiles(), [path]: src, ...libcHeaders(), ...extra });
  const mod = compileToIr(path, { files, systemPaths: ['/libc/include'] }).module;
  return runModule([mod, libc()], { maxSteps: 2e8 });
}

describe.skipIf(tools)('C suite: our front end in the IR interpreter', () => {
  it.for(NAMES.filter((n) => !usesAsm(n)))('%s', { timeout: 60_000 }, async (name) => {
    const want = await clangRun(name);
    if (UNSUPPORTED[name]) return void expect(() => interpret(text(name), {}, `/suite/${name}`)).toThrow(UNSUPPORTED[name]);
    const r = interpret(text(name));
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe(want);
    expect(r.exitCode).toBe(0);
  });
});

it('a failed check is printed with its line and expression, and the exit code is 1', () => {
  const r = interpret('#include "test.h"\nint main(void) {\n  ASSERT(3, 1 + 1);\n  ASSERT(2, HIDE(2));\n  return done();\n}\n');
  expect(r.error).toBeUndefined();
  expect(r.stdout).toBe('line 3: 1 + 1 => 2 (0x2), want 3 (0x3)\n2 checks, 1 failed\n');
  expect(r.exitCode).toBe(1);
});
