// npm run bench -- cc [--only compile,cycles,passes] : the playground's own C toolchain (src/sim/cc
// driver, src/sim/asm, src/sim/link) on the programs the playground builds, beside clang-19 +
// ld.lld-19 in the same run.
// compile:
//  1. Compile + link time of each built-in model's Siracusa program (default config), cold: every
//     C file of the program (generated files, kernel library, HAL, libc, crt0), no object cache.
//     Both sides compile the same files one after the other on one core; clang's time includes
//     its process starts, which is what a user of `--cc clang` pays too.
//  2. The edit loop in Node: microllama-decode built once (objects cached in memory), then one
//     kernel file changed (a comment added) -> rebuilt and run to a new Runtime.
//  3. Where the app compiles: microllama-prefill's build and the edit loop in a fresh Chromium
//     worker and a Node worker thread (cc-speed.ts's rows for those, measured in this run).
// cycles (issue #17's bar):
//  4. Simulated cycles of the program each toolchain builds (ours at -O2 with the CORE-V
//     selections, clang-19 -O2 with the CORE-V extensions): the total (`Runtime:`) and, from a
//     --profileTiling L2 build, the kernel cycles per layer kind and per kernel; on
//     microLlama64_parallel tiled at L1 64000 and 8000, each on the plain cluster and with
//     N-EUREKA, and on miniMobileNetv2 (8 cores). A verdict row per configuration and one for
//     all: the total below clang-19's, no layer kind over 1.1x (those over are named).
// passes:
//  5. The cycles each optimisation wins on microLlama64_parallel at L1 64000: the total with
//     all on, and with each (passList(), `dpg cc --passes`) turned off alone; also printed as a
//     markdown table on stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG, type Config } from '../src/compiler/config';
import type { CodegenResult } from '../src/compiler/codegen/types';
import { nodeMachine } from '../src/sim/node';
import { MemoryObjectCache, buildSiracusa, runBuiltin } from '../src/sim/run/builtin';
import { LIBRARY_SOURCES } from '../src/sim/run/sources';
import { parseRunOutput } from '../src/sim/run/host';
import { CLANG, LLD, SIRACUSA_FLAGS, linkWithLld, siracusaObjects, siracusaToolchain } from '../src/sim/run/simulate';
import { runSiracusa } from '../src/sim/siracusa';
import { loadFolder, planAndGenerate, type Folder } from '../src/testing/tiled-harness';
import { passList } from '../src/sim/cc/driver';
import type { Bench, BenchRow } from './harness';
import { workerRows } from './cc-speed';
import { sharedTest } from './paths';

const dir = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const KERNELS = dir('../src/compiler/kernels/');
const RUNTIME = dir('../src/compiler/runtime/');
const SIRACUSA_RT = join(RUNTIME, 'siracusa');
const LIBC = join(RUNTIME, 'libc');
const GEN = '/gen';
const EDITED = 'kernels/gemm.c';

const MODELS = ['adder', 'mini-mobilenetv2', 'mini-resnet', 'transformer-block', 'microllama-prefill', 'microllama-decode'];
const LLAMA = sharedTest('Models/microLlama/INT8/microLlama64_parallel');
/** The configurations of issue #17's cycle bar (8 cores, tiled; 'N-EUREKA' is the siracusa-neureka platform, else the plain cluster). */
const CYCLE_RUNS: { name: string; dir: string; config: Partial<Config> }[] = [
  { name: 'microLlama64_parallel, L1 64000', dir: LLAMA, config: { l1: 64_000 } },
  { name: 'microLlama64_parallel, L1 64000, N-EUREKA', dir: LLAMA, config: { l1: 64_000, platform: 'siracusa-neureka' } },
  { name: 'microLlama64_parallel, L1 8000', dir: LLAMA, config: { l1: 8_000 } },
  { name: 'microLlama64_parallel, L1 8000, N-EUREKA', dir: LLAMA, config: { l1: 8_000, platform: 'siracusa-neureka' } },
  { name: 'miniMobileNetv2', dir: sharedTest('Models/miniMobileNetv2'), config: {} },
];
const MAX_CYCLES = 2e9;

/** The program's sources, runtime first (the link order of `--cc clang`): [absolute or /gen path, kind]. */
function sources(code: CodegenResult): { path: string; kind: 'asm' | 'runtime' | 'program' | 'library' }[] {
  return [
    { path: join(SIRACUSA_RT, 'crt0.S'), kind: 'asm' as const },
    { path: join(RUNTIME, 'hal_siracusa.c'), kind: 'runtime' as const },
    { path: join(LIBC, 'libc.c'), kind: 'runtime' as const },
    ...code.files.filter((f) => f.path.endsWith('.c')).map((f) => ({ path: `${GEN}/${f.path}`, kind: 'program' as const })),
    ...readdirSync(KERNELS).filter((f) => f.endsWith('.c')).sort().map((f) => ({ path: join(KERNELS, f), kind: 'library' as const })),
  ];
}

