// The write guard (hal.h "write guard", src/sim/as/guard.ts): a hand-written program whose
// forked kernel, a LeakyReLU on int8, runs guarded on 4 cores. Inside its window and its stack
// it runs as it does unguarded, to the cycle; one element past the end (a plain store, or a
// CORE-V post-increment store) stops the run with an error naming the layer, the core, the
// address, the window and the source line. Built with the builtin toolchain (and clang-19).
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodegenResult } from '../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { CLANG_19, missing } from '../../testing/requires';
import { nodeMachine } from '../node';
import { MemoryObjectCache, prebuildSiracusa, runBuiltin } from './builtin';
import { RunError } from './error';
import { runOnSimulator } from './simulate';
import type { RunResult } from './types';

const CONFIG: Config = { ...DEFAULT_CONFIG, platform: 'siracusa' };

// The kernel file: `past` elements (or words) more than its share, the student's bug. The
// marked lines are the stores the errors must name.
const KERNEL = `#include <stdint.h>
#include "hal.h"

static int8_t lrelu(int8_t v) { return v < 0 ? (int8_t)(v >> 3) : v; }

/* Scratch on the stack (a callee's locals, written through a pointer): allowed. */
static int stage(int8_t *tmp, const int8_t *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) { tmp[i] = lrelu(x[i]); s += tmp[i]; }
  return s;
}

int iLeakyReLU_s8_s8(int8_t *y, const int8_t *x, int n, int past) {
  volatile int8_t tmp[32];
  int s = stage((int8_t *)tmp, x, n < 32 ? n : 32);
  for (int i = 0; i < n + past; i++)
    y[i] = lrelu(x[i]); /* STORE */
  return s + tmp[0];
}

/* Four lanes a word, stored with cv.sw's post-increment form. */
void iLeakyReLU_s8x4(int8_t *y, const int8_t *x, int n, int past) {
  int32_t *p = (int32_t *)y;
  for (int i = 0; i < n / 4 + past; i++) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v |= (uint32_t)(uint8_t)lrelu(x[4 * i + k]) << (8 * k);
    __asm__ volatile("cv.sw %1, (%0), 4" : "+r"(p) : "r"(v) : "memory"); /* POSTINC */
  }
}
`;

/** The bug a run ends with: none, a store past the end, a post-increment one, one into the next core's stack, a fifth window. */
type Mode = 'ok' | 'past' | 'postinc' | 'neighbour' | 'windows';

/**
 * main.c: the kernel on one worker unguarded and guarded (alone, so no bank conflict makes the
 * two runs differ: each times its kernel call, and the controller the whole fork), then guarded
 * on 4 workers, a quarter of N each; then with `past` on the last core, the bug (kernel `x4`
 * for the post-increment one). A job that began a guard and did not end it leaves no guard behind.
 */
