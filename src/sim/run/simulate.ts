// Node only: `dpg run --cc clang`. Builds the generated Siracusa C with clang-19 and ld.lld-19
// (with the kernel library, hal_siracusa.c, crt0 and the tiny libc; every object cached by
// content and flag set, like the host build) and runs the ELF on the Siracusa simulator.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail } from '../../common/errors';
import type { Config, PlatformName } from '../../compiler/config';
import { platformFor } from '../../compiler/platforms';
import { MAX_CYCLES, simulatorResult, statsOf } from './outcome';
import type { RunResult } from './types';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { runSiracusa } from '../siracusa';
import { compile, libraryObjects, objectFor, programObjects, RUNTIME_DIR, RV32_FLAGS } from './host';
import type { CodegenResult } from '../../compiler/codegen/types';
import { linkSiracusa, sourceAt as linkedSourceAt, type LinkOptions, type LinkResult } from '../link';
import { elfLineTable } from '../link/lines';
import { buildProfile, profileSetup } from '../profile/build';

export const CLANG = 'clang-19';
export const LLD = 'ld.lld-19';
const LIBC_DIR = join(RUNTIME_DIR, 'libc');

/**
 * The generated code and the kernels: CORE-V Xpulp, warning-free, the tiny libc's headers instead
 * of a system's; no jump tables (they sit in .rodata in L2, a 12-cycle load per switch); line
 * tables (not loaded into the machine) so that a trap can name its source line.
 */
export const SIRACUSA_FLAGS = [...RV32_FLAGS.xpulp, '-gline-tables-only', '-mabi=ilp32', '-fno-jump-tables', '-falign-functions=4', '-nostdlib', '-nostdlibinc', '-isystem', join(LIBC_DIR, 'include')];
// The runtime without builtins: libc's memset / memcpy loops must not become calls to themselves.
const RUNTIME_FLAGS = [...SIRACUSA_FLAGS, '-fno-builtin'];

export { MAX_CYCLES } from './outcome';

/** True when clang-19 and ld.lld-19 both run. */
export function siracusaToolchain(): boolean {
  return [CLANG, LLD].every((t) => spawnSync(t, ['--version'], { stdio: 'ignore' }).status === 0);
}

/** The platform's bare-metal runtime folder (Platform.runtime). */
function runtimeDir(platform: string): string {
  const rt = platformFor(platform as PlatformName).runtime;
  if (!rt) fail('bad-config', `the ${platform} platform has no runtime to run on the simulator`, '--cc clang', 'use --cc host');
  return join(RUNTIME_DIR, rt);
}

function runtimeObjects(rtDir: string): string[] {
  const dirs = [RUNTIME_DIR, rtDir];
  return [join(rtDir, 'crt0.S'), join(RUNTIME_DIR, 'hal_siracusa.c'), join(LIBC_DIR, 'libc.c')]
    .map((src) => objectFor(CLANG, RUNTIME_FLAGS, src.replace(/.*[\\/]/, ''), readFileSync(src, 'utf8'), dirs));
}

/** The objects of the program for Siracusa (runtime, generated files, kernel library; cached), in link order, and the link script. */
export function siracusaObjects(code: CodegenResult): { objects: string[]; linkScript: string } {
  if (!siracusaToolchain()) fail('bad-config', `--cc clang needs ${CLANG} and ${LLD}`, '--cc clang', 'apt-get install clang-19 lld-19, or use --cc host');
  const rtDir = runtimeDir(code.platform);
  const objects = [...runtimeObjects(rtDir), ...programObjects(CLANG, SIRACUSA_FLAGS, code), ...libraryObjects(CLANG, SIRACUSA_FLAGS, false)];
  return { objects, linkScript: join(rtDir, 'link.ld') };
}

/** The linker of `--cc clang`: ld.lld-19 with the runtime's link script (the default), or the playground's own (src/sim/link). */
export type LinkerName = 'lld' | 'builtin';

