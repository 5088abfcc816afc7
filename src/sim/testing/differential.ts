// Differential testing against qemu-riscv32: the same static ELF (clang-19 + lld-19, linked at
// L2 with the tiny runtime) runs on qemu's user mode and on our simulator; stdout and the exit
// code must agree. A CORE-V build of the same source runs on our simulator only and must print
// what qemu printed for the plain build.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Machine, RunResult } from '../machine';
import { runElf } from '../index';
import type { NativeRun } from './toolchain';
import {
  CSMITH_INCLUDE, PROGRAMS_DIR, XCV_MARCH, compileCAsync, csmithProgram, readBytes, runQemuAsync, scratchDir,
} from './toolchain';

export const MARCHES = ['rv32im', 'rv32imc'] as const;
export const XCV = `rv32imc${XCV_MARCH}`;

export interface Program { name: string; sources: string[]; includes: string[] }

export function handWritten(): Program[] {
  return readdirSync(PROGRAMS_DIR).filter((f) => f.endsWith('.c')).sort()
    .map((f) => ({ name: f.replace(/\.c$/, ''), sources: [join(PROGRAMS_DIR, f)], includes: [] }));
}

export function csmith(seed: number): Program {
  return { name: `csmith-${seed}`, sources: [csmithProgram(seed)], includes: [CSMITH_INCLUDE] };
}

export function build(p: Program, march: string): Promise<string> {
  const tag = march === XCV ? 'xcv' : march;
  return compileCAsync(p.sources, join(scratchDir(), `${p.name}.${tag}.elf`), { march, extraIncludes: p.includes });
}

export interface Outcome {
  elf: string;
  qemu: NativeRun;
  /** Undefined when qemu timed out (the program is then skipped). */
  ours?: RunResult;
  oursMs: number;
  /** Why ours differs from qemu, or undefined when they agree. */
  mismatch?: string;
}

export function runOurs(m: Machine, elf: string, maxCycles: number): { ours: RunResult; oursMs: number } {
  const bytes = readBytes(elf);
  const t0 = performance.now();
  const ours = runElf(m, bytes, { maxCycles });
  return { ours, oursMs: performance.now() - t0 };
}

export function compare(q: NativeRun, r: RunResult): string | undefined {
  if (r.stopped !== 'exit') return `ours stopped by ${r.stopped}${r.trap ? ` (${r.trap.name} at 0x${r.trap.pc.toString(16)}: ${r.trap.disasm})` : ''}`;
  // Linux reports only the low 8 bits of the exit code; ours keeps all 32.
  if (((r.exitCode ?? 0) & 0xff) !== q.exitCode) return `exit code ${r.exitCode}, qemu ${q.exitCode}`;
  if (r.stdout !== q.stdout) {
    const a = r.stdout.split('\n');
    const b = q.stdout.split('\n');
    const i = a.findIndex((l, k) => l !== b[k]);
    return `stdout differs at line ${i + 1}: ours '${a[i]}', qemu '${b[i]}'`;
  }
  return undefined;
}

/** Builds and runs one program for one -march on both; the CORE-V build is checked against `reference`. */
export async function differential(m: Machine, p: Program, march: string, maxCycles: number, reference?: NativeRun, qemuTimeoutMs = 20_000): Promise<Outcome> {
  const elf = await build(p, march);
  const qemu = reference ?? await runQemuAsync(elf, qemuTimeoutMs);
  // A program qemu could not finish in time is not compared (nor run here).
  if (qemu.timedOut) return { elf, qemu, ours: undefined, oursMs: 0 };
  const { ours, oursMs } = runOurs(m, elf, maxCycles);
  return { elf, qemu, ours, oursMs, mismatch: compare(qemu, ours) };
}