const main = (mode: Mode) => `#include <stdint.h>
#include "hal.h"
#define N 1024
#define CORES 4
int iLeakyReLU_s8_s8(int8_t *y, const int8_t *x, int n, int past);
void iLeakyReLU_s8x4(int8_t *y, const int8_t *x, int n, int past);
static int8_t x[N + 8];
static int8_t y[N] HAL_L1;
static int8_t after[16] HAL_L1;
static uint32_t cyc[2], fork[2];
static int guarded, bug, postinc;

static void body(void *arg) {
  (void)arg;
  int k = hal_core_id(), cores = hal_num_cores(), n = N / cores, past = bug && k == cores - 1;
  if (guarded) {
    hal_guard_begin(0, y, N);
    hal_guard_allow(&after[8 + k], 1);
  }
  if (bug == 2 && past) { volatile int8_t mine = 0; (&mine)[0x800] = 1; } /* NEIGHBOUR: core 2's stack */
  if (bug == 3 && past) for (int w = 0; w < 4; w++) hal_guard_allow(x, 1);
  uint32_t t0 = hal_cycles();
  if (postinc) iLeakyReLU_s8x4(y + k * n, x + k * n, n, past);
  else iLeakyReLU_s8_s8(y + k * n, x + k * n, n, past);
  uint32_t t = hal_cycles() - t0;
  after[8 + k] = 1; /* its second window */
  if (guarded) hal_guard_end();
  if (cores == 1) cyc[guarded] = t;
}

/* Begins a guard and leaves it: the job's end ends it. */
static void leaky(void *arg) { (void)arg; hal_guard_begin(0, y, 4); }
static void other(void *arg) { (void)arg; after[hal_core_id()] = 1; }

int main(void) {
  for (int i = 0; i < N; i++) x[i] = (int8_t)(i * 37 - 500);
  printf("y=%x after=%x\\n", (unsigned)y, (unsigned)after);
  for (guarded = 0; guarded < 2; guarded++) {
    uint32_t t0 = hal_cycles();
    hal_fork(1, body, 0);
    fork[guarded] = hal_cycles() - t0;
  }
  for (int i = 0; i < N; i++) y[i] = 0;
  guarded = 1;
  hal_fork(CORES, body, 0);
  int errors = 0;
  for (int i = 0; i < N; i++) if (y[i] != (x[i] < 0 ? (int8_t)(x[i] >> 3) : x[i])) errors++;
  hal_fork(CORES, leaky, 0);
  hal_fork(CORES, other, 0);
  printf("kernel: %u %u cycles, fork: %u %u cycles\\n", (unsigned)cyc[0], (unsigned)cyc[1], (unsigned)fork[0], (unsigned)fork[1]);
  printf("errors %d, after %d\\n", errors, after[0] + after[1] + after[2] + after[3]);
  ${mode === 'ok' ? '' : `bug = ${{ past: 1, postinc: 1, neighbour: 2, windows: 3 }[mode]}; postinc = ${mode === 'postinc' ? 1 : 0};\n  hal_fork(CORES, body, 0);\n  printf("not stopped\\n");`}
  return 0;
}
`;

function program(mode: Mode): CodegenResult {
  return {
    platform: 'siracusa', cores: 4,
    files: [{ path: 'main.c', content: main(mode), kind: 'harness' }, { path: 'iLeakyReLU.c', content: KERNEL, kind: 'network' }],
    layers: [{ node: 'lrelu', op: 'iLeakyReLU', kernel: 'iLeakyReLU_s8_s8', engine: 'cluster', calls: ['iLeakyReLU_s8_s8'], ranges: [] }],
    buffers: [], totalOutputs: 0, testData: { inputs: 'random', golden: 'reference interpreter' },
  };
}

const lineOf = (mark: string) => KERNEL.split('\n').findIndex((l) => l.includes(mark)) + 1;
const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

async function thrown(p: Promise<unknown>): Promise<RunError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RunError) return e;
    throw e;
  }
  throw new Error('expected a RunError');
}

/**
 * What every mode prints before the bug: the guarded kernel takes the cycles of the unguarded
 * one; the fork, those plus the guard calls' own (a few register writes); right results.
 */
function checkGoodPart(r: RunResult): { y: number; after: number } {
  const [y, after] = /^y=([0-9a-f]+) after=([0-9a-f]+)$/m.exec(r.stdout)!.slice(1).map((v) => parseInt(v, 16));
  const [, plain, guarded, forkPlain, forkGuarded] = /^kernel: (\d+) (\d+) cycles, fork: (\d+) (\d+) cycles$/m.exec(r.stdout)!.map(Number);
  expect(plain).toBeGreaterThan(5000);
  expect(guarded, r.stdout).toBe(plain);
  expect(forkGuarded - forkPlain, r.stdout).toBeGreaterThan(10);
  expect(forkGuarded - forkPlain, r.stdout).toBeLessThan(80);
  expect(r.stdout).toMatch(/^errors 0, after 4$/m);
  return { y, after };
}

