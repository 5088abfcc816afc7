// npm run bench -- fidelity : is the machine model right? (issue #19). Runs whose C is known on
// both sides, and the tutorial's ratios, on our simulator beside Deeploy + GVSoC's figures
// (../shared/reference/siracusa.md; published, not measured here):
//  1. The tutorial's LeakyReLU lab (our scalar and SIMD kernels in src/pipeline/lab, the same
//     loops as the tutorial's): 1 core untiled, 8 cores untiled, 8 cores tiled at L1 32768, SIMD.
//     Aim: each within 20 % of GVSoC's. Then their 1-vs-8-core ratio: the machine's scaling on
//     the same C.
//  2. microLlama64_parallel's first RMSNorm tile from L2 (L1 64000, --profileTiling L2): Input
//     and Output DMA (aim: within 20 %); the kernel is ours, not Deeploy's, so it is shown only.
//  3. The tutorial's ratios: 1 vs 8 cores untiled, L1 8000 vs 64000, N-EUREKA, the weight
//     memory, autoregressive with N-EUREKA with and without the weight memory. Aim: within 15 %
//     and on the same side of 1. Our kernels are faster than Deeploy's, so totals differ; ratios
//     compare the phenomena.
//  4. The energy of one microllama-decode token (src/sim/energy.ts) beside silicon's 490 uJ.
// Programs are built with clang-19 (`--cc clang`), as in the gvsoc bench.
import { readFileSync } from 'node:fs';
import { dpg } from '../src/cli/main';
import { readOnnx } from '../src/compiler/onnx/read';
import { siracusaToolchain } from '../src/sim/run/simulate';
import type { RunResult } from '../src/sim/run/types';
import type { Bench, BenchRow } from './harness';
import { sharedTest } from './paths';

const LLAMA = sharedTest('Models/microLlama/INT8/microLlama64_parallel');
const LLAMA_AR = sharedTest('Models/microLlama/INT8/microLlama1');
const LAB = (f: string) => new URL(`../src/pipeline/lab/${f}`, import.meta.url).pathname;

/** GVSoC's figures (siracusa.md). */
const GVSOC = {
  lab: { '1 core, untiled': 2_492_970, '8 cores, untiled': 313_541, '8 cores, tiled (L1 32768)': 108_090, '+ SIMD (innermost tile a multiple of 16)': 43_005 } as Record<string, number>,
  rmsnorm: { input: 489, kernel: 43_305, output: 534 },
  /** microLlama128 untiled 1 / 8 cores (ours: microLlama64_parallel, the model we have). */
  cores: 16.1e6 / 3.1e6,
  l1: 47.5e6 / 35.3e6,
  neureka: 35.3e6 / 28.6e6,
  wmem: 28.6e6 / 28.3e6,
  autoregressiveWmem: 857e3 / 780e3,
};
const LAB_AIM = 0.2, DMA_AIM = 0.2, RATIO_AIM = 0.15;

async function run(args: string[]): Promise<{ run?: RunResult; error?: string }> {
  const out: string[] = [];
  await dpg(['run', '--cc', 'clang', '--json', ...args], (s) => out.push(s), () => {});
  const j = JSON.parse(out.join('\n')) as { run?: RunResult; error?: { what: string } };
  if (j.run && !/^Errors: 0 out of/m.test(j.run.stdout)) return { run: j.run, error: 'output errors' };
  return { run: j.run, error: j.error?.what };
}

async function cycles(args: string[]): Promise<number> {
  const r = await run(args);
  if (r.error || r.run?.cycles === undefined) throw new Error(`dpg run ${args.join(' ')}: ${r.error ?? 'no Runtime line'}`);
  return r.run.cycles;
}

const within = (ours: number, ref: number, aim: number) => Math.abs(ours / ref - 1) <= aim;

