// Node only: builds generated C with the host compiler and runs it natively (`dpg run --cc
// host`, the codegen tests), and cross-compiles it for RV32 with clang-19. Objects are cached by
// content, so the kernel library and unchanged weights are compiled once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from '../../common/errors';
import type { CodegenResult } from '../../compiler/codegen/types';
import { PLATFORM_DEFS } from '../../compiler/platforms';
import { keptText, OUTPUT_LIMIT } from '../console';
import { parseRunOutput } from './outcome';
import type { RunResult } from './types';

export const KERNELS_DIR = fileURLToPath(new URL('../../compiler/kernels/', import.meta.url));
export const RUNTIME_DIR = fileURLToPath(new URL('../../compiler/runtime/', import.meta.url));

/** The kernel library's C sources, for tests and for `dpg compile --out`. */
export function libraryFiles(): { path: string; content: string }[] {
  const list = (dir: string, sub: string) => readdirSync(dir).filter((f) => /\.[ch]$/.test(f)).sort()
    .map((f) => ({ path: `${sub}/${f}`, content: readFileSync(join(dir, f), 'utf8') }));
  return [...list(KERNELS_DIR, 'kernels'), ...list(RUNTIME_DIR, 'runtime').filter((f) => /hal\.h|hal_host\.c|neureka(_task)?\.[ch]/.test(f.path))];
}

let found: string | null | undefined;
/** `cc`, else `clang-19`; undefined when neither runs. */
export function hostCompiler(): string | undefined {
  if (found === undefined) {
    found = ['cc', 'clang-19'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0) ?? null;
  }
  return found ?? undefined;
}

const HOST_FLAGS = ['-O2', '-std=c11', '-Wall', '-Werror', '-D_POSIX_C_SOURCE=199309L'];

/** The RV32 builds the untiled Siracusa code must pass: plain RV32IMC, and with CORE-V Xpulp. */
export const RV32_FLAGS = {
  rv32imc: ['--target=riscv32-unknown-elf', '-march=rv32imc', '-O2', '-Wall', '-Werror', '-ffreestanding'],
  xpulp: ['--target=riscv32-unknown-elf', '-march=rv32imc_xcvalu_xcvmac_xcvsimd_xcvmem_xcvbi_xcvbitmanip', '-DDPG_XPULP', '-O2', '-Wall', '-Werror', '-ffreestanding'],
} as const;

export function compile(cc: string, args: string[], what: string): void {
  const r = spawnSync(cc, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) fail('internal', `the C compiler (${cc}) failed on ${what}: ${(r.stderr || r.error?.message || '').slice(0, 4000)}`, 'codegen',
    'the generated C or the kernel library does not compile; this is a bug');
}

/** The headers of every platform's bare-metal runtime (Platform.runtime). */
const runtimeHeaders = () => [...new Set(Object.values(PLATFORM_DEFS).map((p) => p.runtime).filter((r): r is string => !!r))]
  .flatMap((r) => readdirSync(join(RUNTIME_DIR, r)).filter((x) => x.endsWith('.h')).map((x) => join(RUNTIME_DIR, r, x)));

// Every header a cached object may depend on: the kernels', the HAL's (neureka.h too), the Siracusa registers and the tiny libc's.
const LIB_HEADERS = () => [...readdirSync(KERNELS_DIR).filter((x) => x.endsWith('.h')).map((x) => join(KERNELS_DIR, x)), join(RUNTIME_DIR, 'hal.h'), join(RUNTIME_DIR, 'neureka.h'),
  ...runtimeHeaders(), ...readdirSync(join(RUNTIME_DIR, 'libc', 'include')).map((x) => join(RUNTIME_DIR, 'libc', 'include', x))];

/**
 * Compiles one C source to an object in a cache folder keyed by the compiler, the flags, the
 * source and the headers it depends on, so unchanged files (the weights, the library) are
 * compiled once. `headers`: the generated headers by name, hashed when the source includes them.
 */
