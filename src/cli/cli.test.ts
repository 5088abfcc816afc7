import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTestDirs, SHARED_TESTS } from '../testing/corpus';
import { readOnnx } from '../compiler/onnx/read';
import { dpg, EXIT } from './main';
import { COMMANDS, FLAGS } from './args';
import { HOST_CC, missing, SHARED_TESTS as SHARED_TESTS_NEED } from '../testing/requires';

const shared = new URL('../../../shared/deeploy-tests/', import.meta.url).pathname;

async function call(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await dpg(argv, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('dpg CLI', () => {
  it('--help lists every command and flag', async () => {
    const r = await call('--help');
    expect(r.code).toBe(EXIT.ok);
    for (const c of COMMANDS) expect(r.out).toContain(c.usage);
    for (const f of FLAGS) for (const n of f.names) expect(r.out).toContain(n);
    for (const deeployFlag of ['--cores', '--l1', '--l2', '--defaultMemLevel', '--doublebuffer', '--neureka-wmem', '--profileTiling'])
      expect(r.out).toContain(deeployFlag);
  });

  it('rejects unknown flags and commands with a clear error', async () => {
    expect(await call('run', '--bogus')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("unknown flag '--bogus'") });
    expect(await call('frobnicate')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("unknown command 'frobnicate'") });
    expect(await call('run', '--l1')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('--l1 needs a value') });
    expect(await call('run', '--l1', 'lots')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("positive number of bytes, got 'lots'") });
    expect(await call('run', '-p', 'x86')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("unknown platform 'x86'") });
  });

  it('checks config ranges and names the field', async () => {
    const r = await call('run', '--cores', '9', '-t', `${shared}Kernels/Integer/Add/Regular`);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('cores = 9 is out of range');
  });

  it('refuses an L1 the platform cannot hold before tiling, naming the usable maximum and the flag', async () => {
    const adder = fileURLToPath(new URL('../../public/models/adder', import.meta.url));
    const r = await call('run', '--l1', '250000', '-t', adder);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toBe("error: --l1: L1 = 250000 B does not fit Siracusa's L1: 262144 B less 20480 B of core stacks leaves 241664 B (use at most 241664 B)");
  });

  it('names a missing test folder or model', async () => {
    const r = await call('reference', '-t', '/nonexistent/folder');
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('/nonexistent/folder: no such file or folder');
  });

  it('reports a garbage model as a bad file, naming it', async () => {
    const r = await call('reference', '-t', new URL('./cli.test.ts', import.meta.url).pathname);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/cli\.test\.ts: is not (a valid ONNX model|an ONNX model)/);
  });
});

// Acceptance for issue #3: `dpg reference` on every shared test folder (found by walking).
describe.skipIf(missing(SHARED_TESTS_NEED))('dpg reference on every shared Deeploy test', () => {
  for (const dir of findTestDirs()) {
    it(relative(fileURLToPath(SHARED_TESTS), dir), async () => {
      const r = await call('reference', '-t', dir);
      expect(r.err).toBe('');
      expect(r.out).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      expect(r.code).toBe(EXIT.ok);
    });
  }
});

