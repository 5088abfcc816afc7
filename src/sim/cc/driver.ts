// The compiler driver: one C (or preprocessed assembly) file of an in-memory file system -> an
// object (AsmObject, which the linker takes directly) and its assembly text. Preprocess, parse,
// lower to IR, optimise (opt/), select RV32 instructions and allocate registers (rv/), assemble.
// Pure TypeScript: the pipeline worker and the CLI run the same code.
import { assemble } from '../asm/assembler';
import type { AsmObject } from '../asm/types';
import { compileToIr } from './compile';
import type { SourceFiles } from './fs';
import type { IrModule } from './ir';
import { optimize } from './opt';
import { preprocess, tokensToText } from './preprocess';
import { pruneUnreachable } from './prune';
import { generateAsm } from './rv';

export interface CcOptions {
  files: SourceFiles;
  /** -I directories. */
  includePaths?: readonly string[];
  /** -isystem directories (searched before our freestanding headers). */
  systemPaths?: readonly string[];
  /** -D: NAME or NAME=VALUE. */
  defines?: readonly string[];
  /** IR optimisation level: 0 none, 2 the full set (the default). */
  opt?: 0 | 1 | 2;
  /** CORE-V selections (post-increment loads, min/max/clip, branch-with-immediate). Default true. */
  xpulp?: boolean;
  /** -fno-builtin: memset / memcpy loops stay loops (the libc that defines them). */
  noBuiltin?: boolean;
}

export interface CompiledObject {
  object: AsmObject;
  /** The assembly the back end wrote (what the code pane shows beside the C). */
  asm: string;
  /** Every file read, the main file first (cache keys). */
  files: string[];
  /** Milliseconds per stage. */
  ms: Record<string, number>;
}

/** Compiles one C file to an object. Throws a CcError (file:line:col: message) on the first error. */
export function compileC(path: string, opts: CcOptions): CompiledObject {
  const fe = compileToIr(path, { files: opts.files, includePaths: opts.includePaths, systemPaths: opts.systemPaths, defines: opts.defines });
  const t0 = performance.now();
  if ((opts.opt ?? 2) >= 2) pruneUnreachable(fe.module);
  const module: IrModule = (opts.opt ?? 2) > 0 ? optimize(fe.module, { level: (opts.opt ?? 2) as 1 | 2, noBuiltin: opts.noBuiltin }) : fe.module;
  const t1 = performance.now();
  const gen = generateAsm(module, { file: path, xpulp: opts.xpulp ?? true, noBuiltin: opts.noBuiltin });
  const t2 = performance.now();
  const object = assemble(gen.text, { file: `${path}.s`, blobs: gen.blobs, relaxCoreVBranches: true });
  const t3 = performance.now();
  return { object, asm: gen.text, files: fe.files, ms: { ...fe.ms, opt: t1 - t0, codegen: t2 - t1, assemble: t3 - t2 } };
}

/** Preprocesses and assembles a .S file (crt0.S). */
export function assembleS(path: string, opts: CcOptions): CompiledObject {
  const t0 = performance.now();
  const pp = preprocess(path, { files: opts.files, includePaths: opts.includePaths, systemPaths: opts.systemPaths, defines: [...(opts.defines ?? []), '__ASSEMBLER__'], assembler: true });
  const text = tokensToText(pp.tokens);
  const t1 = performance.now();
  const object = assemble(text, { file: path });
  return { object, asm: text, files: pp.files, ms: { preprocess: t1 - t0, assemble: performance.now() - t1 } };
}