async function labRows(): Promise<BenchRow[]> {
  const lines: string[] = [];
  await dpg(['lab', '--cc', 'clang', '--op-spec', LAB('ileakyrelu.json'), '--kernel', LAB('scalar.c'), '--simd-kernel', LAB('simd.c')], () => {}, (s) => lines.push(s));
  const ours: Record<string, number> = {};
  const rows: BenchRow[] = Object.entries(GVSOC.lab).map(([title, ref]) => {
    const m = lines.join('\n').match(new RegExp(`^${title.replace(/[()+]/g, '\\$&')}: (\\d+) cycles, Errors: 0`, 'm'));
    ours[title] = m ? Number(m[1]) : NaN;
    return {
      name: `fidelity: LeakyReLU 1x16x64x64, ${title}`, value: ours[title] / 1e3, unit: 'K cycles', baseline: { name: 'GVSoC', value: ref / 1e3 },
      note: !m ? `failed: ${lines.join(' | ').slice(0, 200)}` : within(ours[title], ref, LAB_AIM) ? 'within 20 %' : 'NOT within 20 %',
    };
  });
  // The machine's 1-vs-8-core scaling on C that is the same on both sides (microLlama's below
  // runs our kernels against Deeploy's).
  const [one, eight] = ['1 core, untiled', '8 cores, untiled'];
  const r = ours[one] / ours[eight], ref = GVSOC.lab[one] / GVSOC.lab[eight];
  rows.push({
    name: 'fidelity: ratio, 1 vs 8 cores untiled, the same C (LeakyReLU lab)', value: r, unit: 'x', baseline: { name: 'GVSoC', value: ref },
    note: Number.isNaN(r) ? 'failed' : within(r, ref, RATIO_AIM) && r > 1 ? 'within 15 %, same side of 1' : 'NOT within 15 % or not on the same side of 1',
  });
  return rows;
}

async function rmsnormRows(): Promise<BenchRow[]> {
  const r = await run(['-t', LLAMA, '--cores', '8', '--l1', '64000', '--profileTiling', 'L2']);
  const stdout = r.run?.stdout ?? '';
  // The first RMSNorm layer's first tile (its node name holds "norm").
  const first = stdout.match(/^\[([^\]]*norm[^\]]*)_L2\]\[\w+\]\[\d+ ops\]\[Tile 0\] Input DMA took (\d+) cycles$/im);
  const line = (what: string) => first && stdout.match(new RegExp(`^\\[${first[1]}_L2\\]\\[\\w+\\]\\[\\d+ ops\\]\\[Tile 0\\] ${what} took (\\d+) cycles$`, 'm'));
  const rows: [string, number, number | undefined][] = [
    ['Input DMA', GVSOC.rmsnorm.input, DMA_AIM], ['Kernel (ours, not Deeploy\'s)', GVSOC.rmsnorm.kernel, undefined], ['Output DMA', GVSOC.rmsnorm.output, DMA_AIM],
  ];
  return rows.map(([what, ref, aim]) => {
    const m = line(what.split(' (')[0]);
    const ours = m ? Number(m[1]) : NaN;
    return {
      name: `fidelity: microLlama64_parallel first RMSNorm tile (${first?.[1] ?? '?'}), ${what}`, value: ours, unit: 'cycles', baseline: { name: 'GVSoC', value: ref },
      note: r.error ? `failed: ${r.error}` : !m ? 'no profile line' : aim === undefined ? 'shown only' : within(ours, ref, aim) ? 'within 20 %' : 'NOT within 20 %',
    };
  });
}

