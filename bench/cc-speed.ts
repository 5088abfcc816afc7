// npm run bench -- cc-speed : how fast the playground's own C toolchain builds the programs it
// runs, where the app runs it, beside clang-19 on the same files in the same run.
//  1. Compile + link of each built-in model's Siracusa program (default config, every unit, no
//     object cache), in a fresh worker: Chromium's Worker and a Node worker thread, running the
//     toolchain as Vite bundles it for the app (bench/cc-speed-worker.ts). The first build of a
//     worker is cold (the JIT has seen none of the compiler's code: the app's first run); the
//     second, in the same worker, is warm. The note splits the cold build by stage (summed over
//     the units: preprocess, parse, lower, opt, codegen, assemble, link).
//     Baseline: clang-19 -c (the `--cc clang` flags) of the same files one after the other, then
//     ld.lld-19; process starts included, which is what `--cc clang` pays too.
//     A third fresh Chromium worker first runs prebuildSiracusa (what the app's worker can do while
//     idle: crt0, HAL, libc and kernels), then builds: the program's generated files only.
//  2. The edit loop on microllama-decode: the program run once (objects cached in the worker),
//     then kernels/gemm.c changed -> rebuilt (that unit only), linked and run to a new Runtime.
// `-- cc-speed --quick`: adder and microllama-prefill only; `--models=a,b`: those (the edit loop
// only with microllama-decode among them).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM, launchChromium } from '../e2e/browser';
import type { CodegenResult } from '../src/compiler/codegen/types';
import { DEFAULT_CONFIG, type Config, type PlatformName } from '../src/compiler/config';
import { platformFor } from '../src/compiler/platforms';
import { simWasmBytes } from '../src/sim/node';
import { LIBRARY_SOURCES } from '../src/sim/run/sources';
import { CLANG, LLD, SIRACUSA_FLAGS, siracusaToolchain } from '../src/sim/run/simulate';
import { loadFolder, planAndGenerate } from '../src/testing/tiled-harness';
import type { BuildFigures, CcSpeedReply, CcSpeedRequest, EditFigures, PrebuiltFigures } from './cc-speed-worker';
import type { Bench, BenchRow } from './harness';

const dir = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const KERNELS = dir('../src/compiler/kernels/');
const RUNTIME = dir('../src/compiler/runtime/');
const MODELS = ['adder', 'mini-mobilenetv2', 'mini-resnet', 'transformer-block', 'microllama-decode', 'microllama-prefill'];
const QUICK = ['adder', 'microllama-prefill'];
const EDITED = 'kernels/gemm.c';
const STAGES = ['preprocess', 'parse', 'lower', 'opt', 'codegen', 'assemble', 'link'];

/** The worker as the app would ship it: one ES module, bundled by Vite (Rolldown), not minified. */
export async function bundleWorker(): Promise<string> {
  const out = await build({
    configFile: false, logLevel: 'silent',
    build: { write: false, target: 'es2022', minify: false, lib: { entry: dir('./cc-speed-worker.ts'), formats: ['es'], fileName: 'cc-speed-worker' } },
  });
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : []));
  const js = chunks.filter((c) => c.type === 'chunk');
  if (js.length !== 1 || js[0].type !== 'chunk') throw new Error(`the worker bundle has ${js.length} chunks, expected one`);
  return js[0].code;
}

/** A Node worker thread running the bundle, with the Web Worker globals it uses; one request, then it ends. */
export async function inNodeWorker(bundlePath: string, req: CcSpeedRequest): Promise<CcSpeedReply> {
  const shim = `
    const { parentPort, workerData } = require('node:worker_threads');
    globalThis.self = globalThis;
    globalThis.postMessage = (m) => parentPort.postMessage(m);
    parentPort.on('message', (data) => globalThis.onmessage && globalThis.onmessage({ data }));
    import(workerData.url);`;
  const w = new Worker(shim, { eval: true, workerData: { url: `file://${bundlePath}` } });
  try {
    return await new Promise<CcSpeedReply>((resolve, reject) => {
      w.on('error', reject);
      w.on('message', (m: 'ready' | CcSpeedReply) => { if (m === 'ready') w.postMessage(req); else resolve(m); });
    });
  } finally {
    await w.terminate();
  }
}

