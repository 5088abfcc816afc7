// Bare programs built by the playground's own toolchain (src/sim/cc driver, src/sim/asm, src/sim/link)
// with the same runtime the clang-19 builds use (crt0.S, sys.c, the tiny libc, link.ld's layout):
// the C test suite and the csmith differential run them on the simulator beside clang-19's builds.
// Node-only (reads the runtime from disk); the toolchain it drives is pure TypeScript.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeElf } from '../asm';
import { assembleS, compileC, type CcOptions, type CompiledObject } from '../cc/driver';
import { filesFrom, overlay, type SourceFiles } from '../cc/fs';
import { DISCARDED, L2_SECTIONS, link, type Layout, type LinkInput, type LinkResult } from '../link';
import { LIBC_DIR, RUNTIME_DIR } from './toolchain';

const L2_BASE = 0x1c00_0000;
const L2_BYTES = 2 << 20;
const STACK_BYTES = 0x40000;

/**
 * The runtime's link.ld as a layout: everything in L2, .bss zeroed by crt0, the 256 KiB stack at
 * the top of the 2 MiB (link.ld puts it right after .bss; only its top matters to crt0).
 */
export const BARE_LAYOUT: Layout = {
  memories: [{ name: 'L2', base: L2_BASE, bytes: L2_BYTES, title: 'L2' }],
  rules: [
    ...L2_SECTIONS,
  ],
  discard: DISCARDED,
  symbols: { __stack_top: L2_BASE + L2_BYTES, __stack_bottom: L2_BASE + L2_BYTES - STACK_BYTES },
  ceilings: [{ rule: '.bss', symbol: '__stack_bottom', above: 'the stack' }],
  entry: '_start',
};

const LIBC_INCLUDE = '/libc/include';

function readDir(dir: string, prefix: string, ext: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir)) if (ext.test(f)) out[`${prefix}/${f}`] = readFileSync(join(dir, f), 'utf8');
  return out;
}

/** The runtime's sources in the in-memory file system: /rt/crt0.S, /rt/sys.c, /libc/libc.c, /libc/include/*.h. */
export function runtimeFiles(): Record<string, string> {
  return {
    ...readDir(RUNTIME_DIR, '/rt', /\.(c|S)$/),
    '/libc/libc.c': readFileSync(join(LIBC_DIR, 'libc.c'), 'utf8'),
    ...readDir(join(LIBC_DIR, 'include'), LIBC_INCLUDE, /\.h$/),
  };
}

export interface BuiltinOptions {
  /** CORE-V selections in our back end (default true). */
  xpulp?: boolean;
  opt?: 0 | 1 | 2;
  /** Optimisations not to run in the program's sources (the runtime is built with all of them). */
  disable?: readonly string[];
}

const runtimeCache = new Map<string, CompiledObject[]>();

/** crt0, sys.c and libc.c compiled by our toolchain (cached per options). */
export function runtimeObjects(o: BuiltinOptions = {}): CompiledObject[] {
  const key = JSON.stringify(o);
  let objs = runtimeCache.get(key);
  if (!objs) {
    const files = filesFrom(runtimeFiles());
    const base: CcOptions = { files, systemPaths: [LIBC_INCLUDE], xpulp: o.xpulp, opt: o.opt };
    objs = [
      assembleS('/rt/crt0.S', base),
      compileC('/rt/sys.c', base),
      compileC('/libc/libc.c', { ...base, noBuiltin: true }),
    ];
    runtimeCache.set(key, objs);
  }
  return objs;
}

export interface BuiltinBuild {
  link: LinkResult;
  /** The assembly of each object we compiled (runtime first, then the sources). */
  asm: string[];
  /** Milliseconds: compiling the program's sources, then linking. */
  compileMs: number;
  linkMs: number;
}

/**
 * Compiles `sources` (paths in `files`) with our compiler, links them with the runtime compiled by
 * our compiler and returns the executable. `files` may hold headers beside the sources.
 */
export function buildBuiltin(sources: string[], files: SourceFiles | Record<string, string>, o: BuiltinOptions & { includePaths?: string[]; defines?: string[]; extra?: LinkInput[] } = {}): BuiltinBuild {
  const fs = overlay(typeof (files as SourceFiles).read === 'function' ? files as SourceFiles : filesFrom(files as Record<string, string>), filesFrom(runtimeFiles()));
  const t0 = performance.now();
  const objs = sources.map((s) => compileC(s, { files: fs, includePaths: o.includePaths, systemPaths: [LIBC_INCLUDE], defines: o.defines, xpulp: o.xpulp, opt: o.opt, disable: o.disable }));
  const t1 = performance.now();
  const ours = [...runtimeObjects({ xpulp: o.xpulp, opt: o.opt }), ...objs];
  const inputs: LinkInput[] = ours.map((c, i) => ({
    name: i < 3 ? ['crt0.o', 'sys.o', 'libc.o'][i] : `${sources[i - 3].replace(/.*\//, '')}.o`,
    bytes: writeElf(c.object),
  }));
  const result = link([...inputs, ...(o.extra ?? [])], BARE_LAYOUT);
  return { link: result, asm: ours.map((c) => c.asm), compileMs: t1 - t0, linkMs: performance.now() - t1 };
}
