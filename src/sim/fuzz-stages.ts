// The fuzzer's stages past codegen (src/compiler/fuzz/stages.ts has the ones before), with the
// playground's own toolchain, as the browser's run stage and `dpg run --cc builtin` use it:
//   cc   the program compiled and linked (run/builtin.ts buildSiracusa: the runtime, every
//        generated file, the kernel library; objects cached, so the library compiles once per
//        process); generic code, which runs on the host, compiled file by file without a link;
//   run  the program on the simulator under a small cycle bound (run/builtin.ts runBuiltin, its
//        build all cache hits by then).
// Generated C must always compile and link, and a program that finishes must print `Errors: 0`:
// a compile error, a trap, a deadlock or a wrong output is 'internal' (a bug in codegen, the
// kernels or the toolchain), naming the file and line, or the core and pc. A program too large
// for a memory is the linker's 'does-not-fit' refusal; one stopped at the cycle bound is cut
// short ('bounded'), not refused. Pure TypeScript, like the compiler.
import { fail, PlaygroundError } from '../common/errors';
import type { CodegenResult } from '../compiler/codegen/types';
import type { FuzzStage } from '../compiler/fuzz/stages';
import { need } from '../compiler/fuzz/stages';
import { platformFor } from '../compiler/platforms';
import { compileC } from './cc/driver';
import { filesFrom } from './cc/fs';
import type { Machine } from './machine';
import { buildSiracusa, runBuiltin, type ObjectCache } from './run/builtin';
import { RunError } from './run/error';
import { LIBRARY_SOURCES } from './run/sources';
import type { RunResult } from './run/types';

/** What the stages build and run with: the object cache (kept across cases) and the simulator. */
export interface FuzzToolchain {
  cache: ObjectCache;
  machine: () => Promise<Machine>;
}

/** A refusal of the build that is not a bug: the program does not fit a memory. Anything else is one. */
function buildFailure(e: unknown, what: string): never {
  if (!(e instanceof PlaygroundError) || e.data.code === 'internal' || e.data.code === 'does-not-fit') throw e;
  fail('internal', `${what}: ${e.message}`, 'cc', 'a bug in codegen or in the C toolchain: the generated program must always build');
}

/** Generic code (host C) through our compiler, file by file: it has no Siracusa runtime to link with. */
function compileHostCode(code: CodegenResult): void {
  const files = new Map<string, string>();
  for (const [path, text] of LIBRARY_SOURCES) files.set(`/${path}`, text);
  for (const f of code.files) files.set(`/${f.path}`, f.content);
  for (const f of code.files) {
    if (!f.path.endsWith('.c')) continue;
    try {
      compileC(`/${f.path}`, { files: filesFrom(files), includePaths: ['/', '/kernels', '/runtime'], systemPaths: ['/runtime/libc/include'], xpulp: false });
    } catch (e) {
      buildFailure(e, 'the generated C does not compile');
    }
  }
}

/** Our compiler and linker on the generated program. */
export function ccStage(tc: FuzzToolchain): FuzzStage {
  return {
    name: 'cc',
    run: async (s) => {
      const code = need(s.code, 'generated code');
      const runtime = platformFor(s.config.platform).runtime;
      if (!runtime) return compileHostCode(code);
      try {
        await buildSiracusa(code, runtime, { cache: tc.cache });
      } catch (e) {
        buildFailure(e, 'the generated program does not build');
      }
    },
  };
}

/**
 * The program on the simulator, at most `maxCycles` cycles. Generic code (host C) is not run
 * here: the case ends 'ok', `skipped`.
 */
export function runStage(tc: FuzzToolchain, maxCycles: number): FuzzStage {
  return {
    name: 'run',
    run: async (s) => {
      const code = need(s.code, 'generated code');
      if (!platformFor(s.config.platform).runtime) {
        s.skipped = `${s.config.platform} code runs on the host, not on the simulator`;
        return;
      }
      let r: RunResult;
      try {
        r = await runBuiltin(code, s.config, { cache: tc.cache, machine: tc.machine, maxCycles });
      } catch (e) {
        if (e instanceof RunError && e.data.code === 'limit') {
          s.bounded = `stopped at the ${maxCycles}-cycle bound`;
          return;
        }
        if (e instanceof RunError)
          fail('internal', `${e.data.what}${e.result.stdout ? `; it printed: ${e.result.stdout.slice(-300)}` : ''}`, e.data.where, e.data.hint);
        throw e;
      }
      if (r.errors === undefined || r.total === undefined)
        fail('internal', `the program exited (${r.exitCode}) without its Errors line; it printed: ${r.stdout.slice(-300) || 'nothing'}`, 'run');
      if (r.errors > 0 || r.total !== code.totalOutputs || r.exitCode !== 0)
        fail('internal', `the program's outputs differ from the reference interpreter's: Errors: ${r.errors} out of ${r.total} ` +
          `(${code.totalOutputs} expected), exit ${r.exitCode}; ${(r.mismatches ?? []).slice(0, 3).map((m) =>
            `output ${m.output}[${m.index}] = ${m.got}, expected ${m.expected}`).join('; ')}`,
        'run', 'a bug in codegen, the kernel library or the toolchain');
    },
  };
}