function checkStop(e: RunError, mark: string, bytes: number, at: (y: number) => number): void {
  const { y, after } = checkGoodPart(e.result);
  expect(e.result.stdout).not.toContain('not stopped');
  const line = lineOf(mark);
  const fn = mark === 'STORE' ? 'iLeakyReLU_s8_s8' : 'iLeakyReLU_s8x4';
  expect(e.data.code).toBe('program-fault');
  expect(e.data.where).toBe(`run: core 3 in ${fn} (iLeakyReLU.c:${line})`);
  expect(e.data.what).toBe(`layer 0 "lrelu" (iLeakyReLU, kernel iLeakyReLU_s8_s8): core 3 wrote ${bytes} byte${bytes > 1 ? 's' : ''} at ${hex(at(y))}, `
    + `outside its output buffer [${hex(y)}, ${hex(y + 1024)}) and the window [${hex(after + 11)}, ${hex(after + 12)}) at iLeakyReLU.c:${line}`);
  expect(e.data.hint).toMatch(/^the kernel wrote outside the buffers the plan gave its layer \(its own stack \[0x1003[0-9a-f]{4}, 0x1003[0-9a-f]{4}\) is allowed too\)/);
  const trap = e.result.sim!.trap!;
  expect(trap).toMatchObject({ cause: 24, name: 'store outside the write guard', core: 3, tval: at(y), line: `iLeakyReLU.c:${line}` });
  if (mark === 'POSTINC') expect(trap.disasm).toMatch(/^cv\.sw \w+, \(\w+\), 4$/);
  expect(trap.guard).toMatchObject({ layer: 0, bytes, windows: [[y, y + 1024], [after + 11, after + 12]] });
  // Worker 3's stack: the 4th 2 KiB below the controller's 4 KiB at the top of L1.
  expect(trap.guard!.stack).toEqual([0x10040000 - 0x1000 - 4 * 0x800, 0x10040000 - 0x1000 - 3 * 0x800]);
}

describe('the write guard, builtin toolchain', () => {
  const machine = nodeMachine();
  const cache = new MemoryObjectCache();
  // Ideal fetch: the guard calls' own code would evict some of the kernel's lines from the core's
  // L0, and the comparison is of the guard's cost in the data path, to the cycle.
  const run = (mode: Mode, profile = false) => runBuiltin(program(mode), CONFIG, { machine: () => machine, cache, profile, idealFetch: true });
  beforeAll(async () => { await prebuildSiracusa('siracusa', { cache }); }, 120_000);

  it('a kernel inside its window and its stack runs as unguarded, to the cycle; a guard ends with its job', async () => {
    const r = await run('ok');
    checkGoodPart(r);
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it('one element past the end stops the run: layer, core, address, window, file:line', async () => {
    checkStop(await thrown(run('past')), 'STORE', 1, (y) => y + 1024);
  }, 60_000);

  it('the profiled run loop checks as the plain one does', async () => {
    const e = await thrown(run('past', true));
    checkStop(e, 'STORE', 1, (y) => y + 1024);
    expect(e.result.profile).toBeDefined();
  }, 60_000);

  it('a CORE-V post-increment store past the end stops it too', async () => {
    checkStop(await thrown(run('postinc')), 'POSTINC', 4, (y) => y + 1024);
  }, 60_000);

  it('a store into the next core\'s stack is outside its own', async () => {
    const e = await thrown(run('neighbour'));
    const { y, after } = checkGoodPart(e.result);
    const line = main('neighbour').split('\n').findIndex((l) => l.includes('NEIGHBOUR')) + 1;
    const at = e.result.sim!.trap!.tval;
    expect(at >= 0x1003d800 && at < 0x1003e000, hex(at)).toBe(true);
    expect(e.data.what).toBe(`layer 0 "lrelu" (iLeakyReLU, kernel iLeakyReLU_s8_s8): core 3 wrote 1 byte at ${hex(at)}, `
      + `outside its output buffer [${hex(y)}, ${hex(y + 1024)}) and the window [${hex(after + 11)}, ${hex(after + 12)}) at main.c:${line}`);
  }, 60_000);

  it('a fifth window is refused: a store access fault on the guard\'s register', async () => {
    const e = await thrown(run('windows'));
    expect(e.data.where).toMatch(/^run: core 3 in hal_guard_allow \(hal_siracusa\.c:\d+\)$/);
    expect(e.data.what).toMatch(/^store access fault at pc 0x1c[0-9a-f]{6} \((c\.)?sw .*\), tval 0x10201408, /);
  }, 60_000);
});

describe.skipIf(missing(CLANG_19))('the write guard, clang-19', () => {
  it('the same program built by clang-19 stops at the same store, named by its debug info', async () => {
    checkGoodPart(await runOnSimulator(program('ok'), CONFIG, { idealFetch: true }));
    checkStop(await thrown(runOnSimulator(program('past'), CONFIG, { idealFetch: true })), 'STORE', 1, (y) => y + 1024);
  }, 120_000);
});
