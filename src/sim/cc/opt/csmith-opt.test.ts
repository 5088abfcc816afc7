// Differential test of the optimiser: csmith programs compiled by our front end, optimised at
// level 2 (the IR checked after every pass) and run in the IR interpreter print the same
// checksum as clang-19 builds for riscv32 on qemu-riscv32. CC_CSMITH_OPT=N runs N seeds
// instead of 30 (seeds qemu cannot finish in 5 s, or the interpreter in its step budget, skip).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileToIr } from '../compile';
import { libcHeaders } from '../front-util';
import { filesFrom } from '../fs';
import type { IrModule } from '../ir';
import { runModule } from '../interp';
import { optimize } from '.';
import { CLANG_19, CSMITH, QEMU_RISCV32, missing } from '../../../testing/requires';
import { CSMITH_INCLUDE, LIBC_DIR, compileCAsync, csmithProgram, runQemuAsync, scratchDir } from '../../testing/toolchain';

const N = Number(process.env.CC_CSMITH_OPT ?? 30);
const SEEDS = Array.from({ length: N }, (_, i) => 1000 + i);

function csmithHeaders(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(CSMITH_INCLUDE)) if (f.endsWith('.h')) out[`/csmith/${f}`] = readFileSync(join(CSMITH_INCLUDE, f), 'utf8');
  return out;
}

let libcOpt: IrModule | undefined;
function optimisedLibc(): IrModule {
  libcOpt ??= optimize(compileToIr('/libc/libc.c', {
    files: filesFrom({ '/libc/libc.c': readFileSync(join(LIBC_DIR, 'libc.c'), 'utf8'), ...libcHeaders() }), systemPaths: ['/libc/include'],
  }).module, { level: 2, verify: true });
  return libcOpt;
}

describe.skipIf(missing(CLANG_19, QEMU_RISCV32, CSMITH))('csmith: our front end + optimiser + IR interpreter vs clang-19 on qemu-riscv32', () => {
  it.for(SEEDS)('seed %d', { timeout: 180_000 }, async (seed, ctx) => {
    const path = csmithProgram(seed);
    const elf = compileCAsync([path], join(scratchDir(), `cc-csmith-${seed}.elf`), { march: 'rv32imc', extraIncludes: [CSMITH_INCLUDE] });
    const files = filesFrom({ '/t/main.c': readFileSync(path, 'utf8'), ...libcHeaders(), ...csmithHeaders() });
    const mod = optimize(compileToIr('/t/main.c', { files, includePaths: ['/csmith'], systemPaths: ['/libc/include'] }).module, { level: 2, verify: true });
    const qemu = await runQemuAsync(await elf, 5_000);
    if (qemu.timedOut) ctx.skip();
    const ours = runModule([mod, optimisedLibc()], { maxSteps: 3e8 });
    if (ours.error?.startsWith('step limit')) ctx.skip();
    expect(ours.error).toBeUndefined();
    expect(qemu.stdout).toMatch(/checksum = [0-9A-F]+/);
    expect(ours.stdout).toBe(qemu.stdout);
    expect(ours.exitCode).toBe(qemu.exitCode);
  });
});
