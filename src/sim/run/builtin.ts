// `--cc builtin` and the browser's run stage: the generated Siracusa program built with the
// playground's own toolchain (src/sim/cc: compileC / assembleS; src/sim/link) and run on the
// simulator. Pure TypeScript: the pipeline worker and the CLI run the same code; the caller gives
// the machine (the wasm core loads differently in Node and in the browser) and the object cache.
//
// The program is what `--cc clang` builds (simulate.ts), with the same defines and include
// folders, in the same link order: the runtime (crt0.S, hal_siracusa.c and the tiny libc, these
// two without builtins), the generated C files, the kernel library. Sources live in an in-memory
// file system: the generated files at the root ('/Network.c'), the library under /kernels and
// /runtime (sources.ts embeds them); the code pane's edits replace files by their path.
import { fail, PlaygroundError } from '../../common/errors';
import type { CodegenResult } from '../../compiler/codegen/types';
import type { Config } from '../../compiler/config';
import { platformFor } from '../../compiler/platforms';
import { AsmError } from '../asm/types';
import type { AsmObject } from '../asm/types';
import { assembleS, compileC, passList, type CcOptions, type CompiledObject } from '../cc/driver';
import { checkPassNames } from '../cc/pass-info';
import { CcError } from '../cc/error';
import type { SourceFiles } from '../cc/fs';
import { linkSiracusa, sourceAt, type LinkResult } from '../link';
import type { Machine } from '../machine';
import { CONTROLLER, SiracusaRun } from '../siracusa';
import { MAX_CYCLES, simulatorResult, statsOf } from './outcome';
import { LIBRARY_SOURCES } from './sources';
import { buildProfile, profileSetup } from '../profile/build';
import { programView } from '../profile/program';
import type { BuildStats, RunContext, RunResult, Runner } from './types';

/** RunResult.compiler of a builtin build. */
export const BUILTIN_COMPILER = 'builtin';

/** A compiled translation unit as the cache keeps it. */
export interface CachedUnit {
  object: AsmObject;
  asm: string;
  /** The files its compile read (set by caches that keep them as hashes: the next layer re-reads them). */
  files?: readonly string[];
}

/** The files a unit read and their text then (undefined: not one of ours, e.g. a freestanding header). */
export type UnitDeps = readonly (readonly [path: string, text: string | undefined])[];

/**
 * Compiled objects by unit (path and options: `key`) and content: an entry is reused only when
 * every file its compile read has the same text now, so an edit recompiles the units it touched.
 */
export interface ObjectCache {
  get(key: string, main: string, read: (path: string) => string | undefined): CachedUnit | undefined;
  put(key: string, main: string, deps: UnitDeps, unit: CachedUnit): void;
}

/** The in-memory cache (the worker keeps one across runs): least recently used out beyond `maxBytes` of objects. */
export class MemoryObjectCache implements ObjectCache {
  private readonly entries = new Map<string, { deps: UnitDeps; unit: CachedUnit; bytes: number }[]>();
  private bytes = 0;
  static readonly VARIANTS = 4;
  constructor(private readonly maxBytes = 256 << 20) {}

  get(key: string, _main: string, read: (path: string) => string | undefined): CachedUnit | undefined {
    const list = this.entries.get(key);
    const at = list?.findIndex((e) => e.deps.every(([p, t]) => read(p) === t)) ?? -1;
    if (!list || at < 0) return undefined;
    const [e] = list.splice(at, 1);
    list.unshift(e);
    // Map order is the recency order: re-insert the key.
    this.entries.delete(key);
    this.entries.set(key, list);
    return e.unit;
  }

  put(key: string, _main: string, deps: UnitDeps, unit: CachedUnit): void {
    // The objects' bytes, the assembly, and the texts the entry keeps alive to compare with.
    const bytes = unit.object.sections.reduce((s, x) => s + x.data.length, 0) + unit.asm.length
      + deps.reduce((s, [, t]) => s + (t?.length ?? 0), 0) + 1024;
    const list = this.entries.get(key) ?? [];
    this.entries.delete(key);
    list.unshift({ deps, unit, bytes });
    this.bytes += bytes;
    // A few variants per unit (a file edited back and forth); the oldest units go first.
    while (list.length > MemoryObjectCache.VARIANTS) this.bytes -= list.pop()!.bytes;
    this.entries.set(key, list);
    for (const [k, l] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (k === key) continue;
      while (l.length && this.bytes > this.maxBytes) this.bytes -= l.pop()!.bytes;
      if (!l.length) this.entries.delete(k);
    }
  }

