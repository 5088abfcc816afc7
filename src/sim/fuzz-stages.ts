// The fuzzer's stages past codegen (src/compiler/fuzz/stages.ts has the ones before): every C
// file the codegen stage generated goes through our C compiler ('cc': to an object), then the whole program is
// built and run on the simulator under a small cycle bound ('run', with the runner the host
// gives: Node's are in src/sim/run). Pure TypeScript, like the compiler: the library's sources
// come in as an in-memory file system.
// Generated C must always compile, and a program that finishes must print `Errors: 0`: a
// compile error, a trap, a deadlock or a wrong output is reported as 'internal' (a bug, in
// codegen or the toolchain), naming the file and line, or the core and pc. A program stopped at
// the cycle bound is cut short ('bounded'), not refused.
import { fail, PlaygroundError } from '../common/errors';
import type { FuzzStage } from '../compiler/fuzz/stages';
import { need } from '../compiler/fuzz/stages';
import { compileToIr } from './cc/compile';
import { compileC } from './cc/driver';
import { filesFrom, overlay, type SourceFiles } from './cc/fs';
import type { CodegenResult } from '../compiler/codegen/types';
import type { Config } from '../compiler/config';
import { RunError } from './run/error';
import type { RunResult } from './run/types';
import { platformFor } from '../compiler/platforms';

/** The kernel library, the runtime and the tiny libc as our compiler sees them. */
export interface CLibrary {
  files: SourceFiles;
  /** -I directories (kernels, runtime, the platform's runtime folder). */
  includePaths: readonly string[];
  /** The tiny libc's headers. */
  systemPaths: readonly string[];
}

/** Where the generated files sit in the compiler's file system (first on the include path). */
export const GENERATED_DIR = '/gen';

/** -D flags of the program's build: the Siracusa build's (CORE-V Xpulp), none for the host build of generic code. */
export function programDefines(code: CodegenResult): string[] {
  return platformFor(code.platform as Parameters<typeof platformFor>[0]).runtime ? ['DPG_XPULP'] : [];
}

/**
 * Our C compiler on one generated C file: the front end only (preprocess, parse, lower to IR),
 * or the whole compile to an object (optimiser, RV32 back end, assembler). A compile error
 * becomes an internal error: generated C must always compile.
 */
export function compileGenerated(code: CodegenResult, path: string, lib: CLibrary, whole: boolean): void {
  const generated = filesFrom(new Map(code.files.map((f) => [`${GENERATED_DIR}/${f.path}`, f.content])));
  const opts = {
    files: overlay(generated, lib.files), defines: programDefines(code),
    includePaths: [GENERATED_DIR, ...lib.includePaths], systemPaths: lib.systemPaths,
  };
  try {
    if (whole) compileC(`${GENERATED_DIR}/${path}`, { ...opts, xpulp: programDefines(code).includes('DPG_XPULP') });
    else compileToIr(`${GENERATED_DIR}/${path}`, opts);
  } catch (e) {
    if (!(e instanceof PlaygroundError) || e.data.code === 'internal') throw e;
    // Generated C that our compiler refuses: codegen wrote bad C, or the compiler refused good C.
    fail('internal', `the generated C does not compile: ${e.message}`, `cc ${path}`,
      'a bug in codegen or in the C compiler: the generated program must always compile');
  }
}

/**
 * Our C compiler on every generated .c file (the kernel library does not change from case to
 * case): the whole compile to objects, or with `frontEndOnly` preprocess, parse and lower to IR.
 */
export function ccStage(lib: CLibrary, opts: { frontEndOnly?: boolean } = {}): FuzzStage {
  return {
    name: 'cc',
    run: (s) => {
      const code = need(s.code, 'generated code');
      for (const f of code.files) if (f.path.endsWith('.c')) compileGenerated(code, f.path, lib, !opts.frontEndOnly);
    },
  };
}

/** Builds the program and runs it on the simulator for at most `maxCycles`; a RunError when it does not exit. */
export type FuzzRunner = (code: CodegenResult, config: Config, maxCycles: number) => Promise<RunResult> | RunResult;

/**
 * The program built and run on the simulator, at most `maxCycles` cycles. Programs for platforms
 * without a Siracusa runtime (generic: host C) are not run (the case ends 'ok', `skipped`).
 */
export function runStage(runner: FuzzRunner, maxCycles: number): FuzzStage {
  return {
    name: 'run',
    run: async (s) => {
      const code = need(s.code, 'generated code');
      if (!platformFor(s.config.platform).runtime) {
        s.skipped = `${s.config.platform} code is not run on the simulator`;
        return;
      }
      let r: RunResult;
      try {
        r = await runner(code, s.config, maxCycles);
      } catch (e) {
        if (e instanceof RunError && e.data.code === 'limit') {
          s.bounded = `stopped at the ${maxCycles}-cycle bound`;
          return;
        }
        if (e instanceof RunError) fail('internal', `${e.data.what}${e.result.stdout ? `; it printed: ${e.result.stdout.slice(-300)}` : ''}`, e.data.where, e.data.hint);
        throw e;
      }
      if (r.errors === undefined || r.total === undefined)
        fail('internal', `the program exited (${r.exitCode}) without its Errors line; it printed: ${r.stdout.slice(-300) || 'nothing'}`, 'run');
      if (r.errors > 0 || r.total !== code.totalOutputs || r.exitCode !== 0)
        fail('internal', `the program's outputs differ from the reference interpreter's: Errors: ${r.errors} out of ${r.total} ` +
          `(${code.totalOutputs} expected), exit ${r.exitCode}; ${r.stdout.split('\n').filter((l) => l.startsWith('Mismatch')).slice(0, 3).join('; ')}`,
          'run', 'a bug in codegen, the kernel library or the toolchain');
    },
  };
}