describe('dpg compile --out', () => {
  it('writes every stage\'s artifacts, the memory plan and the generated C program with the kernel library', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dpg-'));
    const r = await call('compile', '-t', `${shared}Models/miniMobileNetv2`, '--out', out);
    for (const f of ['parse/summary.json', 'parse/typed.onnx', 'reference/outputs.npz', 'reference/comparison.json',
      'lower/final.onnx', 'lower/passes.json', 'lower/bindings.json', 'tile/plan.json', 'tile/tiling.txt', 'codegen/Network.c', 'codegen/Network.h', 'codegen/Network_weights.c',
      'codegen/main.c', 'codegen/testinputs.h', 'codegen/testoutputs.h', 'codegen/Makefile', 'codegen/layers.json',
      'codegen/kernels/dpg_kernels.h', 'codegen/runtime/hal.h', 'codegen/runtime/hal_host.c'])
      expect(existsSync(join(out, f)), f).toBe(true);
    // The written graphs read back.
    expect(readOnnx(readFileSync(join(out, 'parse/typed.onnx')), 'typed.onnx').nodes.length).toBe(27);
    expect(readOnnx(readFileSync(join(out, 'lower/final.onnx')), 'final.onnx').nodes.some((n) => n.op === 'RequantizedConv')).toBe(true);
    // Every node of the final graph has its lines in Network.c.
    const layers = JSON.parse(readFileSync(join(out, 'codegen/layers.json'), 'utf8')) as { layers: { node: string; ranges: { file: string; from: number; to: number }[] }[] };
    const network = readFileSync(join(out, 'codegen/Network.c'), 'utf8').split('\n');
    for (const l of layers.layers) {
      expect(l.ranges.length, l.node).toBeGreaterThan(0);
      for (const g of l.ranges) expect(network.slice(g.from - 1, g.to).join('\n'), l.node).toContain(l.node);
    }
    expect(readFileSync(join(out, 'tile/tiling.txt'), 'utf8')).toMatch(/checker: ok/);
    expect(r.code).toBe(EXIT.ok);
    // The folder builds on its own (make) and the program passes.
    if (!missing(HOST_CC)) {
      const made = spawnSync('make', ['-s', '-C', join(out, 'codegen')], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      const run = spawnSync(join(out, 'codegen/network'), [], { encoding: 'utf8' });
      expect(run.stdout).toMatch(/^Errors: 0 out of 10$/m);
    }
  });
});

describe('dpg run --profile, --trace, --csv (issue #14)', () => {
  const adder = fileURLToPath(new URL('../../public/models/adder', import.meta.url));
  it('prints the per-layer profile and writes the trace and the table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-trace-'));
    const trace = join(dir, 'run.json'), csv = join(dir, 'layers.csv');
    const r = await call('run', '-t', adder, '--trace', trace, '--csv', csv, '--profile', '--cores', '4');
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(r.err).toMatch(/Profile: the network takes \d+ cycles/);
    const t = JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: { ph: string; tid: number; ts?: number; dur?: number; args?: Record<string, unknown> }[] };
    const threads = t.traceEvents.filter((e) => e.ph === 'M' && e.args?.name !== undefined).map((e) => String(e.args!.name));
    for (const c of [0, 1, 2, 3]) expect(threads).toContain(`core ${c}`);
    const spans = t.traceEvents.filter((e) => e.ph === 'X');
    expect(spans.length).toBeGreaterThan(4);
    for (const e of spans) expect(e.dur!).toBeGreaterThan(0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/cycles/);
    expect(lines.length).toBeGreaterThan(1);
  }, 120_000);
  it('refuses to profile a native run or another command, naming the flag', async () => {
    expect(await call('run', '-t', adder, '--cc', 'host', '--profile')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('--profile') });
    expect(await call('compile', '-t', adder, '--trace', 'x.json')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("not 'compile'") });
  });
  it('refuses --ideal-fetch for a native run or another command, naming the flag', async () => {
    expect(await call('run', '-t', adder, '--cc', 'host', '--ideal-fetch')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('--ideal-fetch') });
    expect(await call('compile', '-t', adder, '--ideal-fetch')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("not 'compile'") });
  });
  it('--ideal-fetch runs without instruction cache stalls, with the same outputs', async () => {
    const cached = await call('run', '-t', adder), ideal = await call('run', '-t', adder, '--ideal-fetch');
    expect(ideal.code).toBe(EXIT.ok);
    expect(ideal.err).toMatch(/^Instruction cache: not modelled \(ideal fetch\): no refill stalls$/m);
    expect(cached.err).toMatch(/^Instruction cache: [\d.]+ % of .* line fetches hit the cores' L0, .*; [1-9][\d.]*( [kM])? refill stall cycles$/m);
    const cycles = (out: string) => Number(/^Runtime: (\d+) cycles$/m.exec(out)![1]);
    expect(cycles(ideal.out)).toBeLessThan(cycles(cached.out));
  }, 120_000);
});
