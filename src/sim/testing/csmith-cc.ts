// The csmith differential for our compiler: a csmith program built by clang-19 (+ lld) runs on
// qemu-riscv32; the same program built by our compiler, assembler and linker (bare runtime) runs on
// the simulator; both must print the same checksum and exit the same way. Shared by the unit test
// (src/sim/cc/csmith-sim.test.ts) and the benchmark (bench/csmith-cc.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runElf } from '../index';
import type { Machine, RunResult } from '../machine';
import { buildBuiltin, type BuiltinOptions } from './builtin';
import { build, compare, csmith } from './differential';
import { CSMITH_INCLUDE, runQemuAsync, type NativeRun } from './toolchain';

export interface CsmithCcOptions extends BuiltinOptions {
  /** qemu's wall-clock limit: a program qemu cannot finish in it is skipped (default 5 s). */
  qemuTimeoutMs?: number;
  /** The simulator's cycle limit for our build (default 2e9). */
  maxCycles?: number;
  /** Also build at -O0 (no optimisation, IR or back end) and run it: it must print what clang's build and our optimised one print. */
  levels?: boolean;
}

export type CsmithCcStatus =
  | 'agree'
  /** Different output or exit, a trap, or a compile / link error of ours. */
  | 'mismatch'
  /** Our build ran past the cycle limit (qemu finished clang's in time). */
  | 'timeout'
  /** qemu did not finish clang's build in time: not compared. */
  | 'skipped';

export interface CsmithCcOutcome {
  seed: number;
  status: CsmithCcStatus;
  /** Why it is not 'agree'. */
  why?: string;
  qemu: NativeRun;
  ours?: RunResult;
  /** With `levels`: our -O0 build's run. */
  o0?: RunResult;
  /** Which build disagreed ('-O0' with levels: the unoptimised one; undefined: the optimised one). */
  level?: '-O0';
  /** Our compile (the program only; the runtime is cached), link and simulation times, ms. */
  compileMs?: number;
  linkMs?: number;
  runMs?: number;
}

let headers: Record<string, string> | undefined;
/** csmith's headers under /csmith in the in-memory file system. */
export function csmithHeaders(): Record<string, string> {
  headers ??= Object.fromEntries(readdirSync(CSMITH_INCLUDE).filter((f) => f.endsWith('.h')).map((f) => [`/csmith/${f}`, readFileSync(join(CSMITH_INCLUDE, f), 'utf8')]));
  return headers;
}

export async function csmithVsClang(m: Machine, seed: number, o: CsmithCcOptions = {}): Promise<CsmithCcOutcome> {
  const p = csmith(seed);
  const elf = await build(p, 'rv32imc');
  // Every csmith program prints its checksum, so qemu printing nothing (killed by a signal, or
  // even exiting 0, both seen on a loaded machine) means the reference did not run: it runs
  // again rather than count as a mismatch of ours.
  const died = (q: NativeRun): boolean => !q.timedOut && !q.stdout;
  let qemu = await runQemuAsync(elf, o.qemuTimeoutMs ?? 5_000);
  if (died(qemu)) qemu = await runQemuAsync(elf, o.qemuTimeoutMs ?? 5_000);
  if (died(qemu)) return { seed, status: 'skipped', why: 'qemu died twice without output', qemu };
  if (qemu.timedOut) return { seed, status: 'skipped', why: 'qemu did not finish in time', qemu };
  const source = { '/t/main.c': readFileSync(p.sources[0], 'utf8'), ...csmithHeaders() };
  let b;
  try {
    b = buildBuiltin(['/t/main.c'], source, { xpulp: o.xpulp, opt: o.opt, disable: o.disable, includePaths: ['/csmith'] });
  } catch (e) {
    return { seed, status: 'mismatch', why: `our build failed: ${(e as Error).message}`, qemu };
  }
  const t1 = performance.now();
  const maxCycles = o.maxCycles ?? 2e9;
  const ours = runElf(m, b.link.elf, { maxCycles });
  const times = { compileMs: b.compileMs, linkMs: b.linkMs, runMs: performance.now() - t1 };
  if (ours.stopped === 'limit') return { seed, status: 'timeout', why: `over ${maxCycles} cycles`, qemu, ours, ...times };
  const why = compare(qemu, ours);
  if (why || !o.levels) return { seed, status: why ? 'mismatch' : 'agree', why, qemu, ours, ...times };
  // -O0: the same program unoptimised must print the same (clang's output, which -O2's matched).
  const level = '-O0';
  let b0;
  try {
    b0 = buildBuiltin(['/t/main.c'], source, { xpulp: o.xpulp, opt: 0, includePaths: ['/csmith'] });
  } catch (e) {
    return { seed, status: 'mismatch', level, why: `our -O0 build failed: ${(e as Error).message}`, qemu, ours, ...times };
  }
  const o0 = runElf(m, b0.link.elf, { maxCycles });
  if (o0.stopped === 'limit') return { seed, status: 'timeout', level, why: `-O0 over ${maxCycles} cycles`, qemu, ours, o0, ...times };
  const why0 = compare(qemu, o0) ?? (o0.stdout !== ours.stdout || o0.exitCode !== ours.exitCode ? `exit code ${o0.exitCode}, -O2 ${ours.exitCode}` : undefined);
  return { seed, status: why0 ? 'mismatch' : 'agree', level: why0 ? level : undefined, why: why0 && `-O0 differs from clang-19 and our -O2: ${why0}`, qemu, ours, o0, ...times };
}