  get size(): number { return [...this.entries.values()].reduce((s, l) => s + l.length, 0); }
  clear(): void { this.entries.clear(); this.bytes = 0; }
}

/** One translation unit of the program. */
interface Unit {
  /** The file's path as the user sees it ('Network.c', 'kernels/gemm.c'). */
  path: string;
  kind: 'runtime' | 'program' | 'library';
  asm: boolean;
  opts: Omit<CcOptions, 'files'>;
}

const LIBC_INCLUDE = '/runtime/libc/include';
/** The builds' -D flags: CORE-V Xpulp code paths (RV32_FLAGS.xpulp). */
const DEFINES = ['DPG_XPULP'];

/** The virtual path of a file the user names by `path`. */
const virtual = (path: string) => `/${path}`;
/** The user's name of a virtual path. */
const shown = (path: string) => path.replace(/^\//, '');

/** How the units are compiled: the -O level and the optimisations turned off (passList() names). */
interface CompileChoices { opt: 0 | 1 | 2; disable?: readonly string[] }

/** The options every unit shares; `disable` only when it names something (the cache keys of default builds stay as they were). */
const baseOpts = (c: CompileChoices) => ({ systemPaths: [LIBC_INCLUDE], defines: DEFINES, opt: c.opt, xpulp: true, ...(c.disable?.length ? { disable: [...c.disable].sort() } : {}) });

/** The program's units in link order, as `--cc clang` links them. */
function unitsOf(code: CodegenResult, runtime: string, c: CompileChoices): Unit[] {
  const shared = sharedUnits(runtime, c);
  const base = baseOpts(c);
  const programOpts = { ...base, includePaths: ['/', '/kernels', '/runtime'] };
  return [
    ...shared.filter((u) => u.kind === 'runtime'),
    ...code.files.filter((f) => f.path.endsWith('.c')).map((f): Unit => ({ path: f.path, kind: 'program', asm: false, opts: programOpts })),
    ...shared.filter((u) => u.kind === 'library'),
  ];
}

/** The units every program of the runtime links (crt0, the HAL, the libc, the kernel library): they read no generated file. */
function sharedUnits(runtime: string, c: CompileChoices): Unit[] {
  const rt = `runtime/${runtime}`;
  const base = baseOpts(c);
  const runtimeOpts = { ...base, includePaths: ['/runtime', `/${rt}`], noBuiltin: true };
  const libraryOpts = { ...base, includePaths: ['/kernels', '/runtime'] };
  const kernels = [...LIBRARY_SOURCES.keys()].filter((p) => /^kernels\/[^/]+\.c$/.test(p)).sort();
  return [
    { path: `${rt}/crt0.S`, kind: 'runtime', asm: true, opts: runtimeOpts },
    { path: 'runtime/hal_siracusa.c', kind: 'runtime', asm: false, opts: runtimeOpts },
    { path: 'runtime/libc/libc.c', kind: 'runtime', asm: false, opts: runtimeOpts },
    ...kernels.map((path): Unit => ({ path, kind: 'library', asm: false, opts: libraryOpts })),
  ];
}

/** A unit's cache key: its path and options; program units also search the root, where the generated files are, so their names are part of it. */
function keyOf(u: Unit, generated: string): string {
  return `${u.asm ? 'S' : 'C'}\0${u.path}\0${JSON.stringify(u.opts)}${u.kind === 'program' ? `\0${generated}` : ''}`;
}

/** The file system of one build: edits over the generated files over the library. */
function fileSystem(generatedFiles: CodegenResult['files'], edits: Readonly<Record<string, string>>): SourceFiles & { has(path: string): boolean } {
  const files = new Map<string, string>();
  for (const [path, text] of LIBRARY_SOURCES) files.set(virtual(path), text);
  for (const f of generatedFiles) files.set(virtual(f.path), f.content);
  for (const [path, text] of Object.entries(edits)) {
    if (!files.has(virtual(path)))
      fail('bad-config', `the edited file ${path} is not part of this program`, path, 'revert the edit; the program has other files now');
    files.set(virtual(path), text);
  }
  return { read: (p) => files.get(p), has: (p) => files.has(p) };
}

/** A compile error at the user's path; anything else thrown while compiling `unit` becomes an error naming it. */
function asUserError(e: unknown, unit: Unit): unknown {
  if (e instanceof CcError) return new CcError({ ...e.pos, file: shown(e.pos.file) }, e.msg, e.data.hint);
  if (e instanceof AsmError && unit.asm) return new CcError({ file: shown(e.loc.file), line: e.loc.line, col: e.loc.column }, e.what);
  if (e instanceof PlaygroundError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new PlaygroundError({
    code: 'internal', where: unit.path, what: `the builtin compiler failed on ${unit.path}: ${msg}`,
    hint: 'a bug in the playground\'s C compiler; --cc clang builds the same program with clang-19',
  });
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function checkCancel(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) fail('cancelled', `the run was cancelled while ${what}`, 'run');
}

export interface BuildOptions extends RunContext {
  cache?: ObjectCache;
  /** IR optimisation level (default 2). */
  opt?: 0 | 1 | 2;
  /** Optimisations not to run, by name (the compiler's passList(); part of the object cache's key). */
  disable?: readonly string[];
}

export interface BuiltProgram {
  link: LinkResult;
  stats: BuildStats;
  /** The objects in link order, named `<path>.o`. */
  objects: { name: string; object: AsmObject }[];
}

/** Compiles one unit and keeps its object in the cache; a compile error is the user's error (asUserError). */
function compileUnit(unit: Unit, key: string, fs: SourceFiles, cache: ObjectCache): { c: CompiledObject; entry: CachedUnit } {
  let c: CompiledObject;
  try {
    c = (unit.asm ? assembleS : compileC)(virtual(unit.path), { ...unit.opts, files: fs });
  } catch (e) {
    throw asUserError(e, unit);
  }
  const entry = { object: c.object, asm: c.asm };
  cache.put(key, virtual(unit.path), c.files.map((p) => [p, fs.read(p)] as const), entry);
  return { c, entry };
}

/** The default cache of this thread (the worker's across runs, the CLI's for one process). */
export const DEFAULT_CACHE = new MemoryObjectCache();

/**
 * Compiles the program's units (from the cache where their files did not change) and links them
 * with Siracusa's memory map. A compile error is a CcError at the user's file:line:col.
 */
export async function buildSiracusa(code: CodegenResult, runtime: string, opts: BuildOptions = {}): Promise<BuiltProgram> {
  const cache = opts.cache ?? DEFAULT_CACHE;
  const fs = fileSystem(code.files, opts.edits ?? {});
  checkPassNames(opts.disable ?? [], passList());
  const units = unitsOf(code, runtime, { opt: opts.opt ?? 2, disable: opts.disable });
  const generated = code.files.map((f) => f.path).sort().join('\n');
  const t0 = performance.now();
  const stats: BuildStats = { compiled: 0, cached: 0, compileMs: 0, linkMs: 0, units: [] };
  const objects: { name: string; object: AsmObject }[] = [];
  const todo: { unit: Unit; key: string }[] = [];
  const found = new Map<Unit, CachedUnit>();
  for (const unit of units) {
    const key = keyOf(unit, generated);
    const hit = cache.get(key, virtual(unit.path), fs.read);
    if (hit) found.set(unit, hit);
    else todo.push({ unit, key });
  }
  // The edited files first: an error there shows without waiting for the rest.
  const edited = (u: Unit) => (opts.edits && u.path in opts.edits ? 0 : 1);
  todo.sort((a, b) => edited(a.unit) - edited(b.unit));
  let done = 0;
  for (const { unit, key } of todo) {
    checkCancel(opts.signal, `compiling ${unit.path}`);
    opts.progress?.(0.5 * done / todo.length, `compiling ${unit.path} (${done + 1}/${todo.length})`);
    await tick();
    const u0 = performance.now();
    const { c, entry } = compileUnit(unit, key, fs, cache);
    found.set(unit, entry);
    stats.units.push({ path: unit.path, ms: performance.now() - u0, stages: c.ms });
    done++;
  }
  for (const unit of units) objects.push({ name: `${unit.path}.o`, object: found.get(unit)!.object });
  stats.compiled = todo.length;
  stats.cached = units.length - todo.length;
  const t1 = performance.now();
  checkCancel(opts.signal, 'linking');
  opts.progress?.(0.5, `linking ${units.length} objects`);
  await tick();
  const link = linkSiracusa(objects);
  stats.compileMs = t1 - t0;
  stats.linkMs = performance.now() - t1;
  return { link, stats, objects };
}

export interface PrebuildOptions {
  cache?: ObjectCache;
  /** IR optimisation level (default 2, as the builds' default). */
  opt?: 0 | 1 | 2;
  /** Optimisations not to run (as BuildOptions.disable). */
  disable?: readonly string[];
  /** Aborted: stop before the next unit. */
  signal?: AbortSignal;
}

/**
 * Compiles the units every program of `runtime` shares (crt0, the HAL, the libc, the kernel
 * library: they read no generated file) into the cache, ahead of any build, one unit at a time
 * with the thread free between units; `signal` stops it. A worker calls it while idle: the first
 * build of a program then compiles only its generated files, and the compiler's code is warm in
 * the JIT by then. Returns how many units it compiled (the others were cached already).
 */
export async function prebuildSiracusa(runtime: string, opts: PrebuildOptions = {}): Promise<number> {
  const cache = opts.cache ?? DEFAULT_CACHE;
  const fs = fileSystem([], {});
  let compiled = 0;
  for (const unit of sharedUnits(runtime, { opt: opts.opt ?? 2, disable: opts.disable })) {
    const key = keyOf(unit, '');
    if (cache.get(key, virtual(unit.path), fs.read)) continue;
    await tick();
    if (opts.signal?.aborted) break;
    compileUnit(unit, key, fs, cache);
    compiled++;
  }
  return compiled;
}

export interface BuiltinRunOptions extends BuildOptions {
  /** The simulator (one machine, reused run after run). */
  machine: () => Promise<Machine>;
}

/**
 * `--cc builtin`: builds the program with the playground's toolchain, runs it on the simulator
 * (chunk by chunk: progress in simulated cycles, cancel through the signal) and returns the run
 * stage's result. A trap names its function and source line from the link's line table; a trap,
 * the cycle limit, a cancel or a deadlock is a RunError carrying the result so far.
 */
export async function runBuiltin(code: CodegenResult, config: Config, opts: BuiltinRunOptions): Promise<RunResult> {
  const platform = platformFor(config.platform);
  if (!platform.runtime)
    fail('bad-config', `${platform.title} code has no Siracusa runtime to run on the simulator`, '--cc builtin', `use --cc host for -p ${config.platform}`);
  const t0 = performance.now();
  const built = await buildSiracusa(code, platform.runtime, opts);
  const machine = await opts.machine();
  const t1 = performance.now();
  const maxCycles = opts.maxCycles ?? MAX_CYCLES;
  const network = opts.edits?.['Network.c'] ?? code.files.find((f) => f.path === 'Network.c')?.content ?? '';
  const profile = opts.profile ? profileSetup(code, built.link.lines, network) : undefined;
  const run = new SiracusaRun(machine, built.link.elf, { maxCycles, shouldStop: () => !!opts.signal?.aborted, profile, idealFetch: opts.idealFetch });
  opts.progress?.(0.55, 'simulating');
  let r = run.step();
  while (!r) {
    opts.progress?.(0.55, `simulating: ${(machine.cycles(CONTROLLER) / 1e6).toFixed(1)} M cycles`);
    await tick();
    r = run.step();
  }
  const t2 = performance.now();
  const sim = statsOf(r, t1 - t0, t2 - t1);
  sim.build = built.stats;
  const t3 = performance.now();
  const prof = r.profile && buildProfile({ raw: r.profile, code, lines: built.link.lines, cores: r.cores, total: r.cycles });
  if (prof) sim.profileMs = performance.now() - t3;
  const result = simulatorResult(r, { compiler: BUILTIN_COMPILER, sim, maxCycles, sourceAt: (pc) => sourceAt(built.link, pc), profile: prof, layers: code.layers });
  if (opts.profile) result.program = programView(built.link);
  return result;
}

/** The run stage's runner with the builtin toolchain: the context's progress, signal and edits go to runBuiltin. */
export function builtinRunner(opts: Omit<BuiltinRunOptions, keyof RunContext>): Runner {
  return (code, config, ctx = {}) => runBuiltin(code, config, { ...opts, ...ctx });
}

export { MAX_CYCLES };
