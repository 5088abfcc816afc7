// Helpers for the front end's tests: compile C snippets (optionally with the project's tiny libc
// for printf) and run them in the IR interpreter.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileToIr } from './compile';
import { filesFrom } from './fs';
import type { IrModule } from './ir';
import { runModule, type RunResult } from './interp';
import { optimize } from './opt';

const LIBC_DIR = fileURLToPath(new URL('../../compiler/runtime/libc/', import.meta.url));
let libcModule: IrModule | undefined;
let libcOptimised: IrModule | undefined;
/** The optimiser level runC uses (0: none); opt/opt-suite.test.ts reruns the suites with 2. */
let optLevel = Number(process.env.CC_OPT ?? 0) as 0 | 1 | 2;

/** Makes runC (and everything built on it) optimise the program and libc at `level`, checking the IR after every pass. */
export function setOptLevel(level: 0 | 1 | 2): void {
  optLevel = level;
}

function optimised(m: IrModule): IrModule {
  return optLevel ? optimize(m, { level: optLevel, verify: true }) : m;
}

/** The project's libc.c compiled by our front end (printf, memcpy, strlen, 64-bit division...). */
export function libc(): IrModule {
  if (!libcModule) {
    const files = filesFrom({ '/libc/libc.c': readFileSync(`${LIBC_DIR}libc.c`, 'utf8'), ...libcHeaders() });
    libcModule = compileToIr('/libc/libc.c', { files, systemPaths: ['/libc/include'] }).module;
  }
  return libcModule;
}

export function libcHeaders(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of ['assert.h', 'math.h', 'stdio.h', 'stdlib.h', 'string.h']) out[`/libc/include/${h}`] = readFileSync(`${LIBC_DIR}include/${h}`, 'utf8');
  return out;
}

export function compileSnippet(src: string, files: Record<string, string> = {}): IrModule {
  return compileToIr('/t/main.c', { files: filesFrom({ '/t/main.c': src, ...libcHeaders(), ...files }), systemPaths: ['/libc/include'] }).module;
}

/** Compiles and runs `src` with libc; returns the run (exit code, output). */
export function runC(src: string, files: Record<string, string> = {}): RunResult {
  let lib = libc();
  if (optLevel) {
    libcOptimised ??= optimised(compileToIr('/libc/libc.c', { files: filesFrom({ '/libc/libc.c': readFileSync(`${LIBC_DIR}libc.c`, 'utf8'), ...libcHeaders() }), systemPaths: ['/libc/include'] }).module);
    lib = libcOptimised;
  }
  const r = runModule([optimised(compileSnippet(src, files)), lib], { maxSteps: 5e7 });
  if (r.error) throw new Error(r.error);
  return r;
}

/** The message of the compile error `src` raises. */
export function ccError(src: string): string {
  try {
    compileSnippet(src);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a compile error');
}

/** A chibicc-style test program: ASSERT(expected, expr) checks and prints on failure. */
export const PRELUDE = `#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <string.h>
static int dpg_fails;
static void dpg_assert(long long want, long long got, const char *code, int line) {
  if (want != got) { printf("line %d: %s => %lld, want %lld\\n", line, code, got, want); dpg_fails++; }
}
#define ASSERT(want, expr) dpg_assert((long long)(want), (long long)(expr), #expr, __LINE__)
`;

/** Runs a test program whose main() ends with `return dpg_fails;`: no output and exit 0 means every ASSERT held. */
export function runAsserts(body: string): RunResult {
  return runC(PRELUDE + body);
}

/** Wraps statements in main() after the prelude (plus `defs` at file scope) and returns the failures' output ('' when every ASSERT held). */
export function asserts(body: string, defs = ''): string {
  const r = runAsserts(`${defs}\nint main(void) {\n${body}\n  return dpg_fails;\n}\n`);
  return r.exitCode === 0 ? r.stdout : `${r.stdout}exit ${r.exitCode}`;
}