export interface OurBuild { elf: Uint8Array; compileMs: number; linkMs: number; files: number; slowest: string }

/** The program built by our toolchain (`--cc builtin`'s build), cold: a fresh object cache. */
export async function buildOurs(code: CodegenResult): Promise<OurBuild> {
  const b = await buildSiracusa(code, 'siracusa', { cache: new MemoryObjectCache() });
  const slow = [...b.stats.units].sort((x, y) => y.ms - x.ms)[0];
  return { elf: b.link.elf, compileMs: b.stats.compileMs, linkMs: b.stats.linkMs, files: b.objects.length, slowest: slow ? `${slow.path} ${slow.ms.toFixed(0)} ms` : '' };
}

/** The same files with clang-19 (-c each, no cache) and ld.lld-19; returns the times. */
function buildClangCold(code: CodegenResult): { compileMs: number; linkMs: number } {
  const work = mkdtempSync(join(tmpdir(), 'dpg-cc-bench-'));
  try {
    for (const f of code.files) writeFileSync(join(work, f.path), f.content);
    const run = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
      if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.slice(0, 2000)}`);
    };
    const t0 = performance.now();
    const objs = sources(code).map((s, i) => {
      const src = s.path.startsWith(`${GEN}/`) ? join(work, s.path.slice(GEN.length + 1)) : s.path;
      const includes = s.kind === 'program' || s.kind === 'library' ? [work, KERNELS, RUNTIME] : [RUNTIME, SIRACUSA_RT];
      const out = join(work, `${i}.o`);
      run(CLANG, [...SIRACUSA_FLAGS, ...(s.kind === 'runtime' || s.kind === 'asm' ? ['-fno-builtin'] : []), ...includes.map((d) => `-I${d}`), '-c', src, '-o', out]);
      return out;
    });
    const t1 = performance.now();
    run(LLD, ['-T', join(SIRACUSA_RT, 'link.ld'), '--no-relax', '-o', join(work, 'network.elf'), ...objs]);
    return { compileMs: t1 - t0, linkMs: performance.now() - t1 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const failed = (e: unknown) => `failed: ${((e as Error).message ?? String(e)).split('\n')[0].slice(0, 160)}`;

async function compileRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const config: Config = { ...DEFAULT_CONFIG };
  // Warm-up, not measured: the first build of a process also pays for compiling our compiler's JavaScript.
  await buildOurs((await planAndGenerate(loadFolder(dir('../public/models/adder'), config), config)).code);
  for (const model of MODELS) {
    const { code } = await planAndGenerate(loadFolder(dir(`../public/models/${model}`), config), config);
    const bytes = code.files.reduce((s, f) => s + f.content.length, 0);
    let clang: { compileMs: number; linkMs: number } | undefined;
    let clangNote = '';
    try { clang = buildClangCold(code); } catch (e) { clangNote = `; clang-19 ${failed(e)}`; }
    const baseline = clang && { name: 'clang-19 + ld.lld-19', value: clang.compileMs + clang.linkMs };
    try {
      const ours = await buildOurs(code);
      rows.push({
        name: `cc: ${model} compile + link, builtin (Node)`, value: ours.compileMs + ours.linkMs, unit: 'ms', baseline,
        note: `${ours.files} files (generated ${(bytes / 1e6).toFixed(2)} MB); compile ${ours.compileMs.toFixed(0)} (slowest ${ours.slowest}), link ${ours.linkMs.toFixed(0)}${clang ? `; clang compile ${clang.compileMs.toFixed(0)}, lld ${clang.linkMs.toFixed(0)}` : ''}${clangNote}`,
      });
    } catch (e) {
      rows.push({ name: `cc: ${model} compile + link, builtin (Node)`, value: NaN, unit: 'ms', baseline, note: `${failed(e)}${clangNote}` });
    }
  }
  return rows;
}

/** microllama-decode: a warm build, then one kernel file edited -> rebuilt (that file only) and run. */
async function editLoopRows(): Promise<BenchRow[]> {
  const config: Config = { ...DEFAULT_CONFIG };
  const { code } = await planAndGenerate(loadFolder(dir('../public/models/microllama-decode'), config), config);
  const cache = new MemoryObjectCache();
  const machine = nodeMachine();
  const name = `cc: edit loop, ${EDITED} changed -> new Runtime, microllama-decode`;
  try {
    await runBuiltin(code, config, { cache, machine: () => machine });
    const t0 = performance.now();
    const r = await runBuiltin(code, config, { cache, machine: () => machine, edits: { [EDITED]: `${LIBRARY_SOURCES.get(EDITED)}\n/* edited */\n` } });
    const ms = performance.now() - t0;
    const b = r.sim?.build;
    return [
      { name: `${name} (Node)`, value: ms, unit: 'ms',
        note: `${b ? `${b.compiled} unit compiled, ${b.cached} cached; compile ${b.compileMs.toFixed(0)} ms, link ${b.linkMs.toFixed(0)} ms; ` : ''}run ${r.sim?.runMs.toFixed(0)} ms; Runtime ${r.cycles} cycles, Errors ${r.errors}` },
    ];
  } catch (e) {
    return [{ name: `${name} (Node)`, value: NaN, unit: 'ms', note: failed(e) }];
  }
}

/** Kernel cycles of one build: the Runtime line's total, and the --profileTiling L2 lines summed per layer kind and per kernel. */
interface CycleRun { runtime: number; errors?: number; perKind: Map<string, number>; perKernel: Map<string, number> }

/**
 * Kernel cycles per layer kind and per kernel (the library functions the layer calls; an NPU
 * layer by its engine) from the --profileTiling L2 lines, summed over tiles.
 */
function kernelCycles(stdout: string, code: CodegenResult): { perKind: Map<string, number>; perKernel: Map<string, number> } {
  const layer = new Map(code.layers.map((l) => [l.node, l]));
  const perKind = new Map<string, number>(), perKernel = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const m of stdout.matchAll(/^\[(.+)_L2\]\[\w+\]\[\d+ ops\]\[Tile \d+\] Kernel took (\d+) cycles$/gm)) {
    const l = layer.get(m[1]);
    add(perKind, l?.op ?? m[1], Number(m[2]));
    add(perKernel, !l ? m[1] : l.engine !== 'cluster' ? `${l.engine} (${l.op})` : l.calls.join(' + ') || l.kernel, Number(m[2]));
  }
  return { perKind, perKernel };
}

export async function simulate(elf: Uint8Array): Promise<{ stdout: string; cycles?: number; errors?: number; why?: string }> {
  const r = runSiracusa(await nodeMachine(), elf, { maxCycles: MAX_CYCLES });
  const out = parseRunOutput(r.stdout);
  const why = r.stopped !== 'exit' ? `stopped by ${r.stopped}${r.trap ? ` (${r.trap.name} at 0x${r.trap.pc.toString(16)}: ${r.trap.disasm})` : ''}` : undefined;
  return { stdout: r.stdout, cycles: out.cycles, errors: out.errors, why };
}

/** A configuration's two programs: as run, and with --profileTiling L2 (the per-kernel lines). */
export interface Programs { plain: CodegenResult; profiled: CodegenResult }

const folders = new Map<string, Folder>();
export async function programs(dirPath: string, overrides: Partial<Config>): Promise<Programs> {
  const config: Config = { ...DEFAULT_CONFIG, ...overrides };
  const key = `${dirPath}\0${config.platform}`;
  if (!folders.has(key)) folders.set(key, loadFolder(dirPath, config));
  const folder = folders.get(key)!;
  return { plain: (await planAndGenerate(folder, config)).code, profiled: (await planAndGenerate(folder, { ...config, profileTiling: 'L2' })).code };
}

async function measure(p: Programs, build: (code: CodegenResult) => Uint8Array | Promise<Uint8Array>): Promise<CycleRun> {
  const total = await simulate(await build(p.plain));
  if (total.why || total.cycles === undefined) throw new Error(total.why ?? 'no Runtime line');
  const prof = await simulate(await build(p.profiled));
  if (prof.why) throw new Error(`the profiled build ${prof.why}`);
  return { runtime: total.cycles, errors: total.errors, ...kernelCycles(prof.stdout, p.profiled) };
}

/** The bar of issue #17: no kernel (kind) slower than this against clang-19 -O2. */
const KERNEL_BAR = 1.1;

/** Our build for the cycle rows: one object cache per set of compile options (the library and runtime units are shared by every program). */
const cycleCaches = new Map<string, MemoryObjectCache>();
export async function ourElf(code: CodegenResult, disable: readonly string[] = []): Promise<Uint8Array> {
  const key = disable.join(',');
  if (!cycleCaches.has(key)) cycleCaches.set(key, new MemoryObjectCache());
  return (await buildSiracusa(code, 'siracusa', { cache: cycleCaches.get(key)!, disable })).link.elf;
}

export const clangElf = (code: CodegenResult) => { const { objects, linkScript } = siracusaObjects(code); return linkWithLld(objects, linkScript); };

/** The kinds (kernels) over the bar and their ratios, worst first (NaN: ours has none). */
function overBar(ours: Map<string, number>, clang: Map<string, number>): [string, number][] {
  return [...clang].map(([k, c]): [string, number] => [k, (ours.get(k) ?? NaN) / c])
    .filter(([, r]) => !(r <= KERNEL_BAR)).sort((a, b) => b[1] - a[1]);
}
const ratio = (r: number) => (Number.isNaN(r) ? 'missing' : `${r.toFixed(2)}x`);
const listed = (l: [string, number][]) => l.map(([k, r]) => `${k} ${ratio(r)}`).join(', ') || 'none';

/** Over all configurations: each name over the bar once, with its worst ratio and in how many configurations. */
function worstOf(l: [string, number][]): string {
  const by = new Map<string, { worst: number; n: number }>();
  for (const [k, r] of l) { const e = by.get(k) ?? { worst: 0, n: 0 }; by.set(k, { worst: Number.isNaN(r) || r > e.worst ? r : e.worst, n: e.n + 1 }); }
  return [...by].sort((a, b) => b[1].worst - a[1].worst).map(([k, e]) => `${k} (worst ${ratio(e.worst)}, ${e.n} of ${CYCLE_RUNS.length})`).join(', ');
}

async function cycleRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const verdict = { runs: 0, totalsOver: [] as string[], kindsOver: [] as [string, number][], kernelsOver: [] as [string, number][], failed: [] as string[] };
  for (const r of CYCLE_RUNS) {
    process.stderr.write(`  cc cycles: ${r.name}\n`);
    const p = await programs(r.dir, r.config);
    const clang = await measure(p, clangElf);
    let ours: CycleRun | undefined;
    let why = '';
    try { ours = await measure(p, (code) => ourElf(code)); } catch (e) { why = failed(e); }
    verdict.runs++;
    if (!ours || ours.errors !== 0) verdict.failed.push(`${r.name}: ${ours ? `Errors ${ours.errors}` : why}`);
    rows.push({
      name: `cc: ${r.name}, total cycles, builtin`, value: ours ? ours.runtime / 1e6 : NaN, unit: 'M cycles',
      baseline: { name: 'clang-19 -O2', value: clang.runtime / 1e6 },
      note: ours ? `Errors ${ours.errors} (clang ${clang.errors}); bar: below clang-19` : why,
    });
    const row = (what: string, o: number | undefined, c: number) => rows.push({
      name: `cc: ${r.name}, ${what}, builtin`, value: o !== undefined ? o / 1e6 : NaN, unit: 'M cycles',
      baseline: { name: 'clang-19 -O2', value: c / 1e6 }, note: !ours ? 'see the total' : o !== undefined && o / c > KERNEL_BAR ? `over the ${KERNEL_BAR}x bar` : '',
    });
    for (const [kind, c] of [...clang.perKind].sort((a, b) => b[1] - a[1])) row(`${kind} layers`, ours?.perKind.get(kind), c);
    // A kernel that is all of one layer kind (the same cycles on both sides) has its row already.
    const sameAsKind = (k: string, c: number) => [...clang.perKind].some(([kind, kc]) => kc === c && ours?.perKind.get(kind) === ours?.perKernel.get(k));
    for (const [kernel, c] of [...clang.perKernel].sort((a, b) => b[1] - a[1])) if (!sameAsKind(kernel, c)) row(`kernel ${kernel}`, ours?.perKernel.get(kernel), c);
    if (!ours) continue;
    const kinds = overBar(ours.perKind, clang.perKind), kernels = overBar(ours.perKernel, clang.perKernel);
    if (ours.runtime >= clang.runtime) verdict.totalsOver.push(`${r.name} ${(ours.runtime / clang.runtime).toFixed(3)}x`);
    verdict.kindsOver.push(...kinds);
    verdict.kernelsOver.push(...kernels);
    rows.push({
      name: `cc: ${r.name}, verdict`, value: ours.runtime / clang.runtime, unit: 'x clang',
      note: `total ${ours.runtime < clang.runtime ? 'below' : 'NOT below'} clang-19's; layer kinds over ${KERNEL_BAR}x: ${listed(kinds)}; kernels over ${KERNEL_BAR}x: ${listed(kernels)}`,
    });
  }
  const fails = verdict.totalsOver.length + verdict.kindsOver.length + verdict.failed.length;
  rows.push({
    name: `cc: verdict of issue #17 (${verdict.runs} configurations: total below clang-19 -O2, no layer kind over ${KERNEL_BAR}x)`, value: fails, unit: 'failures',
    note: fails === 0 ? `met${verdict.kernelsOver.length ? `; kernels over ${KERNEL_BAR}x (inside kinds that pass): ${worstOf(verdict.kernelsOver)}` : ''}`
      : [verdict.failed.length ? `failed runs: ${verdict.failed.join('; ')}` : '', verdict.totalsOver.length ? `totals not below clang: ${verdict.totalsOver.join('; ')}` : '',
        verdict.kindsOver.length ? `layer kinds over ${KERNEL_BAR}x: ${worstOf(verdict.kindsOver)}` : '', verdict.kernelsOver.length ? `kernels over ${KERNEL_BAR}x: ${worstOf(verdict.kernelsOver)}` : '']
        .filter(Boolean).join(' | '),
  });
  return rows;
}

