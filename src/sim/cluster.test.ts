// The Siracusa cluster: C programs (src/sim/testing/cluster/) built with the Siracusa runtime
// and hal_siracusa.c, run on 8 workers + the controller: fork, barrier, speedup, TCDM bank
// conflicts, cluster DMA, L3, exits, traps, limits, determinism, trace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Machine } from './machine';
import { runElf } from './index';
import { nodeMachine } from './node';
import { runSiracusa, runSiracusaAsync } from './siracusa';
import type { SiracusaOptions, SiracusaResult } from './siracusa';
import { compileSiracusa, readBytes, scratchDir } from './testing/toolchain';
import { CLANG_19, missing } from '../testing/requires';

const DIR = fileURLToPath(new URL('./testing/cluster/', import.meta.url));

let m: Machine;
const elfs = new Map<string, Uint8Array>();

async function build(name: string, defines: string[] = []): Promise<void> {
  const tag = [name, ...defines].join('-').replace(/[^\w-]/g, '_');
  const out = await compileSiracusa([join(DIR, `${name.replace(/-.*/, '')}.c`)], join(scratchDir(), `${tag}.elf`), { defines });
  elfs.set(tag, readBytes(out));
}

function run(tag: string, opts: SiracusaOptions = {}): SiracusaResult {
  const elf = elfs.get(tag);
  if (!elf) throw new Error(`no build ${tag}`);
  return runSiracusa(m, elf, { maxCycles: 5e7, ...opts });
}

const sum = (r: SiracusaResult, f: (c: SiracusaResult['cores'][number]) => number, cores = [0, 1, 2, 3, 4, 5, 6, 7]) =>
  cores.reduce((s, c) => s + f(r.cores[c]), 0);