/** Links objects with ld.lld-19 and the link script; returns the ELF's bytes. */
export function linkWithLld(objects: string[], linkScript: string): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'dpg-elf-'));
  try {
    const elf = join(dir, 'network.elf');
    // --no-relax: the simulator's tests build the same way (no gp-relative rewrites).
    compile(LLD, ['-T', linkScript, '--no-relax', '-o', elf, ...objects], 'the link of the Siracusa program');
    return new Uint8Array(readFileSync(elf));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Links objects with the playground's own linker (src/sim/link) and Siracusa's memory map. */
export function linkWithBuiltin(objects: string[], opts: LinkOptions = {}): LinkResult {
  return linkSiracusa(objects.map((path) => ({ name: path.replace(/.*[\\/]/, ''), bytes: new Uint8Array(readFileSync(path)) })), opts);
}

/** Compiles and links the program for Siracusa; returns the ELF's bytes. */
export function buildSiracusaElf(code: CodegenResult, linker: LinkerName = 'lld'): Uint8Array {
  const { objects, linkScript } = siracusaObjects(code);
  return linker === 'builtin' ? linkWithBuiltin(objects).elf : linkWithLld(objects, linkScript);
}

let machine: Promise<Machine> | undefined;

/** The function holding `pc` and its source line (file:line), from the ELF's debug info (llvm-addr2line-19), when the tool is there. */
function sourceAt(elf: Uint8Array, pc: number): { fn?: string; line?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dpg-sym-'));
  try {
    const path = join(dir, 'a.elf');
    writeFileSync(path, elf);
    const r = spawnSync('llvm-addr2line-19', ['-f', '-e', path, `0x${pc.toString(16)}`], { encoding: 'utf8' });
    if (r.status !== 0) return {};
    const [fn, where] = r.stdout.split('\n').map((s) => s.trim());
    // The build runs in a temporary folder: keep the file's name, not its path.
    const line = where && !where.startsWith('??') ? where.replace(/^.*[\\/]/, '').replace(/ \(discriminator \d+\)$/, '') : undefined;
    return { fn: fn && fn !== '??' ? fn : undefined, line: line && !line.endsWith(':0') ? line : undefined };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--cc clang`: builds the program, runs it on the simulator and returns the run stage's result.
 * A trap, the cycle limit or a deadlock is a RunError carrying the result so far.
 */
export async function runOnSimulator(code: CodegenResult, config: Config,
  opts: { maxCycles?: number; linker?: LinkerName; profile?: boolean; idealFetch?: boolean } = {}): Promise<RunResult> {
  if (!platformFor(config.platform).runtime)
    fail('bad-config', `${platformFor(config.platform).title} code has no Siracusa runtime to run on the simulator`, '--cc clang', `use --cc host for -p ${config.platform}`);
  const t0 = performance.now();
  const { objects, linkScript } = siracusaObjects(code);
  const linked = opts.linker === 'builtin' ? linkWithBuiltin(objects) : undefined;
  const elf = linked?.elf ?? linkWithLld(objects, linkScript);
  const t1 = performance.now();
  machine ??= nodeMachine();
  // The profile's line table: our linker's, or the one in lld's .debug_line.
  const lines = linked?.lines ?? (opts.profile ? elfLineTable(elf) : undefined);
  const network = code.files.find((f) => f.path === 'Network.c')?.content ?? '';
  const r = runSiracusa(await machine, elf, { maxCycles: opts.maxCycles ?? MAX_CYCLES, idealFetch: opts.idealFetch, profile: opts.profile && lines ? profileSetup(code, lines, network) : undefined });
  const t2 = performance.now();
  const profile = r.profile && lines && buildProfile({ raw: r.profile, code, lines, cores: r.cores, total: r.cycles });
  return simulatorResult(r, { profile,
    compiler: linked ? `${CLANG} + builtin linker` : CLANG, sim: statsOf(r, t1 - t0, t2 - t1), maxCycles: opts.maxCycles ?? MAX_CYCLES,
    sourceAt: (pc) => (linked ? linkedSourceAt(linked, pc) : sourceAt(elf, pc)), layers: code.layers,
  });
}
