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
import { rejectionOf } from '../../testing/error-of';
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

/*
 * The attacks of issue 39 on the last core: undo the guard (or slip past it), then write 4 KB
 * past the end of the core's share. Each must stop at its first step (or, after DONE, at the
 * first store past the end).
 */
#define REG(a) (*(volatile uint32_t *)(a))
void attack(int8_t *end, const int8_t *x, int how) {
  switch (how) {
  case 0: hal_guard_end(); break;
  case 1: REG(0x10201404) = (uint32_t)end; REG(0x10201408) = 4096; break; /* BYTES */
  case 2: REG(0x1020140c) = 0x10000000; REG(0x10201410) = 0x10040000; break; /* STACK */
  case 3: REG(0x1020081c) = 0; break; /* DONE */
  case 4: (void)REG(0x10200818); break; /* WAIT_FORK */
  case 5: printf("Runtime: 1 cycles\\nErrors: 0 out of 1\\n"); hal_exit(0); break;
  case 6: { register int a0 __asm__("a0") = 0; register int a7 __asm__("a7") = 93; __asm__ volatile("ecall" : : "r"(a0), "r"(a7)); break; } /* ECALL */
  case 7: hal_dma_wait(hal_dma_in(end, x, 4096)); break;
  }
  for (int i = 0; i < 4096; i++) end[i] = 1; /* PAST */
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

/** The bug a run ends with: none, a store past the end, a post-increment one, one into the next core's stack, a fifth window, an attack (below). */
type Mode = 'ok' | 'past' | 'postinc' | 'neighbour' | 'windows' | Attack;
/** attack()'s cases, in order. */
const ATTACKS = ['end', 'bytes', 'stack', 'done', 'waitfork', 'exit', 'ecall', 'dma'] as const;
type Attack = (typeof ATTACKS)[number];

/**
 * main.c: the kernel on one worker unguarded and guarded (alone, so no bank conflict makes the
 * two runs differ: each times its kernel call, and the controller the whole fork), then guarded
 * on 4 workers, a quarter of N each; then with `past` on the last core, the bug (kernel `x4`
 * for the post-increment one). Each core's second window is its slot of `done`, declared before
 * the guard begins; the guard lasts to the end of the job, which ends it in its dispatcher, so a
 * job that began a guard leaves no guard behind.
 */
const main = (mode: Mode) => `#include <stdint.h>
#include "hal.h"
#define N 1024
#define CORES 4
int iLeakyReLU_s8_s8(int8_t *y, const int8_t *x, int n, int past);
void iLeakyReLU_s8x4(int8_t *y, const int8_t *x, int n, int past);
void attack(int8_t *end, const int8_t *x, int how);
static int8_t x[N + 8];
static int8_t y[N] HAL_L1;
static struct slot { uint32_t cyc, flag; } done[4] HAL_L1;
static uint32_t fork[2];
static int guarded, bug, postinc, how;

static void body(void *arg) {
  (void)arg;
  int k = hal_core_id(), cores = hal_num_cores(), n = N / cores, past = bug && k == cores - 1;
  if (bug == 3 && past) for (int w = 0; w < 4; w++) hal_guard_allow(x, 1);
  if (guarded) {
    hal_guard_allow(&done[k], sizeof done[k]);
    hal_guard_begin(0, y, N);
  }
  if (bug == 2 && past) { volatile int8_t mine = 0; (&mine)[0x800] = 1; } /* NEIGHBOUR: core 2's stack */
  if (bug == 4 && past) attack(y + N, x, how);
  uint32_t t0 = hal_cycles();
  if (postinc) iLeakyReLU_s8x4(y + k * n, x + k * n, n, past && bug == 1);
  else iLeakyReLU_s8_s8(y + k * n, x + k * n, n, past && bug == 1);
  uint32_t t = hal_cycles() - t0;
  done[k].flag = 1; /* its second window */
  if (cores == 1) done[0].cyc = t;
}

/* Begins a guard and returns: its end in the dispatcher ends it. */
static void leaky(void *arg) { (void)arg; hal_guard_begin(0, y, 4); }
static void other(void *arg) { (void)arg; done[hal_core_id()].flag = 2; }
static uint32_t cyc[2];

int main(void) {
  for (int i = 0; i < N; i++) x[i] = (int8_t)(i * 37 - 500);
  printf("y=%x after=%x\\n", (unsigned)y, (unsigned)done);
  for (guarded = 0; guarded < 2; guarded++) {
    uint32_t t0 = hal_cycles();
    hal_fork(1, body, 0);
    fork[guarded] = hal_cycles() - t0;
    cyc[guarded] = done[0].cyc;
  }
  for (int i = 0; i < N; i++) y[i] = 0;
  guarded = 1;
  hal_fork(CORES, body, 0);
  int errors = 0;
  for (int i = 0; i < N; i++) if (y[i] != (x[i] < 0 ? (int8_t)(x[i] >> 3) : x[i])) errors++;
  hal_fork(CORES, leaky, 0);
  hal_fork(CORES, other, 0);
  printf("kernel: %u %u cycles, fork: %u %u cycles\\n", (unsigned)cyc[0], (unsigned)cyc[1], (unsigned)fork[0], (unsigned)fork[1]);
  printf("errors %d, after %d\\n", errors, (int)(done[0].flag + done[1].flag + done[2].flag + done[3].flag));
  ${mode === 'ok' ? '' : `bug = ${({ past: 1, postinc: 1, neighbour: 2, windows: 3 } as Record<string, number>)[mode] ?? 4}; postinc = ${mode === 'postinc' ? 1 : 0}; how = ${ATTACKS.indexOf(mode as Attack)};\n  hal_fork(CORES, body, 0);\n  printf("not stopped\\n");`}
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

const thrown = (p: Promise<unknown>) => rejectionOf(p, RunError);

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
  expect(r.stdout).toMatch(/^errors 0, after 8$/m);
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
    + `outside its output buffer [${hex(y)}, ${hex(y + 1024)}) and the window [${hex(after + 24)}, ${hex(after + 32)}) at iLeakyReLU.c:${line}`);
  expect(e.data.hint).toMatch(/^the kernel wrote outside the buffers the plan gave its layer \(its own stack \[0x1003[0-9a-f]{4}, 0x1003[0-9a-f]{4}\) is allowed too\)/);
  const trap = e.result.sim!.trap!;
  expect(trap).toMatchObject({ cause: 24, name: 'store outside the write guard', core: 3, tval: at(y), line: `iLeakyReLU.c:${line}` });
  if (mark === 'POSTINC') expect(trap.disasm).toMatch(/^cv\.sw \w+, \(\w+\), 4$/);
  expect(trap.guard).toMatchObject({ layer: 0, bytes, windows: [[after + 24, after + 32], [y, y + 1024]], why: 'store' });
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
      + `outside its output buffer [${hex(y)}, ${hex(y + 1024)}) and the window [${hex(after + 24)}, ${hex(after + 32)}) at main.c:${line}`);
  }, 60_000);

  it('a fifth window is refused: a store access fault on the guard\'s register', async () => {
    const e = await thrown(run('windows'));
    expect(e.data.where).toMatch(/^run: core 3 in hal_guard_allow \(hal_siracusa\.c:\d+\)$/);
    expect(e.data.what).toMatch(/^store access fault at pc 0x1c[0-9a-f]{6} \((c\.)?sw .*\), tval 0x10201408, /);
  }, 60_000);

  // Issue 39: the guarded code cannot switch the guard off, widen it, leave it, or end the
  // program, then write 4 KB past its buffer; the run stops at the attempt, naming the layer.
  const attackLine = (mark: string) => KERNEL.split('\n').findIndex((l) => l.includes(`/* ${mark} */`)) + 1;
  const layer = 'layer 0 "lrelu" (iLeakyReLU, kernel iLeakyReLU_s8_s8): core 3';
  it.each([
    ['end', 'registers', /^run: core 3 in hal_guard_end \(hal_siracusa\.c:\d+\)$/, 0x10201414],
    ['bytes', 'registers', `run: core 3 in attack (iLeakyReLU.c:${attackLine('BYTES')})`, 0x10201404],
    ['stack', 'registers', `run: core 3 in attack (iLeakyReLU.c:${attackLine('STACK')})`, 0x1020140c],
    ['waitfork', 'dispatch', `run: core 3 in attack (iLeakyReLU.c:${attackLine('WAIT_FORK')})`, 0x10200818],
    ['exit', 'exit', /^run: core 3 in hal_exit \(hal_siracusa\.c:\d+\)$/, 0x10200000],
    ['ecall', 'exit', `run: core 3 in attack (iLeakyReLU.c:${attackLine('ECALL')})`, undefined],
    ['dma', 'dma', /^run: core 3 in (dma_push|hal_dma_in) \(hal_siracusa\.c:\d+\)$/, 'end'],
  ] as const)('%s: stopped at the attempt (the guard\'s error: %s)', async (mode, why, where, tval) => {
    const e = await thrown(run(mode));
    const { y } = checkGoodPart(e.result);
    expect(e.data.code).toBe('program-fault');
    if (typeof where === 'string') expect(e.data.where).toBe(where); else expect(e.data.where).toMatch(where);
    expect(e.data.what.startsWith(layer), e.data.what).toBe(true);
    const trap = e.result.sim!.trap!;
    expect(trap).toMatchObject({ cause: 24, core: 3 });
    expect(trap.guard!.why).toBe(why);
    if (tval !== undefined) expect(trap.tval >>> 0).toBe(tval === 'end' ? y + 1024 : tval);
    expect(e.result.stdout).not.toContain('not stopped');
    expect(e.data.what).toMatch({ registers: /wrote the write guard's own register/, dispatch: /waited for a fork job outside its dispatcher/,
      exit: /tried to end the program while guarded/, dma: /started a DMA transfer that writes at 0x[0-9a-f]{8}, outside its output buffer/ }[why]);
    // The fake verdict the exit attack printed is not the run's.
    if (mode === 'exit') expect(e.result.stdout).toContain('Errors: 0 out of 1');
  }, 60_000);

  it('done: a kernel that ends its own job stays guarded; its first store past the end stops it', async () => {
    const e = await thrown(run('done'));
    const { y } = checkGoodPart(e.result);
    expect(e.data.where).toBe(`run: core 3 in attack (iLeakyReLU.c:${attackLine('PAST')})`);
    expect(e.data.what.startsWith(`${layer} wrote 1 byte at ${hex(y + 1024)}, outside its output buffer`), e.data.what).toBe(true);
    expect(e.result.sim!.trap!.guard!.why).toBe('store');
  }, 60_000);
});

describe.skipIf(missing(CLANG_19))('the write guard, clang-19', () => {
  it('the same program built by clang-19 stops at the same store, named by its debug info', async () => {
    checkGoodPart(await runOnSimulator(program('ok'), CONFIG, { idealFetch: true }));
    checkStop(await thrown(runOnSimulator(program('past'), CONFIG, { idealFetch: true })), 'STORE', 1, (y) => y + 1024);
  }, 120_000);
});