describe.skipIf(missing(CLANG_19))('the Siracusa cluster', () => {
  beforeAll(async () => {
    m = await nodeMachine();
    const jobs: [string, string[]][] = [
      ['fork', []], ['barrier', []], ['speedup', []], ['banks', ['SAME_BANK=1']], ['banks', ['SAME_BANK=0']],
      ['dma', []], ['l3', []], ['l2', ['WORDS=100']], ['l2', ['WORDS=300']], ['events', []], ['console', []], ['measure', []],
      ['icache', ['LINES=16']], ['icache', ['LINES=64']], ['icache', ['LINES=64', 'TEAM=8']], ...[0, 1, 2, 3, 4, 5, 6, 7].map((k): [string, string[]] => ['exits', [`MODE=${k}`]]),
    ];
    for (let i = 0; i < jobs.length; i += 2) await Promise.all(jobs.slice(i, i + 2).map(([n, d]) => build(n, d)));
  }, 180_000);

  it('forks on 1..8 cores; each core of the team sees its index, the team size and its hart', () => {
    const r = run('fork');
    expect(r.stopped).toBe('exit');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('controller 0/1');
    for (let n = 1; n <= 8; n++) {
      const cells = Array.from({ length: 8 }, (_, k) => (k < n ? `${100 * n + k}/${n}/${k}` : '-1/-1/-1'));
      expect(lines[n]).toBe(`n=${n}: ${cells.join(' ')}`);
    }
    // Workers asleep between forks count as idle, not as instructions.
    expect(r.cores[7].instructions).toBeLessThan(200);
    expect(r.cores[7].idle).toBeGreaterThan(r.cycles * 0.9);
  });

  it('releases a barrier only when every core of the team has arrived', () => {
    const r = run('barrier');
    expect(r.stdout).toBe('barrier errors 0\n');
    expect(r.exitCode).toBe(0);
  });

  it('wakes a core sleeping on its software event when another core triggers it', () => {
    const r = run('events');
    expect(r.stdout).toMatch(/^events bad 0 span \d+\n$/);
    // cores 1..7 slept until their trigger: idle, not instructions
    for (let k = 1; k < 8; k++) expect(r.cores[k].idle).toBeGreaterThan(k * 100);
  });

  it('drains the console when a program prints more than its buffer', () => {
    const r = run('console');
    const lines = r.stdout.split('\n');
    expect(lines.length).toBe(3001);
    expect(lines[2999]).toBe('line 2999: the quick brown fox jumps');
    expect(r.stdout.length).toBe(3000 * 37);
  });

  it('runs a compute loop about 8x faster on 8 cores than on 1', () => {
    const r = run('speedup');
    const cyc = Object.fromEntries([...r.stdout.matchAll(/cores (\d) cycles (\d+) (\w+)/g)].map((x) => {
      expect(x[3]).toBe('ok');
      return [Number(x[1]), Number(x[2])];
    }));
    expect(Object.keys(cyc)).toEqual(['1', '2', '4', '8']);
    expect(cyc[1] / cyc[2]).toBeGreaterThan(1.9);
    expect(cyc[1] / cyc[8]).toBeGreaterThan(7);
    expect(cyc[1] / cyc[8]).toBeLessThanOrEqual(8.2);
  });

  it('models the instruction cache: a loop that fits the 512 B L0 hits; a larger one refills from the shared L1 at 2 cycles a line', () => {
    const small = run('icache-LINES_16'), large = run('icache-LINES_64'), team = run('icache-LINES_64-TEAM_8');
    for (const r of [small, large, team]) expect(r.stopped).toBe('exit');
    expect(large.stdout).toBe('icache 64 lines on 1 cores\n');
    const w0 = (r: SiracusaResult) => r.cores[0];
    // Every core: its stall cycles are 2 per L0 miss that hit the L1 and 18 per refill from L2.
    for (const r of [small, large, team]) for (const c of r.cores) {
      expect(c.icache.misses).toBeLessThanOrEqual(c.icache.fetches);
      expect(c.stalls.icache).toBe(2 * (c.icache.misses - c.icache.l2Refills) + 18 * c.icache.l2Refills);
    }
    // 16 lines x 50 iterations: cold misses only.
    expect(w0(small).icache.fetches).toBeGreaterThanOrEqual(16 * 50);
    expect(w0(small).icache.misses).toBeLessThan(16 + 40);
    // 64 lines cycle through the L0's 8 sets x 4 ways: most fetches miss it, but hit the L1.
    expect(w0(large).icache.misses).toBeGreaterThan(64 * 50 * 0.4);
    expect(w0(large).icache.l2Refills).toBeLessThan(64 + 40);
    expect(w0(large).stalls.icache - w0(small).stalls.icache).toBeGreaterThan(2 * 64 * 50 * 0.4);
    // Eight cores on the same code share the L1: its lines come from L2 about once, not eight times.
    const refills = sum(team, (c) => c.icache.l2Refills);
    expect(refills).toBeLessThan(2 * w0(large).icache.l2Refills);
    for (let k = 1; k < 8; k++) expect(team.cores[k].icache.misses).toBeGreaterThan(64 * 50 * 0.4);
    // Its tags end below the next region of the wasm memory (as/layout.ts SCRATCH).
    const layout = readFileSync(new URL('./as/layout.ts', import.meta.url), 'utf8');
    expect(m.wasm.icacheEnd()).toBeLessThanOrEqual(Number(/^export const SCRATCH: usize = (0x[0-9a-f]+);/m.exec(layout)![1]));
  });

  it('a core waits 14 cycles beyond the access for each L2 load and each L2 store (GVSoC: cluster_ico 2 + axi_ico 12)', () => {
    const small = run('l2-WORDS_100'), large = run('l2-WORDS_300');
    for (const r of [small, large]) expect(r.stopped).toBe('exit');
    expect(small.stdout).toMatch(/^l2 100 0$/m);
    // 200 more loads and 200 more stores on worker 0; everything else the two programs do is the same.
    expect(large.cores[0].stalls.l2 - small.cores[0].stalls.l2).toBe(400 * 14);
  });

  it('stalls cores that hit the same TCDM bank in the same cycle, and not different banks', () => {
    const same = run('banks-SAME_BANK_1');
    const diff = run('banks-SAME_BANK_0');
    expect(same.stdout).toMatch(/^same_bank=1 cycles \d+ ok/);
    expect(diff.stdout).toMatch(/^same_bank=0 cycles \d+ ok/);
    // Each worker's 1000 loads from L1 are TCDM accesses (the energy model's count), plus its
    // stack traffic in L1 around the job; its store of the sum goes to L2, which is not one.
    for (const c of same.cores.slice(0, 8)) {
      expect(c.tcdmAccesses).toBeGreaterThanOrEqual(1000);
      expect(c.tcdmAccesses).toBeLessThan(1000 + 64);
    }
    const bankSame = sum(same, (c) => c.stalls.bank);
    const bankDiff = sum(diff, (c) => c.stalls.bank);
    // 8 cores x 1000 loads on one bank: each round one core wins, the others wait.
    expect(bankSame).toBeGreaterThan(8 * 1000);
    expect(bankDiff).toBeLessThan(200); // only the stack frames of fork entry / exit
    const cycles = (r: SiracusaResult) => Number(/cycles (\d+)/.exec(r.stdout)![1]);
    expect(cycles(same)).toBeGreaterThan(cycles(diff) * 1.5);
  });

  it('moves DMA bytes exactly (1D, 2D, out), at GVSoC MCHAN\'s 8 B/cycle plus a few cycles of set-up, overlapping queued transfers', () => {
    const r = run('dma');
    const x = /dma bad (\d+) 1d4096 (\d+) 2d16x40 (\d+) 4x1024 (\d+) serial (\d+)/.exec(r.stdout);
    expect(x, r.stdout).not.toBeNull();
    const [bad, t1d, t2d, t4, serial] = x!.slice(1).map(Number);
    expect(bad).toBe(0);
    expect(r.exitCode).toBe(0);
    // 4096 B / 8 B per cycle = 512 cycles + 3 of set-up + the HAL's register writes, and the
    // code's first run: up to 8 lines refilled from L2 into the instruction cache at 18 cycles.
    expect(t1d).toBeGreaterThanOrEqual(512 + 3);
    expect(t1d).toBeLessThan(512 + 60 + 8 * 18);
    // 16 rows of 40 B: 5 beats per row (and hal_dma_in_2d's first run).
    expect(t2d).toBeGreaterThanOrEqual(80 + 3);
    expect(t2d).toBeLessThan(80 + 60 + 8 * 18);
    // Four queued 1 KiB transfers pay the latency once; one at a time pays it four times.
    expect(t4).toBeLessThan(serial - 3 * 10);
    expect(r.dma.transfers).toBe(13);
    expect(r.dma.bytes).toBe(4096 + 1001 + 640 + 640 + 4 * 1024 * 2);
    expect(r.dma.busyCycles).toBeGreaterThanOrEqual(Math.ceil(r.dma.bytes / 8));
  });

  it('counts what all cores do between hal_measure(1) and hal_measure(0) apart (the energy estimate\'s network run)', () => {
    const r = run('measure');
    expect(r.stdout).toBe(`measure ${100 + 1000 + 100 + 8 * 500}\n`);
    const m = r.measured!;
    expect(m).toBeDefined();
    // Inside: the controller's 1000 loads from L1 and the workers' 8 x 500, plus their stack traffic
    // (fork entry and exit); not the 100 before and the 100 after.
    expect(m.tcdmAccesses).toBeGreaterThanOrEqual(1000 + 8 * 500);
    expect(m.tcdmAccesses).toBeLessThan(1000 + 8 * 500 + 100);
    const all = r.cores.reduce((s, c) => s + c.tcdmAccesses, 0);
    expect(all - m.tcdmAccesses).toBeGreaterThanOrEqual(200 + 64);
    // A load loop's few instructions per load, and the section's cycles no more than the run's.
    expect(m.instructions).toBeGreaterThan(3 * (1000 + 8 * 500));
    expect(m.instructions).toBeLessThan(r.cores.reduce((s, c) => s + c.instructions, 0));
    expect(m.cycles).toBeGreaterThan(1000);
    expect(m.cycles).toBeLessThan(r.cycles);
  });

  it('copies L3 <-> L2 through the uDMA and loads .l3 and .wmem sections', () => {
    const r = run('l3');
    expect(r.stdout).toMatch(/^l3 bad 0 read4096 (\d+) wmem 0x10400000/);
    const t = Number(/read4096 (\d+)/.exec(r.stdout)![1]);
    expect(t).toBeGreaterThanOrEqual(4096 + 100);
    expect(r.l3.bytes).toBe(3 * 4096);
    expect(r.l3.busyCycles).toBeGreaterThanOrEqual(3 * 4196);
  });

  it('exits with main\'s result or the code a worker passes to hal_exit', () => {
    expect(run('exits-MODE_0')).toMatchObject({ stopped: 'exit', exitCode: 42, stdout: 'mode 0\n' });
    const w = run('exits-MODE_1');
    expect(w).toMatchObject({ stopped: 'exit', exitCode: 7 });
  });

  it('reports a trap on a worker with its core, cause, pc and disassembly', () => {
    const r = run('exits-MODE_2');
    expect(r.stopped).toBe('trap');
    expect(r.trap).toMatchObject({ core: 5, cause: 5, name: 'load access fault', tval: 0x30000000 });
    expect(r.trap!.disasm).toMatch(/^(c\.)?lw /);
    const wm = run('exits-MODE_5');
    expect(wm.trap).toMatchObject({ core: 2, cause: 5, tval: 0x10400000 });
    // A DMA command beyond L2 traps the controller's push (a load of DMA_PUSH_IN).
    expect(run('exits-MODE_6').trap).toMatchObject({ core: 8, cause: 5, tval: 0x1c1ffff0 });
    // An N-EUREKA task reading outside memory faults the controller's COMMIT store with that address.
    expect(run('exits-MODE_7').trap).toMatchObject({ core: 8, cause: 7, tval: 0x30000000 });
  });

  it('stops a runaway program at the cycle limit, and a deadlock when every core sleeps', () => {
    const r = run('exits-MODE_3', { maxCycles: 200_000, chunkCycles: 50_000 });
    expect(r.stopped).toBe('limit');
    expect(r.cycles).toBeGreaterThanOrEqual(200_000);
    expect(r.cycles).toBeLessThan(200_100);
    const d = run('exits-MODE_4');
    expect(d.stopped).toBe('deadlock');
    expect(d.deadlock).toContain('core 1 waits for the barrier');
    expect(d.deadlock).toContain('core 8 waits for the join');
  });

  it('is deterministic: the same program gives the same cycles and statistics', () => {
    const a = run('speedup');
    const b = run('barrier');
    const c = run('speedup');
    expect(c).toEqual(a);
    expect(run('barrier')).toEqual(b);
  });

  it('traces forks, sleeps, wakes, DMA transfers and bank conflicts; pc tracing keeps the timing', () => {
    const r = run('dma', { trace: 'events' });
    const kinds = new Set(r.trace!.records.map((t) => t.kind));
    for (const k of ['sleep', 'dma-start', 'dma-end', 'dma-wait']) expect(kinds).toContain(k);
    const starts = r.trace!.records.filter((t) => t.kind === 'dma-start');
    expect(starts.map((t) => t.b).slice(0, 2)).toEqual([4096, 1001]);
    const f = run('fork', { trace: 'events' });
    expect(f.trace!.records.filter((t) => t.kind === 'fork').map((t) => t.a)).toEqual([1, 3, 7, 15, 31, 63, 127, 255]);
    const plain = run('barrier');
    const pcs = run('barrier', { trace: 'pc' });
    expect(pcs.cycles).toBe(plain.cycles);
    expect(pcs.trace!.records.filter((t) => t.kind === 'pc').length).toBeGreaterThan(1000);
  });

  it('refuses a cluster program on the bare single core, with a hint', () => {
    expect(() => runElf(m, elfs.get('fork')!)).toThrow(/cluster peripherals.*runSiracusa/);
  });

  it('can be cancelled between chunks', async () => {
    const ac = new AbortController();
    const p = runSiracusaAsync(m, elfs.get('exits-MODE_3')!, { maxCycles: 1e12, chunkCycles: 100_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    const r = await p;
    expect(r.stopped).toBe('cancelled');
    expect(r.cycles).toBeGreaterThan(0);
  });
});
