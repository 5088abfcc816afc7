// Node only: builds generated C with the host compiler and runs it natively (`dpg run --cc
// host`, the codegen tests). The kernel library is compiled once per process and flag set.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from '../../common/errors';
import type { CodegenResult } from './types';

export const KERNELS_DIR = fileURLToPath(new URL('../kernels/', import.meta.url));
export const RUNTIME_DIR = fileURLToPath(new URL('../runtime/', import.meta.url));

/** The kernel library's C sources, for tests and for `dpg compile --out`. */
export function libraryFiles(): { path: string; content: string }[] {
  const list = (dir: string, sub: string) => readdirSync(dir).filter((f) => /\.[ch]$/.test(f)).sort()
    .map((f) => ({ path: `${sub}/${f}`, content: readFileSync(join(dir, f), 'utf8') }));
  return [...list(KERNELS_DIR, 'kernels'), ...list(RUNTIME_DIR, 'runtime').filter((f) => /hal\.h|hal_host\.c/.test(f.path))];
}

let found: string | null | undefined;
/** `cc`, else `clang-19`; undefined when neither runs. */
export function hostCompiler(): string | undefined {
  if (found === undefined) {
    found = ['cc', 'clang-19'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0) ?? null;
  }
  return found ?? undefined;
}

const FLAGS = ['-O2', '-std=c11', '-Wall', '-Werror', '-D_POSIX_C_SOURCE=199309L'];

function compile(cc: string, args: string[], what: string): void {
  const r = spawnSync(cc, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) fail('internal', `the host C compiler failed on ${what}: ${(r.stderr || r.error?.message || '').slice(0, 4000)}`, 'codegen',
    'the generated C or the kernel library does not compile; this is a bug');
}

const libCache = new Map<string, string[]>();
/** Objects of the kernel library and the host HAL, compiled once per compiler and flag set. */
function libraryObjects(cc: string, flags: string[]): string[] {
  const sources = [...readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.c')).map((f) => join(KERNELS_DIR, f)), join(RUNTIME_DIR, 'hal_host.c')];
  const hash = createHash('sha256');
  hash.update([cc, ...flags].join(' '));
  for (const f of [...sources, ...readdirSync(KERNELS_DIR).filter((x) => x.endsWith('.h')).map((x) => join(KERNELS_DIR, x)), join(RUNTIME_DIR, 'hal.h')])
    hash.update(readFileSync(f));
  const key = hash.digest('hex').slice(0, 16);
  const cached = libCache.get(key);
  if (cached && cached.every(existsSync)) return cached;
  const dir = join(tmpdir(), `dpg-kernels-${key}`);
  mkdirSync(dir, { recursive: true });
  const objs = sources.map((src) => {
    const o = join(dir, src.replace(/.*[\\/]/, '').replace(/\.c$/, '.o'));
    if (!existsSync(o)) {
      const tmp = `${o}.${process.pid}.tmp`;
      compile(cc, [...flags, `-I${KERNELS_DIR}`, `-I${RUNTIME_DIR}`, '-c', src, '-o', tmp], src);
      spawnSync('mv', [tmp, o]);
    }
    return o;
  });
  libCache.set(key, objs);
  return objs;
}

export interface HostRun {
  compiler: string;
  /** What the program printed. */
  stdout: string;
  exitCode: number;
  /** Parsed from `Runtime: N cycles` / `Errors: E out of T` (undefined when missing). */
  cycles?: number;
  errors?: number;
  total?: number;
  buildMs: number;
  runMs: number;
}

export function parseRunOutput(stdout: string): Pick<HostRun, 'cycles' | 'errors' | 'total'> {
  const rt = /^Runtime: (\d+) cycles$/m.exec(stdout), er = /^Errors: (\d+) out of (\d+)$/m.exec(stdout);
  return { cycles: rt ? Number(rt[1]) : undefined, errors: er ? Number(er[1]) : undefined, total: er ? Number(er[2]) : undefined };
}

/** Writes the generated files to a temporary folder, builds them with the library, runs the program. */
export function buildAndRunHost(code: CodegenResult, opts: { keep?: boolean; timeoutMs?: number } = {}): HostRun {
  const cc = hostCompiler();
  if (!cc) fail('bad-config', 'no host C compiler found (tried cc and clang-19)', '--cc host', 'install gcc or clang-19');
  const dir = mkdtempSync(join(tmpdir(), 'dpg-host-'));
  try {
    for (const f of code.files) writeFileSync(join(dir, f.path), f.content);
    const t0 = performance.now();
    const objs = libraryObjects(cc, FLAGS);
    const exe = join(dir, 'network');
    const sources = code.files.filter((f) => f.path.endsWith('.c')).map((f) => join(dir, f.path));
    compile(cc, [...FLAGS, `-I${dir}`, `-I${KERNELS_DIR}`, `-I${RUNTIME_DIR}`, '-o', exe, ...sources, ...objs], 'the generated network');
    const t1 = performance.now();
    const r = spawnSync(exe, [], { encoding: 'utf8', timeout: opts.timeoutMs ?? 600_000, maxBuffer: 64 << 20 });
    const t2 = performance.now();
    if (r.error || r.status === null) fail('limit', `the program did not finish: ${r.error?.message ?? `signal ${r.signal}`}`, 'run');
    return { compiler: cc, stdout: r.stdout, exitCode: r.status, ...parseRunOutput(r.stdout), buildMs: t1 - t0, runMs: t2 - t1 };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}
