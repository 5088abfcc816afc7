// The builtin toolchain's run (--cc builtin, the browser's run stage): the adder program built
// from the embedded sources and run on the simulator, the object cache (an edit recompiles only
// the file it touched; on disk for the CLI), compile errors at the user's file:line:col, a trap
// naming its source line, the cycle limit and cancel. crt0.S through our preprocessor's
// assembler mode is clang's object.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import type { CodegenResult } from '../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { nodeMilp } from '../../pipeline/node/milp';
import { runPipeline } from '../../pipeline/run';
import { compareObjects } from '../asm/differential';
import { assemble } from '../asm';
import { assembleS } from '../cc/driver';
import { CcError } from '../cc/error';
import { filesFrom } from '../cc/fs';
import { nodeMachine } from '../node';
import { CLANG_19, missing } from '../../testing/requires';
import { buildSiracusa, MemoryObjectCache, prebuildSiracusa, runBuiltin, type BuiltinRunOptions } from './builtin';
import { DiskObjectCache, layeredCache } from './builtin-node';
import { RunError } from './error';
import { rejectionOf } from '../../testing/error-of';
import { LIBRARY_SOURCES } from './sources';

const ADDER = new URL('../../../public/models/adder/', import.meta.url);
const CONFIG: Config = { ...DEFAULT_CONFIG, platform: 'siracusa' };

async function codegen(config: Config = CONFIG): Promise<CodegenResult> {
  const f = (n: string) => new Uint8Array(readFileSync(new URL(n, ADDER)));
  let code: CodegenResult | undefined;
  await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config,
    (e) => { if (e.type === 'stage' && e.stage === 'codegen') code = e.result; }, { milp: nodeMilp, until: 'codegen' });
  return code!;
}

const machine = nodeMachine();
const opts = (more: Partial<BuiltinRunOptions> = {}): BuiltinRunOptions => ({ machine: () => machine, cache: new MemoryObjectCache(), ...more });

const thrown = (p: Promise<unknown>) => rejectionOf(p, PlaygroundError);

/** Network.c with `stmt` at the start of RunNetwork; the line it is on. */
function inject(code: CodegenResult, stmt: string): { edits: Record<string, string>; line: number } {
  const net = code.files.find((f) => f.path === 'Network.c')!.content;
  const at = net.indexOf('void RunNetwork(void) {');
  const text = `${net.slice(0, at)}void RunNetwork(void) {\n  ${stmt}${net.slice(at + 'void RunNetwork(void) {'.length)}`;
  return { edits: { 'Network.c': text }, line: net.slice(0, at).split('\n').length + 1 };
}

/** The Add kernel's arithmetic broken: every sum one more. */
const brokenAdd = () => ({
  'kernels/elementwise.c': LIBRARY_SOURCES.get('kernels/elementwise.c')!
    .replaceAll('op == DPG_ADD ? (u) + (v)', 'op == DPG_ADD ? (u) + (v) + 1').replaceAll('op == DPG_ADD ? u + v', 'op == DPG_ADD ? u + v + 1'),
});

describe('the object cache', () => {
  const unit = (tag: string) => ({ object: { sections: [], symbols: [], lines: [] }, asm: tag });
  it('reuses an object only while every file its compile read has the same text', () => {
    const cache = new MemoryObjectCache();
    const files = new Map([['/a.c', 'int a;'], ['/h.h', '#define X 1']]);
    const read = (p: string) => files.get(p);
    cache.put('k', '/a.c', [['/a.c', 'int a;'], ['/h.h', '#define X 1'], ['/dpg-cc/include/stdint.h', undefined]], unit('one'));
    expect(cache.get('k', '/a.c', read)?.asm).toBe('one');
    expect(cache.get('other', '/a.c', read)).toBeUndefined();
    files.set('/h.h', '#define X 2');
    expect(cache.get('k', '/a.c', read)).toBeUndefined();
    cache.put('k', '/a.c', [['/a.c', 'int a;'], ['/h.h', '#define X 2']], unit('two'));
    expect(cache.get('k', '/a.c', read)?.asm).toBe('two');
    // Editing back finds the first variant again.
    files.set('/h.h', '#define X 1');
    expect(cache.get('k', '/a.c', read)?.asm).toBe('one');
  });

  it('drops the least recently used units beyond its budget', () => {
    const cache = new MemoryObjectCache(4000);
    const read = () => 'x';
    for (const k of ['a', 'b', 'c', 'd']) cache.put(k, '/m', [['/m', 'x']], unit(k.repeat(1500)));
    expect(cache.get('a', '/m', read)).toBeUndefined();
    expect(cache.get('d', '/m', read)?.asm).toBe('d'.repeat(1500));
  });
});

