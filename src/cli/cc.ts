// `dpg cc FILE.c`: one C file through the playground's own compiler (src/sim/cc), as the builtin
// toolchain builds the kernel library for Siracusa: CORE-V (DPG_XPULP defined), the kernel
// library's, the runtime's and the tiny libc's headers on the include path. Prints the assembly
// (or writes it to -o); --passes prints the optimisations in the order they run, each marked
// with whether it runs at the chosen -O level and --disable set.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, formatError } from '../common/errors';
import { compileC, formatPassList, passList } from '../sim/cc/driver';
import { CcError } from '../sim/cc/error';
import type { SourceFiles } from '../sim/cc/fs';
import { checkPassNames } from '../sim/cc/pass-info';
import type { CliOptions } from './args';

const dir = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
/** The library's folders: -I (kernels, runtime) and the libc's headers as system headers. */
const KERNELS = dir('../compiler/kernels/');
const RUNTIME = dir('../compiler/runtime/');
const LIBC_INCLUDE = dir('../compiler/runtime/libc/include/');

/** The files on disk, as the compiler's file system. */
const diskFiles: SourceFiles = {
  read: (p) => {
    try {
      return existsSync(p) && statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
};

/** Runs `dpg cc`; returns the exit status (0 ok, 2 a compile error or bad flags). */
export function ccCommand(opts: CliOptions, out: (s: string) => void, err: (s: string) => void): number {
  checkPassNames(opts.disable, passList());
  const level = opts.optLevel ?? 2;
  if (opts.passes) out(passListText(level, opts.disable));
  if (opts.file === undefined) return 0;
  const path = resolve(opts.file);
  if (diskFiles.read(path) === undefined) fail('bad-file', `cannot read ${opts.file}`, 'cc');
  let asm: string;
  try {
    asm = compileC(path, {
      files: diskFiles,
      includePaths: [...opts.includes.map((d) => resolve(d)), KERNELS, RUNTIME],
      systemPaths: [LIBC_INCLUDE],
      defines: ['DPG_XPULP', ...opts.defines],
      opt: level,
      disable: opts.disable,
    }).asm;
  } catch (e) {
    if (!(e instanceof CcError)) throw e;
    // file:line:col as the user named the file (relative to here when it is below).
    const shown = (f: string) => (f.startsWith(`${process.cwd()}/`) ? relative(process.cwd(), f) : f);
    err(`error: ${formatError({ ...e.data, where: `${shown(e.pos.file)}:${e.pos.line}:${e.pos.col}` })}`);
    return 2;
  }
  if (opts.output) {
    try {
      writeFileSync(opts.output, asm);
    } catch (e) {
      fail('bad-file', `cannot write ${opts.output}: ${(e as Error).message}`, '-o');
    }
    err(`wrote ${opts.output}`);
  } else out(asm.replace(/\n$/, ''));
  return 0;
}

/** The pass list with the ones that do not run (above the level, or disabled) marked. */
function passListText(level: 0 | 1 | 2, disable: readonly string[]): string {
  const off = new Map(passList().map((p) => [p.name, p.level > level ? `off at -O${level}` : disable.includes(p.name) ? 'off: --disable' : '']));
  return formatPassList().split('\n').map((line) => {
    const m = /^ {4}-O\d {2}(\S+)/.exec(line);
    const why = m && off.get(m[1]);
    return why ? `${line}  [${why}]` : line;
  }).join('\n');
}
