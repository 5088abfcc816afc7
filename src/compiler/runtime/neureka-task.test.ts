// neureka_task.c, the N-EUREKA task's C definition (host emulation, and later the simulator's
// reference), against RequantizedConv in the reference interpreter: random tasks of every mode,
// padding, input signedness and requant range, with strided (non-contiguous) input and output
// tiles whose gaps must stay untouched; and the refusal codes of bad registers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostCompiler, RUNTIME_DIR } from '../../sim/run/host';
import { mulberry32 } from '../fuzz/prng';
import { RequantizedConv } from '../ops/requantized';
import { HOST_CC, missing } from '../../testing/requires';

const MODES = ['NEUREKA_MODE_1X1', 'NEUREKA_MODE_3X3', 'NEUREKA_MODE_3X3_DW'] as const;
const GAP = 0xaa; // output bytes between pixels / rows are prefilled with this and must survive

interface Case {
  mode: 0 | 1 | 2; H: number; W: number; C: number; M: number; pad: number[]; signedIn: boolean;
  shift: number; lo: number; hi: number; inPix: number; inRow: number; outPix: number; outRow: number;
  /** WEIGHT_BITS (0: the reset value, 8); the weights fit it, so the result is RequantizedConv's. */
  bits: number; x: number[]; w: number[]; mul: number[]; add: number[];
}

function randomCase(seed: number): Case {
  const r = mulberry32(seed), int = (a: number, b: number) => a + Math.floor(r() * (b - a + 1));
  const mode = (seed % 3) as 0 | 1 | 2, k = mode === 0 ? 1 : 3;
  const pad = mode === 0 ? [0, 0, 0, 0] : [0, 0, 0, 0].map(() => int(0, 1));
  const H = int(k === 3 ? 3 - pad[0] - pad[2] : 1, 9), W = int(k === 3 ? 3 - pad[1] - pad[3] : 1, 9);
  const C = int(1, 40), M = mode === 2 ? C : int(1, 40);
  const signedIn = r() < 0.5, unsignedOut = r() < 0.4;
  const inPix = C + int(0, 3), inRow = W * inPix + int(0, 5);
  const OW = W + pad[1] + pad[3] - (k - 1);
  const outPix = M + int(0, 3), outRow = OW * outPix + int(0, 5);
  const shift = int(0, 14);
  const x = Array.from({ length: H * inRow }, () => int(0, 255));
  const wn = mode === 2 ? C * 9 : M * k * k * C;
  const bits = int(0, 8), half = 2 ** ((bits || 8) - 1);
  return {
    mode, H, W, C, M, pad, signedIn, shift, inPix, inRow, outPix, outRow, x, bits,
    lo: unsignedOut ? 0 : -128, hi: unsignedOut ? 255 : 127,
    w: Array.from({ length: wn }, () => int(-half, half - 1)),
    mul: Array.from({ length: M }, () => int(-300, 300)),
    add: Array.from({ length: M }, () => int(-(1 << 20), 1 << 20) + (shift ? 1 << (shift - 1) : 0)),
  };
}

const outDims = (c: Case) => {
  const k = c.mode === 0 ? 1 : 3;
  return [c.H + c.pad[0] + c.pad[2] - (k - 1), c.W + c.pad[1] + c.pad[3] - (k - 1)];
};

/** The expected output buffer (gaps GAP) from the reference interpreter's RequantizedConv. */
function expected(c: Case): number[] {
  const k = c.mode === 0 ? 1 : 3, [OH, OW] = outDims(c);
  const xs: number[] = [];
  for (let h = 0; h < c.H; h++) for (let w = 0; w < c.W; w++) for (let ch = 0; ch < c.C; ch++) {
    const v = c.x[h * c.inRow + w * c.inPix + ch];
    xs.push(c.signedIn && v > 127 ? v - 256 : v);
  }
  const f = (a: number[]) => Float64Array.from(a);
  const attrs = {
    auto_pad: 'NOTSET', dilations: [1, 1], group: c.mode === 2 ? c.C : 1, kernel_shape: [k, k], pads: [c.pad[0], c.pad[1], c.pad[2], c.pad[3]],
    strides: [1, 1], channels_first: 0, shift: c.shift, div: undefined, n_levels: 256, signed: c.lo < 0 ? 1 : 0,
  };
  const [y] = RequantizedConv.eval({
    node: { name: 't', op: 'RequantizedConv', domain: '', inputs: [], outputs: [], attrs: {} } as never, where: 'test', opset: 13, outputs: [],
    attrs: attrs as never,
    inputs: [{ shape: [1, c.H, c.W, c.C], data: f(xs) }, { shape: c.mode === 2 ? [c.C, 3, 3, 1] : [c.M, k, k, c.C], data: f(c.w) },
      { shape: [c.M], data: f(c.mul) }, { shape: [c.M], data: f(c.add) }],
  });
  const buf = new Array<number>(OH * c.outRow).fill(GAP);
  for (let h = 0; h < OH; h++) for (let w = 0; w < OW; w++) for (let m = 0; m < c.M; m++)
    buf[h * c.outRow + w * c.outPix + m] = y.data[(h * OW + w) * c.M + m] & 0xff;
  return buf;
}

const arr = (t: string, n: string, v: number[]) => `static ${t} ${n}[] = {${v.join(',')}};`;