describe.skipIf(missing(CLANG_19))('crt0.S', () => {
  it('preprocessed in assembler mode and assembled by us is clang-19\'s object of the same file', () => {
    const files = filesFrom(Object.fromEntries([...LIBRARY_SOURCES].map(([p, t]) => [`/${p}`, t])));
    const ours = assembleS('/runtime/siracusa/crt0.S', { files, includePaths: ['/runtime', '/runtime/siracusa'] }).object;
    const dir = mkdtempSync(join(tmpdir(), 'dpg-crt0-'));
    const crt0 = new URL('../../compiler/runtime/siracusa/crt0.S', import.meta.url);
    const pp = spawnSync('clang-19', ['--target=riscv32-unknown-elf', '-E', '-P', '-x', 'assembler-with-cpp', crt0.pathname], { encoding: 'utf8', cwd: dir });
    expect(pp.status, pp.stderr).toBe(0);
    expect(compareObjects(ours, assemble(pp.stdout, { file: 'crt0.S' })).differences).toEqual([]);
  });
});

describe('compile errors', () => {
  let code: CodegenResult;
  beforeAll(async () => { code = await codegen(); });

  it('name the user\'s file, line and column', async () => {
    const hal = LIBRARY_SOURCES.get('runtime/hal_siracusa.c')!.replace('#include "neureka.h"', '#include "neureka.h"\nint broken = ;');
    const line = hal.split('\n').findIndex((l) => l.startsWith('int broken')) + 1;
    const e = await thrown(buildSiracusa(code, 'siracusa', { edits: { 'runtime/hal_siracusa.c': hal }, cache: new MemoryObjectCache() }));
    expect(e).toBeInstanceOf(CcError);
    expect((e as CcError).pos).toEqual({ file: 'runtime/hal_siracusa.c', line, col: 14 });
    expect(e.data.where).toBe(`runtime/hal_siracusa.c:${line}:14`);
  });

  it('in a generated file, too', async () => {
    const { edits, line } = inject(code, 'int x = ;');
    const e = await thrown(buildSiracusa(code, 'siracusa', { edits, cache: new MemoryObjectCache() }));
    expect(e.data.where).toBe(`Network.c:${line}:11`);
    expect(e.data.code).toBe('bad-file');
  });

  it('an edit of a file the program does not have is refused', async () => {
    const e = await thrown(buildSiracusa(code, 'siracusa', { edits: { 'kernels/none.c': '' } }));
    expect(e.data).toMatchObject({ code: 'bad-config', where: 'kernels/none.c' });
  });
});

