// Node-only helpers for the simulator's tests and benchmark: LLVM 19 (clang, lld, objdump),
// qemu-riscv32 (user mode) and csmith, all from Debian's packages (.ci/run installs them).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLANG = 'clang-19';
export const OBJDUMP = 'llvm-objdump-19';
export const QEMU = 'qemu-riscv32';
export const CSMITH = 'csmith';
export const CSMITH_INCLUDE = '/usr/include/csmith';

/** The CORE-V extensions LLVM 19 knows (no hardware loops). */
export const XCV_MARCH = '_xcvalu_xcvmac_xcvsimd_xcvmem_xcvbi_xcvbitmanip';
export const XCV_MATTR = '+m,+c,+xcvalu,+xcvmac,+xcvsimd,+xcvmem,+xcvbi,+xcvbitmanip';

export const RUNTIME_DIR = fileURLToPath(new URL('./runtime/', import.meta.url));
/** The shared tiny libc and the HAL with its Siracusa runtime (src/compiler/runtime). */
export const LIBC_DIR = fileURLToPath(new URL('../../compiler/runtime/libc/', import.meta.url));
export const HAL_DIR = fileURLToPath(new URL('../../compiler/runtime/', import.meta.url));
export const SIRACUSA_RT_DIR = join(HAL_DIR, 'siracusa');
export const PROGRAMS_DIR = fileURLToPath(new URL('./programs/', import.meta.url));

export function hasTool(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** Whether every tool runs (the benchmark's check; tests use src/testing/requires.ts). */
export function toolsPresent(...cmds: string[]): boolean {
  return cmds.every(hasTool);
}

let scratch: string | undefined;
/** A per-process scratch directory for generated sources and binaries. */
export function scratchDir(): string {
  if (!scratch) {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-sim-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return scratch;
}

function run(cmd: string, args: string[], opts: { timeoutMs?: number; input?: string } = {}): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: opts.timeoutMs, input: opts.input, maxBuffer: 64 << 20 });
}

/** Assembles `source` (GNU syntax) into an object file and returns its path. */
export function assemble(source: string, name: string, march = `rv32imc${XCV_MARCH}`): string {
  const dir = scratchDir();
  const src = join(dir, `${name}.s`);
  const obj = join(dir, `${name}.o`);
  writeFileSync(src, source);
  run(CLANG, ['--target=riscv32-unknown-elf', `-march=${march}`, '-c', src, '-o', obj]);
  return obj;
}

/** LLVM's disassembly of an object or ELF: address -> text (mnemonic and operands, one space). */
export function llvmDisassemble(file: string): Map<number, string> {
  const out = run(OBJDUMP, ['-d', '-z', '-M', 'no-aliases', '--no-print-imm-hex', `--mattr=${XCV_MATTR}`, file]);
  const map = new Map<number, string>();
  for (const line of out.split('\n')) {
    const m = /^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2,8}\s)+\s*(.*)$/.exec(line);
    if (!m) continue;
    const text = m[2].replace(/\s+<[^>]*>$/, '').replace(/\t/, ' ').replace(/\s+/g, ' ').trim();
    map.set(parseInt(m[1], 16), text);
  }
  return map;
}

export interface CBuild {
  /** rv32im or rv32imc, optionally with the CORE-V extensions (then only our simulator runs it). */
  march: string;
  opt?: string;
  extraIncludes?: string[];
  defines?: string[];
}

/**
 * Compiles C sources with the bare runtime (crt0, the tiny libc with printf, Linux write/exit
 * ecalls) into a static ELF linked at L2 (0x1C000000). Returns the ELF's path.
 */
export function compileC(sources: string[], out: string, b: CBuild): string {
  run(CLANG, clangArgs(sources, out, b), { timeoutMs: 120_000 });
  return out;
}

/** compileC without blocking, so several builds can share the machine's cores. */
export function compileCAsync(sources: string[], out: string, b: CBuild): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(CLANG, clangArgs(sources, out, b), { timeout: 120_000, maxBuffer: 16 << 20 }, (err, _o, stderr) => {
      if (err) reject(new Error(`${CLANG} failed for ${sources.join(' ')}: ${stderr || err.message}`));
      else resolve(out);
    });
  });
}

function clangArgs(sources: string[], out: string, b: CBuild, siracusa = false): string[] {
  const rt = siracusa ? SIRACUSA_RT_DIR : RUNTIME_DIR;
  const platform = siracusa ? ['-I', HAL_DIR, '-I', SIRACUSA_RT_DIR, join(HAL_DIR, 'hal_siracusa.c')] : [join(rt, 'sys.c')];
  return [
    '--target=riscv32-unknown-elf', `-march=${b.march}`, '-mabi=ilp32', b.opt ?? '-O2',
    '-ffreestanding', '-fno-builtin', '-nostdlib', '-nostdlibinc', '-static', '-fuse-ld=lld',
    '-isystem', join(LIBC_DIR, 'include'), ...(b.extraIncludes ?? []).flatMap((d) => ['-I', d]),
    ...(b.defines ?? []).map((d) => `-D${d}`), '-w',
    '-T', join(rt, 'link.ld'), '-Wl,--no-relax',
    join(rt, 'crt0.S'), join(LIBC_DIR, 'libc.c'), ...platform, ...sources, '-o', out,
  ];
}

/**
 * Compiles C sources for the Siracusa cluster: the Siracusa crt0 (controller + worker idle
 * loop), link script (.l1 / .l2 / .l3 / .wmem), hal_siracusa.c and the tiny libc; CORE-V
 * extensions on by default. Returns the ELF's path.
 */
export function compileSiracusa(sources: string[], out: string, b: Partial<CBuild> = {}): Promise<string> {
  const full: CBuild = { march: `rv32imc${XCV_MARCH}`, ...b };
  return new Promise((resolve, reject) => {
    execFile(CLANG, clangArgs(sources, out, full, true), { timeout: 120_000, maxBuffer: 16 << 20 }, (err, _o, stderr) => {
      if (err) reject(new Error(`${CLANG} failed for ${sources.join(' ')}: ${stderr || err.message}`));
      else resolve(out);
    });
  });
}

export interface NativeRun { stdout: string; exitCode: number | null; timedOut: boolean; ms: number }

/** Runs an ELF under qemu-riscv32 (user mode); the reference for the differential tests. */
export function runQemu(elf: string, timeoutMs = 20_000): NativeRun {
  const t0 = performance.now();
  const r = spawnSync(QEMU, [elf], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  return { stdout: r.stdout ?? '', exitCode: timedOut ? null : r.status, timedOut, ms };
}

export function runQemuAsync(elf: string, timeoutMs = 20_000): Promise<NativeRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    execFile(QEMU, [elf], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout) => {
      const ms = performance.now() - t0;
      const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
      const timedOut = !!e?.killed;
      resolve({ stdout, exitCode: timedOut ? null : e ? (typeof e.code === 'number' ? e.code : null) : 0, timedOut, ms });
    });
  });
}

/** Generates a csmith program for a seed (cached by seed in the scratch directory). */
export function csmithProgram(seed: number): string {
  const dir = join(scratchDir(), 'csmith');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `seed${seed}.c`);
  if (!existsSync(path)) writeFileSync(path, run(CSMITH, ['--seed', String(seed)], { timeoutMs: 60_000 }));
  return path;
}

export function readBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}
