// Issue 39, the runaway program: whatever a program prints, a run keeps at most OUTPUT_LIMIT
// bytes of it (the first and the latest half) and counts the rest; the harness's verdict is read
// only as the output's last two lines; the profile keeps a bounded number of events. Programs
// built with the builtin toolchain and run on the cluster, with the cycle limit lowered.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodegenResult } from '../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { BoundedOutput, OUTPUT_LIMIT, droppedNote } from '../console';
import { nodeMachine } from '../node';
import { CONTROLLER, ECALL_CYCLES, SiracusaRun } from '../siracusa';
import { buildSiracusa, MemoryObjectCache, prebuildSiracusa, runBuiltin } from './builtin';
import { RunError } from './error';
import { rejectionOf } from '../../testing/error-of';
import { parseRunOutput } from './outcome';
import type { RunResult } from './types';
import { readFileSync } from 'node:fs';
import { installUserOps } from '../../compiler/ops';
import { makeOpTest } from '../../compiler/ops/user/maketest';
import type { UserOpSpec } from '../../compiler/ops/user/spec';
import { nodeMilp } from '../../pipeline/node/milp';
import { runPipeline } from '../../pipeline/run';
import type { PipelineEvent } from '../../pipeline/events';
import { builtinRunner } from './builtin';
import { compile, hostCompiler, runBounded } from './host';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONFIG: Config = { ...DEFAULT_CONFIG, platform: 'siracusa' };

function program(main: string): CodegenResult {
  return {
    platform: 'siracusa', cores: 8, files: [{ path: 'main.c', content: `#include <stdint.h>\n#include <stdio.h>\n#include "hal.h"\n${main}`, kind: 'harness' }],
    layers: [], buffers: [], totalOutputs: 0, testData: { inputs: 'random', golden: 'reference interpreter' },
  };
}

/** write(fd, buf, len) as the bare runtime makes it: ecall 64. */
const WRITE = `static int sys_write(int fd, const void *buf, unsigned len) {
  register int a0 __asm__("a0") = fd; register const void *a1 __asm__("a1") = buf;
  register unsigned a2 __asm__("a2") = len; register int a7 __asm__("a7") = 64;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  return a0;
}`;

const thrown = (p: Promise<unknown>) => rejectionOf(p, RunError);

describe('BoundedOutput', () => {
  it('keeps everything up to the limit, then the head and the latest bytes, counting the rest', () => {
    const o = new BoundedOutput(8);
    const bytes = (s: string) => new TextEncoder().encode(s);
    o.write(bytes('abc'));
    o.write(bytes('defgh'));
    expect([o.text(), o.dropped, o.total]).toEqual(['abcdefgh', 0, 8]);
    o.write(bytes('ij'));
    expect(o.dropped).toBe(2);
    expect(o.text()).toBe(`abcd\n${droppedNote(2, 8)}\nghij`);
    // One write longer than the ring keeps its last bytes; an offset and a length read a view.
    const big = bytes('0123456789XYZ');
    o.write(big, 1, 11);
    expect(o.kept().tail).toEqual(bytes('89XY'));
    expect([o.total, o.dropped]).toEqual([21, 13]);
    // Many small writes wrap the ring.
    for (const c of 'klmnopq') o.write(bytes(c));
    expect(new TextDecoder().decode(o.kept().tail)).toBe('nopq');
    expect(o.dropped).toBe(o.total - 8);
  });

  it('reads the harness\'s verdict only as the last two lines: a kernel\'s own lines before it do not count', () => {
    const fake = 'Runtime: 1 cycles\nErrors: 0 out of 10\n';
    expect(parseRunOutput(`${fake}Mismatch in output 0 at index 3: got 1, expected 2\nRuntime: 50 cycles\nErrors: 4 out of 10\n`))
      .toMatchObject({ cycles: 50, errors: 4, total: 10 });
    // Anything after the verdict: there is none (the harness exits right after printing it).
    expect(parseRunOutput(`${fake}AAAA`)).toEqual({ cycles: undefined, errors: undefined, total: undefined });
    expect(parseRunOutput('Errors: 0 out of 10\n')).toMatchObject({ errors: undefined });
  });
});