describe('adder built with the builtin toolchain', () => {
  let code: CodegenResult;
  beforeAll(async () => { code = await codegen(); });

  it('runs on the simulator: Errors: 0, and a second build takes every object from the cache', async () => {
    const cache = new MemoryObjectCache();
    const progress: string[] = [];
    const r = await runBuiltin(code, CONFIG, opts({ cache, progress: (_f, m) => progress.push(m) }));
    expect(r.compiler).toBe('builtin');
    expect(r.stdout).toMatch(/^Runtime: \d+ cycles$/m);
    expect(r.errors).toBe(0);
    expect(r.total).toBe(2048);
    expect(r.sim!.build!.cached).toBe(0);
    expect(progress.some((m) => /^compiling Network\.c \(\d+\/\d+\)$/.test(m))).toBe(true);
    expect(progress).toContain('linking 13 objects');
    const again = await runBuiltin(code, CONFIG, opts({ cache }));
    expect(again.sim!.build).toMatchObject({ compiled: 0, cached: 13 });
    expect(again.cycles).toBe(r.cycles);
  }, 120_000);

  it('prebuilt shared units (runtime, libc, kernels) leave a program its generated files to compile, to the same ELF', async () => {
    const cache = new MemoryObjectCache();
    const stop = new AbortController();
    stop.abort();
    expect(await prebuildSiracusa('siracusa', { cache, signal: stop.signal })).toBe(0);
    expect(await prebuildSiracusa('siracusa', { cache })).toBe(10);
    expect(await prebuildSiracusa('siracusa', { cache })).toBe(0);
    const b = await buildSiracusa(code, 'siracusa', { cache });
    expect(b.stats.units.map((u) => u.path)).toEqual(['Network.c', 'Network_weights.c', 'main.c']);
    expect(b.stats.cached).toBe(10);
    const fresh = await buildSiracusa(code, 'siracusa', { cache: new MemoryObjectCache() });
    expect(b.link.elf).toEqual(fresh.link.elf);
  }, 120_000);

  it('optimisations turned off are part of the cache key: every unit compiles again, and the program still runs', async () => {
    const cache = new MemoryObjectCache();
    const on = await runBuiltin(code, CONFIG, opts({ cache }));
    const off = await runBuiltin(code, CONFIG, opts({ cache, disable: ['hardware-loops', 'inline'] }));
    expect(off.sim!.build).toMatchObject({ compiled: 13, cached: 0 });
    expect(off.errors).toBe(0);
    expect(off.cycles).not.toBe(on.cycles);
    // The same set in another order is the same build.
    const again = await runBuiltin(code, CONFIG, opts({ cache, disable: ['inline', 'hardware-loops'] }));
    expect(again.sim!.build).toMatchObject({ compiled: 0, cached: 13 });
    const bad = await thrown(buildSiracusa(code, 'siracusa', { cache, disable: ['inlining'] }));
    expect(bad.data).toMatchObject({ code: 'bad-config', where: '--disable' });
    expect(bad.message).toContain("unknown optimisation 'inlining'");
  }, 120_000);

  it('an edit recompiles only the file it touched, and a broken kernel shows in Errors and the mismatches', async () => {
    const cache = new MemoryObjectCache();
    await runBuiltin(code, CONFIG, opts({ cache }));
    const r = await runBuiltin(code, CONFIG, opts({ cache, edits: brokenAdd() }));
    expect(r.sim!.build!.compiled).toBe(1);
    expect(r.sim!.build!.units.map((u) => u.path)).toEqual(['kernels/elementwise.c']);
    expect(r.errors).toBe(2048);
    expect(r.mismatches!.length).toBeGreaterThan(0);
    expect(r.mismatches![0]!.got).toBe(r.mismatches![0]!.expected + 1);
    // Reverted: the first object again, nothing compiled.
    const back = await runBuiltin(code, CONFIG, opts({ cache }));
    expect(back.sim!.build!.compiled).toBe(0);
    expect(back.errors).toBe(0);
  }, 120_000);

  it('a trap names the core, the function and the source line', async () => {
    const { edits, line } = inject(code, '*(volatile int *)4 = 1;');
    const e = await thrown(runBuiltin(code, CONFIG, opts({ edits })));
    expect(e).toBeInstanceOf(RunError);
    expect(e.data.where).toBe(`run: core 8 in RunNetwork (Network.c:${line})`);
    expect(e.data.what).toMatch(/^store access fault at pc 0x1c[0-9a-f]{6} /);
    expect((e as RunError).result.sim!.trap).toMatchObject({ fn: 'RunNetwork', line: `Network.c:${line}` });
  }, 120_000);

  it('an endless loop stops at the cycle limit, or on cancel', async () => {
    const { edits } = inject(code, 'for (volatile int i = 0; ; i++) {}');
    const limit = await thrown(runBuiltin(code, CONFIG, opts({ edits, maxCycles: 3e6 })));
    expect(limit.data.code).toBe('limit');
    expect((limit as RunError).result.sim!.instructions).toBeGreaterThan(1e5);
    const ctl = new AbortController();
    const cancelled = await thrown(runBuiltin(code, CONFIG, opts({
      edits, progress: (_f, m) => { if (/^simulating: /.test(m)) ctl.abort(); }, signal: ctl.signal,
    })));
    expect(cancelled.data.code).toBe('cancelled');
  }, 120_000);

  it('the CLI\'s disk cache serves a fresh process: nothing compiled twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-cc-cache-'));
    const first = await runBuiltin(code, CONFIG, opts({ cache: layeredCache(new MemoryObjectCache(), new DiskObjectCache(dir)) }));
    const second = await runBuiltin(code, CONFIG, opts({ cache: layeredCache(new MemoryObjectCache(), new DiskObjectCache(dir)) }));
    expect(first.sim!.build!.compiled).toBe(13);
    expect(second.sim!.build).toMatchObject({ compiled: 0, cached: 13 });
    expect(second.stdout).toBe(first.stdout);
  }, 120_000);
});