/**
 * What each optimisation wins on microLlama64_parallel at L1 64000: the total cycles with
 * everything on, then with each one (passList() order) turned off alone; won = off - on. A
 * markdown table of the same goes to stderr (the closing note's table).
 */
async function passRows(): Promise<BenchRow[]> {
  const run = CYCLE_RUNS[0];
  const { plain } = await programs(run.dir, run.config);
  const total = async (disable: string[]): Promise<{ cycles?: number; errors?: number; why?: string }> => {
    try {
      const r = await simulate((await buildSiracusa(plain, 'siracusa', { cache: new MemoryObjectCache(), disable })).link.elf);
      return r.why || r.cycles === undefined ? { why: r.why ?? 'no Runtime line' } : r;
    } catch (e) {
      return { why: failed(e) };
    }
  };
  process.stderr.write(`  cc passes: ${run.name}, everything on\n`);
  const on = await total([]);
  const rows: BenchRow[] = [{
    name: `cc passes: ${run.name}, every optimisation on`, value: (on.cycles ?? NaN) / 1e6, unit: 'M cycles',
    note: on.why ?? `Errors ${on.errors}`,
  }];
  const md = ['| optimisation | stage | cycles without it | cycles won |', '|---|---|---:|---:|', `| (all on) | | ${on.cycles ?? '-'} | |`];
  for (const p of passList()) {
    process.stderr.write(`  cc passes: without ${p.name}\n`);
    const off = await total([p.name]);
    const won = off.cycles !== undefined && on.cycles !== undefined ? off.cycles - on.cycles : NaN;
    const bad = off.why ?? (off.errors !== 0 ? `Errors ${off.errors}: a miscompile with ${p.name} off` : '');
    rows.push({
      name: `cc passes: ${run.name}, without ${p.name} (${p.stage === 'ir' ? 'IR' : 'back end'})`, value: (off.cycles ?? NaN) / 1e6, unit: 'M cycles',
      baseline: on.cycles !== undefined ? { name: 'all on', value: on.cycles / 1e6 } : undefined,
      note: bad || `won ${won >= 0 ? '+' : ''}${won} cycles (${((won / on.cycles!) * 100).toFixed(2)}%)`,
    });
    md.push(`| ${p.name} | ${p.stage === 'ir' ? 'IR' : 'back end'} | ${off.cycles ?? '-'} | ${bad || won} |`);
  }
  process.stderr.write(`\nCycles each optimisation wins on ${run.name} (off alone - all on):\n${md.join('\n')}\n\n`);
  return rows;
}

/** `--only compile,cycles,passes`: the parts to run (default all). */
function parts(): Set<string> {
  const i = process.argv.indexOf('--only');
  const all = ['compile', 'cycles', 'passes'];
  if (i < 0) return new Set(all);
  const chosen = (process.argv[i + 1] ?? '').split(',').filter(Boolean);
  const unknown = chosen.filter((c) => !all.includes(c));
  if (!chosen.length || unknown.length) throw new Error(`--only takes a comma list of ${all.join(', ')}${unknown.length ? `, not ${unknown.join(', ')}` : ''}`);
  return new Set(chosen);
}

export const ccBench: Bench = {
  name: 'cc',
  run: async () => {
    if (!siracusaToolchain()) return [{ name: 'cc (clang-19 / ld.lld-19 missing)', value: NaN, unit: '' }];
    const only = parts();
    return [
      ...(only.has('compile') ? [...await compileRows(), ...await editLoopRows(), ...await workerRows(['microllama-prefill'], true)] : []),
      ...(only.has('cycles') ? await cycleRows() : []),
      ...(only.has('passes') ? await passRows() : []),
    ];
  },
};