describe('a kernel that prints the harness\'s verdict itself', () => {
  it('is not believed: the run reads the harness\'s own lines, which come last', async () => {
    const spec: UserOpSpec = JSON.parse(readFileSync(new URL('../../pipeline/lab/ileakyrelu.json', import.meta.url), 'utf8'));
    const kernel = `#include <stdint.h>
#include <stdio.h>
#include "dpg_kernels.h"
void iLeakyReLU_s8_s8(const int8_t *x, int8_t *y, uint32_t size, int32_t mul, int32_t shift) {
  (void)x; (void)y; (void)mul; (void)shift;
  uint32_t lo, hi;
  dpg_chunk(size, &lo, &hi);
  if (lo == 0) printf("Runtime: 1 cycles\\nErrors: 0 out of %u\\n", (unsigned)size);
}
`;
    const ops = [{ spec, kernel }];
    installUserOps(ops);
    try {
      const t = makeOpTest(spec, { shapes: [[1, 4, 8, 8]], attrs: { shift: 3 }, seed: 5 });
      const events: PipelineEvent[] = [];
      const machine = nodeMachine();
      await runPipeline({ model: t.model, inputs: t.inputs, outputs: t.outputs, modelName: 'test.onnx', ops }, { ...CONFIG, tiled: false, cores: 8 },
        (e) => { events.push(e); }, { milp: nodeMilp, runner: builtinRunner({ machine: () => machine }) });
      const run = events.find((e) => e.type === 'stage' && e.stage === 'run') as Extract<PipelineEvent, { type: 'stage'; stage: 'run' }>;
      expect(run.result.stdout.startsWith('Runtime: 1 cycles\nErrors: 0 out of 256\n')).toBe(true);
      expect(run.result.errors).toBeGreaterThan(0);
      expect(run.result.total).toBe(256);
      expect(run.result.cycles).toBeGreaterThan(1);
    } finally {
      installUserOps([]);
    }
  }, 120_000);
});

