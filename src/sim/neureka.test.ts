// The simulator's N-EUREKA (as/neureka.ts) against the host emulation (neureka_task.c through
// hal_host.c): one C program of random tasks of every mode, with operands in L1, L2 and the
// weight memory, built for both; every output byte must agree (hashed, gaps included). Then the
// timing model (src/sim/README.md) on fixed tasks, and the controller sleeping while a task runs.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostCompiler, RUNTIME_DIR } from '../compiler/codegen/host';
import { mulberry32 } from '../compiler/fuzz/prng';
import type { Machine } from './machine';
import { nodeMachine } from './node';
import { runSiracusa, type SiracusaResult } from './siracusa';
import { CLANG, compileSiracusa, readBytes, scratchDir, toolsPresent } from './testing/toolchain';

interface Task {
  mode: 0 | 1 | 2; H: number; W: number; C: number; M: number; pad: number[]; signedIn: boolean; shift: number; lo: number; hi: number;
  inPix: number; inRow: number; outPix: number; outRow: number; xAt: 'HAL_L1' | 'HAL_L2'; yAt: 'HAL_L1' | 'HAL_L2'; wAt: 'HAL_L2' | 'HAL_WMEM';
  seed: number;
}
const kOf = (t: Task) => (t.mode === 0 ? 1 : 3);
const outHW = (t: Task) => [t.H + t.pad[0] + t.pad[2] - (kOf(t) - 1), t.W + t.pad[1] + t.pad[3] - (kOf(t) - 1)];

function randomTask(seed: number): Task {
  const r = mulberry32(seed), int = (a: number, b: number) => a + Math.floor(r() * (b - a + 1));
  const mode = (seed % 3) as 0 | 1 | 2, k = mode === 0 ? 1 : 3;
  const pad = mode === 0 ? [0, 0, 0, 0] : [0, 0, 0, 0].map(() => int(0, 1));
  const H = int(3 - pad[0] - pad[2], 10), W = int(3 - pad[1] - pad[3], 10), C = int(1, 40), M = mode === 2 ? C : int(1, 40);
  const inPix = C + int(0, 2), inRow = W * inPix + int(0, 3);
  const OW = W + pad[1] + pad[3] - (k - 1), outPix = M + int(0, 2), unsignedOut = r() < 0.4;
  return {
    mode, H, W, C, M, pad, signedIn: r() < 0.5, shift: int(0, 14), lo: unsignedOut ? 0 : -128, hi: unsignedOut ? 255 : 127,
    inPix, inRow, outPix, outRow: OW * outPix + int(0, 3),
    xAt: r() < 0.5 ? 'HAL_L1' : 'HAL_L2', yAt: r() < 0.5 ? 'HAL_L1' : 'HAL_L2', wAt: r() < 0.5 ? 'HAL_L2' : 'HAL_WMEM', seed,
  };
}

const dense = (H: number, W: number, C: number, M: number, wAt: Task['wAt'], mode: 0 | 1 = 0): Task => ({
  mode, H, W, C, M, pad: mode ? [1, 1, 1, 1] : [0, 0, 0, 0], signedIn: true, shift: 8, lo: -128, hi: 127,
  inPix: C, inRow: W * C, outPix: M, outRow: W * M, xAt: 'HAL_L1', yAt: 'HAL_L1', wAt, seed: H * 1000 + C,
});

/** The task's C: operands with placement, a run function printing the status hash and cycles. */
function taskC(t: Task, i: number): string[] {
  const r = mulberry32(t.seed * 7 + 1), int = (a: number, b: number) => a + Math.floor(r() * (b - a + 1));
  const k = kOf(t), [OH] = outHW(t);
  const x = Array.from({ length: t.H * t.inRow }, () => int(0, 255));
  const w = Array.from({ length: t.mode === 2 ? t.C * 9 : t.M * k * k * t.C }, () => int(-128, 127));
  const mul = Array.from({ length: t.M }, () => int(-300, 300));
  const add = Array.from({ length: t.M }, () => int(-(1 << 20), 1 << 20));
  const reg = (n: string, v: string | number) => `  hal_neureka_write(NEUREKA_${n}, ${v});`;
  return [
    `static uint8_t x${i}[] ${t.xAt} = {${x.join(',')}};`,
    `static const int8_t w${i}[] ${t.wAt} = {${w.join(',')}};`,
    `static const int32_t m${i}[] = {${mul.join(',')}};`, `static const int32_t a${i}[] = {${add.join(',')}};`,
    `static uint8_t y${i}[${OH * t.outRow}] ${t.yAt};`,
    `static void run${i}(void) {`,
    `  for (unsigned j = 0; j < sizeof y${i}; j++) y${i}[j] = 0xaa;`,
    reg('INPUT', `(uintptr_t)x${i}`), reg('OUTPUT', `(uintptr_t)y${i}`), reg('WEIGHTS', `(uintptr_t)w${i}`),
    reg('MUL', `(uintptr_t)m${i}`), reg('ADD', `(uintptr_t)a${i}`), reg('IN_H', t.H), reg('IN_W', t.W), reg('C_IN', t.C), reg('C_OUT', t.M),
    reg('IN_ROW', t.inRow), reg('IN_PIX', t.inPix), reg('OUT_ROW', t.outRow), reg('OUT_PIX', t.outPix), reg('MODE', t.mode),
    reg('PADDING', `${t.pad[0] | (t.pad[1] << 8) | (t.pad[2] << 16) | (t.pad[3] << 24)}u`), reg('FLAGS', t.signedIn ? 1 : 0),
    reg('SHIFT', t.shift), reg('CLIP_LO', `(uint32_t)${t.lo}`), reg('CLIP_HI', t.hi),
    '  uint32_t t0 = hal_cycles();', '  hal_neureka_commit();', '  hal_neureka_wait();', '  uint32_t dt = hal_cycles() - t0;',
    `  uint32_t h = 2166136261u; for (unsigned j = 0; j < sizeof y${i}; j++) h = (h ^ y${i}[j]) * 16777619u;`,
    `  printf("task ${i} %u\\n", (unsigned)h);`, `  printf("cycles ${i} %u\\n", (unsigned)dt);`, '}',
  ];
}