/** Serves an empty page and the bundle (/worker.mjs) on 127.0.0.1: a module worker needs an origin. */
export async function serve(bundle: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    if (req.url === '/worker.mjs') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end(bundle); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>cc-speed</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** A fresh Chromium Worker running the bundle, one request. */
export async function inChromiumWorker(page: Page, req: CcSpeedRequest): Promise<CcSpeedReply> {
  return page.evaluate(async (req) => {
    const w = new window.Worker('/worker.mjs', { type: 'module' });
    try {
      return await new Promise<CcSpeedReply>((resolve, reject) => {
        w.onerror = (e) => reject(new Error(`the worker failed: ${e.message}`));
        w.onmessage = (m: MessageEvent<'ready' | CcSpeedReply>) => { if (m.data === 'ready') w.postMessage(req); else resolve(m.data); };
      });
    } finally {
      w.terminate();
    }
  }, req);
}

/** clang-19 -c of every unit of the program (the `--cc clang` flags), then ld.lld-19: wall milliseconds. */
function clangBuild(code: CodegenResult): { compileMs: number; linkMs: number; slowest: string } {
  const work = mkdtempSync(join(tmpdir(), 'dpg-cc-speed-'));
  try {
    for (const f of code.files) writeFileSync(join(work, f.path), f.content);
    const rt = join(RUNTIME, platformFor(code.platform as PlatformName).runtime!);
    const runtimeFlags = [...SIRACUSA_FLAGS, '-fno-builtin', `-I${RUNTIME}`, `-I${rt}`];
    const programFlags = [...SIRACUSA_FLAGS, `-I${work}`, `-I${KERNELS}`, `-I${RUNTIME}`];
    const units: [string, string[]][] = [
      [join(rt, 'crt0.S'), runtimeFlags], [join(RUNTIME, 'hal_siracusa.c'), runtimeFlags], [join(RUNTIME, 'libc/libc.c'), runtimeFlags],
      ...code.files.filter((f) => f.path.endsWith('.c')).map((f): [string, string[]] => [join(work, f.path), programFlags]),
      ...[...LIBRARY_SOURCES.keys()].filter((p) => /^kernels\/[^/]+\.c$/.test(p)).sort().map((p): [string, string[]] => [join(KERNELS, p.slice(8)), programFlags]),
    ];
    const run = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
      if (r.status !== 0) throw new Error(`${cmd} failed: ${(r.stderr || r.error?.message || '').slice(0, 500)}`);
    };
    let slow = { ms: 0, path: '' };
    const t0 = performance.now();
    const objs = units.map(([src, flags], i) => {
      const out = join(work, `${i}.o`);
      const u0 = performance.now();
      run(CLANG, [...flags, '-c', src, '-o', out]);
      const ms = performance.now() - u0;
      if (ms > slow.ms) slow = { ms, path: src.replace(`${work}/`, '').replace(`${KERNELS}`, 'kernels/') };
      return out;
    });
    const t1 = performance.now();
    run(LLD, ['-T', join(rt, 'link.ld'), '--no-relax', '-o', join(work, 'network.elf'), ...objs]);
    return { compileMs: t1 - t0, linkMs: performance.now() - t1, slowest: `${slow.path} ${slow.ms.toFixed(0)} ms` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const failed = (e: unknown) => `failed: ${((e as Error).message ?? String(e)).split('\n')[0].slice(0, 200)}`;
const stageNote = (f: BuildFigures) => STAGES.map((s) => `${s} ${(f.stages[s] ?? 0).toFixed(0)}`).join(', ');

function buildRows(where: string, model: string, reply: CcSpeedReply, baseline: BenchRow['baseline'], clangNote: string): BenchRow[] {
  const name = (what: string) => `cc-speed: ${model} compile + link, ${what} (${where})`;
  if ('error' in reply) return [{ name: name('cold'), value: NaN, unit: 'ms', baseline, note: failed(new Error(reply.error)) }];
  const [cold, warm] = reply.ok as BuildFigures[];
  return [
    { name: name('cold worker'), value: cold.ms, unit: 'ms', baseline, note: `${stageNote(cold)}; slowest ${cold.slowest}${clangNote}` },
    { name: name('warm'), value: warm.ms, unit: 'ms', baseline, note: `${stageNote(warm)}; slowest ${warm.slowest}` },
  ];
}

export const ccSpeedBench: Bench = {
  name: 'cc-speed',
  run: () => {
    const pick = process.argv.find((a) => a.startsWith('--models='));
    const models = pick ? pick.slice(9).split(',') : process.argv.includes('--quick') ? QUICK : MODELS;
    return workerRows(models, !pick || models.includes('microllama-decode'));
  },
};

/** The rows above for these models (and the edit loop when asked); `npm run bench -- cc` shows them for microllama too. */
export async function workerRows(models: string[], editLoop: boolean): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const config: Config = { ...DEFAULT_CONFIG };
  const bundle = await bundleWorker();
  const work = mkdtempSync(join(tmpdir(), 'dpg-cc-speed-worker-'));
  const bundlePath = join(work, 'cc-speed-worker.mjs');
  writeFileSync(bundlePath, bundle);
  const hasClang = siracusaToolchain();
  const server = await serve(bundle);
  const chromium = existsSync(CHROMIUM) ? await launchChromium().catch(() => undefined) : undefined;
  const page = chromium && await chromium.newPage();
  try {
    await page?.goto(server.url);
    for (const model of models) {
      process.stderr.write(`  cc-speed: ${model}\n`);
      const { code } = await planAndGenerate(loadFolder(dir(`../public/models/${model}`), config), config);
      const runtime = platformFor(code.platform as PlatformName).runtime!;
      let baseline: BenchRow['baseline'];
      let clangNote = '';
      if (hasClang) {
        try {
          const c = clangBuild(code);
          baseline = { name: 'clang-19 -c + ld.lld-19', value: c.compileMs + c.linkMs };
          clangNote = `; clang compile ${c.compileMs.toFixed(0)} (slowest ${c.slowest}), lld ${c.linkMs.toFixed(0)}`;
        } catch (e) { clangNote = `; clang-19 ${failed(e)}`; }
      } else clangNote = '; no clang-19 / ld.lld-19 for the baseline';
      const req: CcSpeedRequest = { kind: 'build', code, runtime, times: 2 };
      rows.push(...buildRows('Node worker', model, await inNodeWorker(bundlePath, req), baseline, clangNote));
      if (page) {
        rows.push(...buildRows('Chromium worker', model, await inChromiumWorker(page, req).catch((e) => ({ error: String(e) })), baseline, clangNote));
        const pre = await inChromiumWorker(page, { kind: 'prebuilt', code, runtime }).catch((e): CcSpeedReply => ({ error: String(e) }));
        const name = `cc-speed: ${model} compile + link, shared units prebuilt (Chromium worker)`;
        if ('error' in pre) rows.push({ name, value: NaN, unit: 'ms', note: failed(new Error(pre.error)) });
        else {
          const p = pre.ok as PrebuiltFigures;
          rows.push({ name, value: p.build.ms, unit: 'ms', baseline, note: `the generated files only, after prebuildSiracusa (${p.prebuildMs.toFixed(0)} ms in the same fresh worker); ${stageNote(p.build)}` });
        }
      }
      else rows.push({ name: `cc-speed: ${model} compile + link (Chromium worker)`, value: NaN, unit: 'ms', note: `not measured: ${CHROMIUM} not found` });
    }
    // The edit loop.
    if (!editLoop) return rows;
    const { code } = await planAndGenerate(loadFolder(dir('../public/models/microllama-decode'), config), config);
    const wasmBase64 = Buffer.from(await simWasmBytes()).toString('base64');
    const req: CcSpeedRequest = { kind: 'edit', code, config, wasmBase64, file: EDITED, text: `${LIBRARY_SOURCES.get(EDITED)}\n/* edited */\n` };
    const editRow = (where: string, reply: CcSpeedReply): BenchRow => {
      const name = `cc-speed: edit loop, ${EDITED} changed -> new Runtime, microllama-decode (${where})`;
      if ('error' in reply) return { name, value: NaN, unit: 'ms', note: failed(new Error(reply.error)) };
      const e = reply.ok as EditFigures;
      return {
        name, value: e.ms, unit: 'ms',
        note: `${e.compiled} unit compiled, ${e.cached} cached: compile ${e.compileMs.toFixed(0)}, link ${e.linkMs.toFixed(0)}, run ${e.runMs.toFixed(0)} ms; Runtime ${e.cycles} cycles, Errors ${e.errors}; first run ${e.firstMs.toFixed(0)} ms`,
      };
    };
    rows.push(editRow('Node worker', await inNodeWorker(bundlePath, req)));
    if (page) rows.push(editRow('Chromium worker', await inChromiumWorker(page, req).catch((e) => ({ error: String(e) }))));
  } finally {
    await chromium?.close();
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