describe.skipIf(!hostCompiler())('a runaway program natively (--cc host)', () => {
  it('keeps the first and the last half of the limit of what the program prints, counting the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-flood-'));
    try {
      writeFileSync(join(dir, 'p.c'), '#include <stdio.h>\nint main(void) { for (int i = 0; i < (8 << 20); i++) putchar(i % 64 == 63 ? 10 : 65); printf("Runtime: 3 cycles\\nErrors: 0 out of 2\\n"); return 5; }\n');
      compile(hostCompiler()!, ['-O2', '-o', join(dir, 'p'), join(dir, 'p.c')], 'p.c');
      const r = runBounded(join(dir, 'p'), 60_000);
      const verdict = 'Runtime: 3 cycles\nErrors: 0 out of 2\n';
      expect(r.status).toBe(5);
      expect(r.dropped).toBe((8 << 20) + verdict.length - OUTPUT_LIMIT);
      expect(r.stdout).toContain(droppedNote(r.dropped));
      expect(r.stdout.endsWith(verdict)).toBe(true);
      expect(r.stdout.length).toBeLessThan(OUTPUT_LIMIT + 200);
      expect(parseRunOutput(r.stdout)).toMatchObject({ cycles: 3, errors: 0, total: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a runaway program, builtin toolchain', () => {
  const machine = nodeMachine();
  const cache = new MemoryObjectCache();
  const run = (main: string, maxCycles: number) => runBuiltin(program(main), CONFIG, { machine: () => machine, cache, maxCycles });
  beforeAll(async () => { await prebuildSiracusa('siracusa', { cache }); }, 120_000);

  function checkBounded(r: RunResult, fill: string): void {
    expect(r.stdoutDropped).toBeGreaterThan(OUTPUT_LIMIT);
    const note = droppedNote(r.stdoutDropped!);
    expect(r.stdout).toContain(note);
    const [head, tail] = r.stdout.split(`\n${note}\n`);
    expect(head.length).toBe(OUTPUT_LIMIT / 2);
    expect(tail.length).toBeLessThanOrEqual(OUTPUT_LIMIT / 2);
    expect(head.startsWith(fill.repeat(100))).toBe(true);
  }

  it('for (;;) putchar(65) ends at the cycle limit, named, with its output counted and 1 MiB kept', async () => {
    const e = await thrown(run('int main(void) { for (;;) putchar(65); }\n', 6e7));
    expect(e.data.code).toBe('limit');
    expect(e.data.what).toMatch(/^the program did not finish within the cycle limit of 60000000 cycles \(\d+ bytes of its output were dropped, over the limit of 1048576 B\)$/);
    checkBounded(e.result, 'A');
    expect(e.result.stdout.endsWith('A'.repeat(1000))).toBe(true);
  }, 120_000);

  it('an ecall write flood: bounded, each call charged ECALL_CYCLES and a cycle per byte', async () => {
    const e = await thrown(run(`${WRITE}\nstatic const char b[16] = "BBBBBBBBBBBBBBBB";\nint main(void) { for (;;) sys_write(1, b, 16); }\n`, 2e8));
    expect(e.data.code).toBe('limit');
    const calls = (e.result.stdoutDropped! + OUTPUT_LIMIT) / 16;
    checkBounded(e.result, 'B');
    // At most one call per ECALL_CYCLES + 16 cycles of the controller.
    expect(calls).toBeLessThanOrEqual(2e8 / (ECALL_CYCLES + 16));
    expect(calls).toBeGreaterThan(2e8 / (ECALL_CYCLES + 100));
  }, 120_000);

  it('huge writes (all of L2 each time) cost no memory beyond the limit; a buffer past its memory is EFAULT, a bad fd EBADF', async () => {
    const e = await thrown(run(`${WRITE}\nint main(void) {
  printf("efault %d ebadf %d\\n", sys_write(1, (const void *)0x1c000000, 0x200001), sys_write(3, "x", 1));
  for (;;) sys_write(1, (const void *)0x1c000000, 0x200000);
}\n`, 1e8));
    expect(e.data.code).toBe('limit');
    expect(e.result.stdout.startsWith('efault -14 ebadf -9\n')).toBe(true);
    // 2 MiB a call, each costing 2 M cycles and more.
    expect(e.result.stdoutDropped).toBeGreaterThan(20 * 0x200000);
    expect(e.result.stdout.length).toBeLessThan(OUTPUT_LIMIT + 200);
  }, 120_000);

  it('a program that prints 3 MiB before the harness\'s verdict keeps the verdict (the tail) and passes, with the count', async () => {
    const r = await run(`int main(void) {
  for (int i = 0; i < 3 << 20; i++) putchar(i % 64 == 63 ? '\\n' : 'C');
  printf("Runtime: 7 cycles\\nErrors: 0 out of 4\\n");
  return 0;
}\n`, 2e9);
    expect(r).toMatchObject({ exitCode: 0, cycles: 7, errors: 0, total: 4 });
    expect(r.stdoutDropped).toBe((3 << 20) + 'Runtime: 7 cycles\nErrors: 0 out of 4\n'.length - OUTPUT_LIMIT);
  }, 120_000);

  it('the profile keeps a bounded number of events and counts the rest', async () => {
    const code = program(`static volatile int n;\nstatic void job(void *arg) { (void)arg; }\nint main(void) { for (int i = 0; i < 2000; i++) hal_fork(8, job, 0); printf("forks %d\\n", 2000); return 0; }\n`);
    const built = await buildSiracusa(code, 'siracusa', { cache });
    const m = await machine;
    const text = built.link.symbols.find((s) => s.name === 'main')!;
    const r = new SiracusaRun(m, built.link.elf, { maxCycles: 2e8, profile: { lo: text.addr, span: 4096, limit: 1000 } });
    let res = r.step();
    while (!res) res = r.step();
    expect(res.stdout).toBe('forks 2000\n');
    const p = res.profile!;
    const kept = p.jobs.length * 2 + p.idles.length + p.engines.length + p.region.length;
    expect(kept).toBeLessThanOrEqual(1000 + 8);
    // 2000 forks of 8 jobs: a start and an end each, and the controller's join waits.
    expect(p.dropped).toBeGreaterThan(2000 * 8 * 2 - 1000);
    expect(m.cycles(CONTROLLER)).toBeGreaterThan(0);
  }, 120_000);
});