async function ratioRows(): Promise<BenchRow[]> {
  const ratio = async (name: string, ref: number, a: string[], b: string[], what: string): Promise<BenchRow> => {
    try {
      const x = await cycles(a), y = await cycles(b), r = x / y;
      const ok = within(r, ref, RATIO_AIM) && (r > 1) === (ref > 1);
      return { name: `fidelity: ratio, ${name}`, value: r, unit: 'x', baseline: { name: 'GVSoC', value: ref }, note: `${what}: ${(x / 1e6).toFixed(2)} M / ${(y / 1e6).toFixed(2)} M; ${ok ? 'within 15 %, same side of 1' : 'NOT within 15 % or not on the same side of 1'}` };
    } catch (e) {
      return { name: `fidelity: ratio, ${name}`, value: NaN, unit: 'x', note: `failed: ${(e as Error).message.slice(0, 200)}` };
    }
  };
  const tiled = ['-t', LLAMA, '--cores', '8'];
  return [
    // Deeploy's untiled kernels scale 5.2x on 8 cores and ours nearly 8x: the kernels differ
    // (the same C scales alike on both machines: the LeakyReLU ratio above).
    await ratio('1 vs 8 cores untiled (GVSoC: microLlama128, Deeploy\'s kernels; ours: microLlama64_parallel, ours)', GVSOC.cores,
      ['-t', LLAMA, '--cores', '1', '--untiled'], ['-t', LLAMA, '--cores', '8', '--untiled'], '1 core / 8 cores'),
    await ratio('L1 8000 vs 64000, tiled on 8 cores', GVSOC.l1, [...tiled, '--l1', '8000'], [...tiled, '--l1', '64000'], 'L1 8000 / L1 64000'),
    await ratio('without vs with N-EUREKA, L1 64000', GVSOC.neureka, [...tiled, '--l1', '64000'], [...tiled, '--l1', '64000', '-p', 'siracusa-neureka'], 'cluster / N-EUREKA'),
    await ratio('N-EUREKA without vs with the weight memory, L1 64000', GVSOC.wmem,
      [...tiled, '--l1', '64000', '-p', 'siracusa-neureka'], [...tiled, '--l1', '64000', '-p', 'siracusa-neureka', '--neureka-wmem'], 'without / with'),
    await ratio('autoregressive (microLlama1) with N-EUREKA, without vs with the weight memory', GVSOC.autoregressiveWmem,
      ['-t', LLAMA_AR, '--cores', '8', '--l1', '64000', '-p', 'siracusa-neureka'], ['-t', LLAMA_AR, '--cores', '8', '--l1', '64000', '-p', 'siracusa-neureka', '--neureka-wmem'], 'without / with'),
  ];
}

/**
 * The energy of one token of microllama-decode (the built-in decode step: one token through the
 * model with its KV cache) beside silicon's 490 uJ per token. Different model and clock: silicon
 * runs a 4.2-4.6 M-parameter microLlama; the dynamic energy scales with the work per token (about
 * the weights read: parameters), the static part with the time per token (1 / clock), so the row
 * also prints our energy per parameter beside silicon's 490 uJ / 4.4 M.
 */
async function energyRows(): Promise<BenchRow[]> {
  const dir = new URL('../public/models/microllama-decode', import.meta.url).pathname;
  const r = await run(['-t', dir, '--cores', '8', '--l1', '64000']);
  const e = r.run?.sim?.energy;
  const params = Object.values(readOnnx(new Uint8Array(readFileSync(`${dir}/network.onnx`)), 'network.onnx').initializers)
    .reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
  const SILICON = 490e-6, SILICON_PARAMS = 4.4e6;
  if (!e || r.error) return [{ name: 'fidelity: energy of one microllama-decode token', value: NaN, unit: 'uJ', note: `failed: ${r.error ?? 'no energy'}` }];
  return [{
    name: 'fidelity: energy of one microllama-decode token (L1 64000, 8 cores)', value: e.total * 1e6, unit: 'uJ', baseline: { name: 'silicon microLlama', value: SILICON * 1e6 },
    note: `instructions ${(e.instructions * 1e6).toFixed(2)}, TCDM ${(e.tcdm * 1e6).toFixed(2)}, static ${(e.static * 1e6).toFixed(2)} uJ over ${r.run!.cycles} cycles at 50 MHz; ` +
      `${(params / 1e3).toFixed(0)} K parameters: ${(e.total / params * 1e12).toFixed(0)} pJ per parameter, silicon ${(SILICON / SILICON_PARAMS * 1e12).toFixed(0)} pJ (4.4 M parameters, its own clock); shown only`,
  }];
}

export const fidelityBench: Bench = {
  name: 'fidelity',
  run: async () => {
    if (!siracusaToolchain()) return [{ name: 'fidelity (clang-19 / ld.lld-19 missing)', value: NaN, unit: '' }];
    return [...await labRows(), ...await rmsnormRows(), ...await ratioRows(), ...await energyRows()];
  },
};