function program(tasks: Task[]): string {
  return ['#include <stdio.h>', '#include "hal.h"', ...tasks.flatMap(taskC),
    'int main(void) {', ...tasks.map((_, i) => `  run${i}();`), '  return 0;', '}', ''].join('\n');
}

/** The model of as/neureka.ts, restated: cycles from commit to the end event. */
function modelCycles(t: Task): number {
  const k = kOf(t), [OH, OW] = outHW(t), dw = t.mode === 2, ch = dw ? 28 : 32, cd = (a: number, b: number) => Math.ceil(a / b);
  const steps = cd(OH, 6) * cd(OW, 6) * cd(t.M, ch), compute = dw ? 8 : cd(t.C, 32) * 8, chOut = Math.min(t.M, ch);
  const act = (6 + k - 1) ** 2 * (dw ? chOut : t.C) + 36 * chOut, wb = dw ? chOut * 9 : chOut * k * k * t.C;
  const stream = cd(act, 32) + cd(wb, t.wAt === 'HAL_WMEM' ? 36 : 32);
  return 20 + cd(t.M * 8, 32) + steps * Math.max(compute, stream);
}

const RANDOM = Array.from({ length: 24 }, (_, i) => randomTask(500 + i));
const TIMED = [dense(12, 12, 64, 64, 'HAL_L2'), dense(12, 12, 64, 64, 'HAL_WMEM'), dense(6, 6, 64, 64, 'HAL_L2'), dense(6, 6, 16, 96, 'HAL_L2', 1)];
const cc = hostCompiler();
const ready = !!cc && toolsPresent(CLANG);
let m: Machine;
let sim: SiracusaResult;
let host: string;

describe.skipIf(!ready)('N-EUREKA in the simulator', () => {
  beforeAll(async () => {
    const dir = scratchDir(), src = join(dir, 'neureka-tasks.c');
    writeFileSync(src, program([...RANDOM, ...TIMED]));
    const exe = join(dir, 'neureka-tasks-host');
    const b = spawnSync(cc!, ['-O1', '-std=c11', '-D_POSIX_C_SOURCE=199309L', `-I${RUNTIME_DIR}`, src, join(RUNTIME_DIR, 'hal_host.c'), join(RUNTIME_DIR, 'neureka_task.c'), '-o', exe], { encoding: 'utf8' });
    if (b.status !== 0) throw new Error(b.stderr);
    host = spawnSync(exe, { encoding: 'utf8' }).stdout;
    const elf = readBytes(await compileSiracusa([src], join(dir, 'neureka-tasks.elf')));
    m = await nodeMachine();
    sim = runSiracusa(m, elf, { maxCycles: 5e7 });
  }, 180_000);

  it('computes every task exactly as the host emulation, with operands in L1, L2 and the weight memory', () => {
    expect(sim.stopped).toBe('exit');
    expect(sim.exitCode).toBe(0);
    expect(new Set(RANDOM.map((t) => `${t.mode}${t.wAt}${t.xAt}`)).size).toBeGreaterThan(8);
    const tasks = (s: string) => s.split('\n').filter((l) => l.startsWith('task '));
    expect(tasks(host)).toHaveLength(RANDOM.length + TIMED.length);
    expect(tasks(sim.stdout)).toEqual(tasks(host));
  });

  it('takes the modelled cycles: 6x6x32 steps, bit-serial weights, 32 B/cycle streams, the weight memory faster', () => {
    const cycles = sim.stdout.split('\n').filter((l) => l.startsWith('cycles ')).map((l) => Number(l.split(' ')[2]));
    TIMED.forEach((t, j) => {
      const got = cycles[RANDOM.length + j], want = modelCycles(t);
      expect(got, `task ${j}`).toBeGreaterThanOrEqual(want);
      expect(got, `task ${j}`).toBeLessThanOrEqual(want + 30); // + the register accesses around it
    });
    const [l2, wmem, small] = TIMED.map((_, j) => cycles[RANDOM.length + j]);
    expect(wmem).toBeLessThan(l2);
    expect(l2 / small).toBeGreaterThan(3.5); // 4x the pixels, 4x the steps
    // The controller sleeps through the tasks: its idle time covers them.
    expect(sim.cores[8].idle).toBeGreaterThan(cycles.reduce((a, b) => a + b, 0) * 0.8);
  });
});