export function objectFor(cc: string, flags: readonly string[], name: string, content: string, includeDirs: string[],
  headers: ReadonlyMap<string, string> = new Map()): string {
  const hash = createHash('sha256');
  hash.update([cc, ...flags, ...includeDirs].join(' ')).update('\0').update(content);
  for (const f of LIB_HEADERS()) hash.update(readFileSync(f));
  const seen = new Set<string>();
  const visit = (text: string) => {
    for (const m of text.matchAll(/#include "([^"]+)"/g)) {
      const h = headers.get(m[1]);
      if (h === undefined || seen.has(m[1])) continue;
      seen.add(m[1]);
      hash.update(m[1]).update(h);
      visit(h);
    }
  };
  visit(content);
  const dir = join(tmpdir(), 'dpg-objects');
  mkdirSync(dir, { recursive: true });
  const obj = join(dir, `${name.replace(/\W/g, '_')}-${hash.digest('hex').slice(0, 20)}.o`);
  if (existsSync(obj)) return obj;
  const work = mkdtempSync(join(tmpdir(), 'dpg-cc-'));
  try {
    for (const [h, text] of headers) writeFileSync(join(work, h), text);
    const src = join(work, name);
    writeFileSync(src, content);
    const tmp = join(work, 'out.o');
    compile(cc, [...flags, `-I${work}`, ...includeDirs.map((d) => `-I${d}`), '-c', src, '-o', tmp], name);
    renameSync(tmp, obj);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return obj;
}

/** Objects of the kernel library (and the host HAL when `withHal`), compiled once per flag set. */
export function libraryObjects(cc: string, flags: readonly string[], withHal: boolean): string[] {
  const sources = [...readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.c')).sort().map((f) => join(KERNELS_DIR, f)),
    ...(withHal ? [join(RUNTIME_DIR, 'hal_host.c'), join(RUNTIME_DIR, 'neureka_task.c')] : [])];
  return sources.map((src) => objectFor(cc, flags, src.replace(/.*[\\/]/, ''), readFileSync(src, 'utf8'), [KERNELS_DIR, RUNTIME_DIR]));
}

/** Objects of the generated program's C files. */
export function programObjects(cc: string, flags: readonly string[], code: CodegenResult): string[] {
  const headers = new Map(code.files.filter((f) => f.path.endsWith('.h')).map((f) => [f.path, f.content]));
  return code.files.filter((f) => f.path.endsWith('.c'))
    .map((f) => objectFor(cc, flags, f.path, f.content, [KERNELS_DIR, RUNTIME_DIR], headers));
}

/** Compiles (no link) the generated program and the kernel library with clang-19 for RV32; throws on any warning. */
export function crossCompile(code: CodegenResult, flags: readonly string[]): void {
  programObjects('clang-19', flags, code);
  libraryObjects('clang-19', flags, false);
}

/**
 * Runs a program natively keeping at most `limit` bytes of its stdout (the first and the latest
 * half, src/sim/console.ts) however much it prints, through a small Node process between us and
 * it: it passes the head on as it comes, keeps the latest half in a ring, and at the program's
 * end writes the ring and, on stderr, the byte count and exit status. Its stdout is thus at most
 * `limit` bytes; a timeout kills it, and it kills the program.
 */
const BOUNDED_RUNNER = `
const { spawn } = require('node:child_process');
const [exe, lim] = process.argv.slice(1);
const half = Number(lim) / 2, ring = Buffer.alloc(half);
let total = 0, start = 0, len = 0;
const child = spawn(exe, [], { stdio: ['ignore', 'pipe', 'ignore'] });
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { child.kill('SIGKILL'); process.exit(1); });
child.stdout.on('data', (b) => {
  let o = 0;
  if (total < half) { o = Math.min(b.length, half - total); process.stdout.write(b.subarray(0, o)); }
  total += b.length;
  for (let i = o; i < b.length; i++) { ring[(start + len) % half] = b[i]; if (len < half) len++; else start = (start + 1) % half; }
});
child.on('close', (status, signal) => {
  const tail = Buffer.concat([ring.subarray(start, Math.min(half, start + len)), ring.subarray(0, Math.max(0, start + len - half))]);
  process.stdout.write(tail, () => { process.stderr.write(JSON.stringify({ total, status, signal })); process.exit(0); });
});`;

export function runBounded(exe: string, timeoutMs: number, limit = OUTPUT_LIMIT): { stdout: string; dropped: number; status: number | null; why?: string } {
  const r = spawnSync(process.execPath, ['-e', BOUNDED_RUNNER, exe, String(limit)], { timeout: timeoutMs, maxBuffer: limit + (1 << 16) });
  if (r.error || r.status !== 0) return { stdout: '', dropped: 0, status: null, why: r.error?.message ?? `signal ${r.signal}` };
  const end = JSON.parse(r.stderr.toString('utf8')) as { total: number; status: number | null; signal: string | null };
  const out = r.stdout;
  const half = limit / 2, kept = Math.min(end.total, limit);
  const dropped = end.total - kept;
  const stdout = dropped > 0 ? keptText(out.subarray(0, half), out.subarray(half, kept), dropped, limit) : out.toString('utf8');
  return { stdout, dropped, status: end.status, ...(end.status === null ? { why: `signal ${end.signal}` } : {}) };
}

/** A native run: the run result's fields without the simulator's, plus the build and run times. */
export interface HostRun extends Omit<RunResult, 'target' | 'sim'> {
  buildMs: number;
  runMs: number;
}

export { parseRunOutput } from './outcome';

/**
 * Builds the generated program with the library and the host HAL (cached objects), runs it.
 * `defines`: extra -D macros, e.g. HAL_HOST_DEFERRED_DMA (tests: DMA bytes move at the wait).
 */
export function buildAndRunHost(code: CodegenResult, opts: { keep?: boolean; timeoutMs?: number; defines?: string[] } = {}): HostRun {
  const cc = hostCompiler();
  if (!cc) fail('bad-config', 'no host C compiler found (tried cc and clang-19)', '--cc host', 'install gcc or clang-19');
  const dir = mkdtempSync(join(tmpdir(), 'dpg-host-'));
  try {
    const t0 = performance.now();
    const flags = [...HOST_FLAGS, ...(opts.defines ?? []).map((d) => `-D${d}`)];
    const objs = [...programObjects(cc, flags, code), ...libraryObjects(cc, flags, true)];
    const exe = join(dir, 'network');
    compile(cc, ['-o', exe, ...objs], 'the link of the generated network');
    const t1 = performance.now();
    const r = runBounded(exe, opts.timeoutMs ?? 600_000);
    const t2 = performance.now();
    if (r.status === null) fail('limit', `the program did not finish: ${r.why}`, 'run');
    return { compiler: cc, stdout: r.stdout, exitCode: r.status, ...parseRunOutput(r.stdout), ...(r.dropped ? { stdoutDropped: r.dropped } : {}), buildMs: t1 - t0, runMs: t2 - t1 };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}
