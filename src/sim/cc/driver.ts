// The compiler driver: one C (or preprocessed assembly) file of an in-memory file system -> an
// object (AsmObject, which the linker takes directly) and its assembly text. Preprocess, parse,
// lower to IR, optimise (opt/), select RV32 instructions and allocate registers (rv/), assemble.
// Pure TypeScript: the pipeline worker and the CLI run the same code.
import { assemble } from '../asm/assembler';
import type { AsmObject } from '../asm/types';
import { compileToIr } from './compile';
import type { SourceFiles } from './fs';
import type { IrModule } from './ir';
import { OPT_PASSES, optimize, type OptStage } from './opt';
import { checkPassNames } from './pass-info';
import { preprocess, tokensToText } from './preprocess';
import { generateAsm } from './rv';
import { RV_PASSES } from './rv/passes';

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
  /** Optimisations not to run, by name (passList()); an unknown name is a bad-config error listing the known ones. */
  disable?: readonly string[];
}

/** One optimisation of the pass list: the IR optimiser's, then the back end's, in the order they run. */
export interface PassListEntry {
  stage: 'ir' | 'rv';
  name: string;
  doc: string;
  /** The lowest -O level that runs it. */
  level: 1 | 2;
  /** Where in its stage it runs: the IR optimiser's schedule (opt/index.ts), or the back end's isel / layout. */
  where: OptStage | 'isel' | 'layout';
  /** Only with the CORE-V extensions. */
  corev?: boolean;
}

/** Every optimisation the compiler can run, in order: what `dpg cc --passes` prints and `disable` names. */
export function passList(): PassListEntry[] {
  return [
    ...OPT_PASSES.map((p): PassListEntry => ({ stage: 'ir', name: p.name, doc: p.doc, level: p.level, where: p.stage })),
    ...RV_PASSES.map((p): PassListEntry => ({ stage: 'rv', name: p.name, doc: p.doc, level: p.level, where: p.where, corev: p.corev })),
  ];
}

/** The pass list as text: one line per pass (level, name, what it does), the schedule's structure in the headings. */
export function formatPassList(): string {
  const list = passList();
  const w = Math.max(...list.map((p) => p.name.length));
  const HEAD: Record<PassListEntry['where'], string> = {
    module: 'on the module',
    scalar: 'per function: the scalar clean-up, to a fixed point; it also follows every function pass below that changes something',
    function: 'per function, once',
    rounds: 'per function, repeated while they find work',
    isel: 'instruction selection (CORE-V forms)',
    layout: 'block layout, around register allocation',
  };
  const lines: string[] = [];
  let last = '';
  for (const p of list) {
    if (p.stage !== last) lines.push(p.stage === 'ir' ? 'IR optimiser (src/sim/cc/opt), in order:' : 'back end (src/sim/cc/rv), in order:');
    const prev = lines.length && list[list.indexOf(p) - 1];
    if (!prev || prev.stage !== p.stage || prev.where !== p.where) lines.push(`  ${HEAD[p.where]}`);
    lines.push(`    -O${p.level}  ${p.name.padEnd(w)}  ${p.doc}`);
    last = p.stage;
  }
  return lines.join('\n');
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
  const { ir, rv } = splitDisabled(opts.disable ?? []);
  const fe = compileToIr(path, { files: opts.files, includePaths: opts.includePaths, systemPaths: opts.systemPaths, defines: opts.defines });
  const t0 = performance.now();
  const level = opts.opt ?? 2;
  const module: IrModule = level > 0 ? optimize(fe.module, { level: level as 1 | 2, noBuiltin: opts.noBuiltin, disable: ir }) : fe.module;
  const t1 = performance.now();
  const gen = generateAsm(module, { file: path, xpulp: opts.xpulp ?? true, noBuiltin: opts.noBuiltin, level, disable: rv });
  const t2 = performance.now();
  const object = assemble(gen.text, { file: `${path}.s`, blobs: gen.blobs, relaxCoreVBranches: true });
  const t3 = performance.now();
  return { object, asm: gen.text, files: fe.files, ms: { ...fe.ms, opt: t1 - t0, codegen: t2 - t1, assemble: t3 - t2 } };
}

/** `disable` checked against the whole pass list (before any work), then split by stage. */
function splitDisabled(names: readonly string[]): { ir: string[]; rv: string[] } {
  checkPassNames(names, passList());
  return { ir: names.filter((n) => OPT_PASSES.some((p) => p.name === n)), rv: names.filter((n) => RV_PASSES.some((p) => p.name === n)) };
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