function caseC(c: Case, i: number): string[] {
  const [OH] = outDims(c);
  const regs: [string, string][] = [
    ['INPUT', `(uintptr_t)x${i}`], ['OUTPUT', `(uintptr_t)y${i}`], ['WEIGHTS', `(uintptr_t)w${i}`], ['MUL', `(uintptr_t)m${i}`], ['ADD', `(uintptr_t)a${i}`],
    ['IN_H', `${c.H}`], ['IN_W', `${c.W}`], ['C_IN', `${c.C}`], ['C_OUT', `${c.M}`], ['IN_ROW', `${c.inRow}`], ['IN_PIX', `${c.inPix}`],
    ['OUT_ROW', `${c.outRow}`], ['OUT_PIX', `${c.outPix}`], ['MODE', MODES[c.mode]],
    ['PADDING', `${c.pad[0] | (c.pad[1] << 8) | (c.pad[2] << 16) | (c.pad[3] << 24)}u`], ['FLAGS', c.signedIn ? 'NEUREKA_FLAG_SIGNED_IN' : '0'],
    ['SHIFT', `${c.shift}`], ['CLIP_LO', `(uint32_t)${c.lo}`], ['CLIP_HI', `${c.hi}`], ['WEIGHT_BITS', `${c.bits}`],
  ];
  return [
    arr('uint8_t', `x${i}`, c.x), arr('int8_t', `w${i}`, c.w), arr('int32_t', `m${i}`, c.mul), arr('int32_t', `a${i}`, c.add),
    `static uint8_t y${i}[${OH * c.outRow}];`,
    `static void run${i}(void) {`, '  uintptr_t r[NEUREKA_NREGS] = {0};', ...regs.map(([k, v]) => `  r[NEUREKA_${k} / 4] = ${v};`),
    `  memset(y${i}, ${GAP}, sizeof y${i});`, '  printf("%d", neureka_task_run(r));',
    `  for (unsigned j = 0; j < sizeof y${i}; j++) printf(" %u", y${i}[j]);`, '  printf("\\n");', '}',
  ];
}

/** Builds and runs a C program with neureka_task.c; returns stdout lines. */
function runC(body: string[], main: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'dpg-neureka-'));
  try {
    const src = join(dir, 't.c'), exe = join(dir, 't');
    writeFileSync(src, ['#include <stdio.h>', '#include <string.h>', '#include "neureka.h"', ...body, 'int main(void) {', ...main, '  return 0;', '}', ''].join('\n'));
    const b = spawnSync(hostCompiler()!, ['-O1', '-std=c11', '-Wall', '-Werror', `-I${RUNTIME_DIR}`, src, join(RUNTIME_DIR, 'neureka_task.c'), '-o', exe], { encoding: 'utf8' });
    expect(b.stderr).toBe('');
    const r = spawnSync(exe, { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status).toBe(0);
    return r.stdout.trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(missing(HOST_CC))('neureka_task.c', () => {
  it('computes RequantizedConv exactly on 60 random strided tasks of every mode and weight width, leaving the gaps alone', () => {
    const cases = Array.from({ length: 60 }, (_, i) => randomCase(1000 + i));
    expect(new Set(cases.map((c) => c.mode)).size).toBe(3);
    expect(new Set(cases.map((c) => c.bits)).size).toBe(9);
    const out = runC(cases.flatMap(caseC), cases.map((_, i) => `  run${i}();`));
    cases.forEach((c, i) => {
      const [status, ...bytes] = out[i].split(' ').map(Number);
      expect(status, `case ${i}`).toBe(0);
      expect(bytes, `case ${i}: mode ${c.mode}, ${c.H}x${c.W}x${c.C} -> ${c.M}, pad ${c.pad}`).toEqual(expected(c));
    });
  });

  it('refuses bad registers with their code and writes nothing', () => {
    const base = randomCase(7); // mode 1 (3x3 dense)
    const bad: [string, string, string][] = [
      ['MODE', '3', 'NEUREKA_ERR_MODE'], ['C_IN', '0', 'NEUREKA_ERR_DIMS'], ['PADDING', '2', 'NEUREKA_ERR_PADDING'],
      ['SHIFT', '63', 'NEUREKA_ERR_REQUANT'], ['CLIP_HI', '256', 'NEUREKA_ERR_REQUANT'], ['IN_PIX', `${base.C - 1}`, 'NEUREKA_ERR_STRIDE'],
      ['FLAGS', '2', 'NEUREKA_ERR_FLAGS'], ['WEIGHT_BITS', '9', 'NEUREKA_ERR_WEIGHTS'],
    ];
    const main = bad.flatMap(([reg, v, code], j) => [
      `  { uintptr_t r[NEUREKA_NREGS]; memcpy(r, ok, sizeof r); r[NEUREKA_${reg} / 4] = ${v};`,
      `    memset(y0, ${GAP}, sizeof y0); int e = neureka_task_run(r); unsigned same = 1;`,
      `    for (unsigned j = 0; j < sizeof y0; j++) same &= y0[j] == ${GAP};`,
      `    printf("%d %d %u\\n", ${j}, e == ${code}, same); }`,
    ]);
    const body = caseC(base, 0);
    // the valid registers of case 0, captured once
    const setup = body.slice(body.indexOf('static void run0(void) {') + 2, body.findIndex((l) => l.startsWith('  memset')));
    const out = runC([...body, 'static uintptr_t ok[NEUREKA_NREGS];', 'static void capture(void) {', '  uintptr_t *r = ok;', ...setup.map((l) => l.replace('uintptr_t r[NEUREKA_NREGS] = {0};', '')), '}'],
      ['  capture();', '  run0();', ...main]);
    expect(out[0].split(' ')[0]).toBe('0'); // the unmodified task runs
    expect(out.slice(1)).toEqual(bad.map((_, j) => `${j} 1 1`));
  });
});
