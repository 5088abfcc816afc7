// npm run bench -- cc : the playground's own C toolchain (src/sim/cc driver, src/sim/asm,
// src/sim/link) on the programs the playground builds, beside clang-19 + ld.lld-19 in the same run.
//  1. Compile + link time of each built-in model's Siracusa program (default config), cold: every
//     C file of the program (generated files, kernel library, HAL, libc, crt0), no object cache.
//     Both sides compile the same files one after the other on one core; clang's time includes
//     its process starts, which is what a user of `--cc clang` pays too.
//  2. Simulated cycles of the program each toolchain builds (ours at -O2 with the CORE-V
//     selections, clang-19 -O2 with the CORE-V extensions): the total (`Runtime:`) and, from a
//     --profileTiling L2 build, the kernel cycles per layer kind; on microLlama64_parallel tiled at
//     L1 64000 and on miniMobileNetv2 (8 cores).
// 3. The edit loop in Node: microllama-decode built once (objects cached in memory), then one
//    kernel file changed (a comment added) -> rebuilt and run to a new Runtime.
// 4. Where the app compiles: microllama-prefill's build and the edit loop in a fresh Chromium
//    worker and a Node worker thread (cc-speed.ts's rows for those, measured in this run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG, type Config } from '../src/compiler/config';
import type { CodegenResult } from '../src/compiler/codegen/types';
import type { TilePlan } from '../src/compiler/tiling/types';
import { nodeMachine } from '../src/sim/node';
import { MemoryObjectCache, buildSiracusa, runBuiltin } from '../src/sim/run/builtin';
import { LIBRARY_SOURCES } from '../src/sim/run/sources';
import { parseRunOutput } from '../src/sim/run/host';
import { CLANG, LLD, SIRACUSA_FLAGS, linkWithLld, siracusaObjects, siracusaToolchain } from '../src/sim/run/simulate';
import { runSiracusa } from '../src/sim/siracusa';
import { loadFolder, planAndGenerate } from '../src/testing/tiled-harness';
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
const CYCLE_RUNS = [
  { name: 'microLlama64_parallel, L1 64000', dir: sharedTest('Models/microLlama/INT8/microLlama64_parallel'), config: { l1: 64_000 } },
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

const failed = (e: unknown) => `failed: ${((e as Error).message ?? String(e)).split('\n')[0].slice(0, 160)}`;

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

interface CycleRun { runtime: number; errors?: number; perKind: Map<string, number> }

/** Kernel cycles per layer kind from the --profileTiling L2 lines, summed over tiles. */
function kernelCyclesByKind(stdout: string, plan: TilePlan): Map<string, number> {
  const opOf = new Map(plan.tilings.map((t) => [t.node, t.op]));
  const out = new Map<string, number>();
  for (const m of stdout.matchAll(/^\[(.+)_L2\]\[\w+\]\[\d+ ops\]\[Tile \d+\] Kernel took (\d+) cycles$/gm)) {
    const kind = opOf.get(m[1]) ?? m[1];
    out.set(kind, (out.get(kind) ?? 0) + Number(m[2]));
  }
  return out;
}

async function simulate(elf: Uint8Array): Promise<{ stdout: string; cycles?: number; errors?: number; why?: string }> {
  const r = runSiracusa(await nodeMachine(), elf, { maxCycles: MAX_CYCLES });
  const out = parseRunOutput(r.stdout);
  const why = r.stopped !== 'exit' ? `stopped by ${r.stopped}${r.trap ? ` (${r.trap.name} at 0x${r.trap.pc.toString(16)}: ${r.trap.disasm})` : ''}` : undefined;
  return { stdout: r.stdout, cycles: out.cycles, errors: out.errors, why };
}

async function measure(dirPath: string, overrides: Partial<Config>, build: (code: CodegenResult) => Uint8Array | Promise<Uint8Array>): Promise<CycleRun> {
  const config: Config = { ...DEFAULT_CONFIG, ...overrides };
  const folder = loadFolder(dirPath, config);
  const plain = await planAndGenerate(folder, config);
  const total = await simulate(await build(plain.code));
  if (total.why || total.cycles === undefined) throw new Error(total.why ?? 'no Runtime line');
  const prof = await planAndGenerate(folder, { ...config, profileTiling: 'L2' });
  const p = await simulate(await build(prof.code));
  if (p.why) throw new Error(`the profiled build ${p.why}`);
  return { runtime: total.cycles, errors: total.errors, perKind: kernelCyclesByKind(p.stdout, prof.plan) };
}

async function cycleRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const clangBuild = (code: CodegenResult) => { const { objects, linkScript } = siracusaObjects(code); return linkWithLld(objects, linkScript); };
  for (const r of CYCLE_RUNS) {
    const clang = await measure(r.dir, r.config, clangBuild);
    let ours: CycleRun | undefined;
    let why = '';
    try { ours = await measure(r.dir, r.config, async (code) => (await buildOurs(code)).elf); } catch (e) { why = failed(e); }
    rows.push({
      name: `cc: ${r.name}, total cycles, builtin`, value: ours ? ours.runtime / 1e6 : NaN, unit: 'M cycles',
      baseline: { name: 'clang-19 -O2', value: clang.runtime / 1e6 },
      note: ours ? `Errors ${ours.errors} (clang ${clang.errors}); bar: within 1.5x` : why,
    });
    for (const [kind, c] of [...clang.perKind].sort((a, b) => b[1] - a[1])) {
      const o = ours?.perKind.get(kind);
      rows.push({
        name: `cc: ${r.name}, ${kind} kernels, builtin`, value: o !== undefined ? o / 1e6 : NaN, unit: 'M cycles',
        baseline: { name: 'clang-19 -O2', value: c / 1e6 }, note: ours ? '' : 'see the total',
      });
    }
  }
  return rows;
}

export const ccBench: Bench = {
  name: 'cc',
  run: async () => {
    if (!siracusaToolchain()) return [{ name: 'cc (clang-19 / ld.lld-19 missing)', value: NaN, unit: '' }];
    return [...await compileRows(), ...await editLoopRows(), ...await workerRows(['microllama-prefill'], true), ...await cycleRows()];
  },
};
