// npm run bench:sim [-- --seeds N] : the simulator benchmark.
// 1. Speed: simulated instructions per second of our wasm core in Node beside qemu-riscv32 on
//    the same ELF (a scaled integer workload and the hand-written programs).
//    And the cluster: 8 workers busy on the same kernel (aggregate instructions per second of
//    the Siracusa simulation), beside our single core and qemu-riscv32 on the equivalent
//    single-core ELF (the same work, the 8 slices one after another).
// 2. Differential fuzzing: N csmith programs (default 200 that qemu finishes within 5 s) on
//    qemu and on our simulator, plain rv32imc and with the CORE-V extensions; all must agree.
import { join } from 'node:path';
import type { Bench, BenchRow } from './harness';
import { inChromium, timeHook } from './browser';
import { formatTable } from './harness';
import { nodeMachine } from '../src/sim/node';
import { runElf } from '../src/sim/index';
import { runSiracusa } from '../src/sim/siracusa';
import { parseElf } from '../src/sim/elf';
import type { Machine } from '../src/sim/machine';
import { XCV, csmith, differential, handWritten, runOurs } from '../src/sim/testing/differential';
import type { Program } from '../src/sim/testing/differential';
import {
  CLANG, CSMITH, PROGRAMS_DIR, QEMU, compileCAsync, compileSiracusa, readBytes, runQemu, scratchDir, toolsPresent,
} from '../src/sim/testing/toolchain';

const MAX_CYCLES = 4e9;

/** Best-of-`reps` MIPS for our core and for qemu on one ELF (qemu's figure includes its start-up). */
async function speed(m: Machine, name: string, elf: string, reps = 3): Promise<BenchRow> {
  let ours = Infinity;
  let instructions = 0;
  let cycles = 0;
  runOurs(m, elf, MAX_CYCLES); // warm-up: JIT tiers
  for (let i = 0; i < reps; i++) {
    const r = runOurs(m, elf, MAX_CYCLES);
    ours = Math.min(ours, r.oursMs);
    instructions = r.ours.instructions;
    cycles = r.ours.cycles;
  }
  let qemu = Infinity;
  for (let i = 0; i < reps; i++) qemu = Math.min(qemu, runQemu(elf, 120_000).ms);
  const mips = (ms: number) => instructions / ms / 1000;
  return {
    name: `${name} (Node)`, value: mips(ours), unit: 'MIPS',
    baseline: { name: 'qemu-riscv32', value: mips(qemu) },
    note: `${(instructions / 1e6).toFixed(1)} M instructions, ${(cycles / instructions).toFixed(2)} CPI; ours ${ours.toFixed(0)} ms, qemu ${qemu.toFixed(0)} ms`,
  };
}

async function speedRows(m: Machine): Promise<BenchRow[]> {
  const work: Program = { name: 'workload-scaled', sources: [join(PROGRAMS_DIR, 'workload.c')], includes: [] };
  const rows: BenchRow[] = [];
  for (const [march, tag] of [['rv32imc', 'rv32imc'], [XCV, 'xcv']] as const) {
    const elf = await compileCAsync(work.sources, join(scratchDir(), `workload.${tag}.elf`), { march, defines: ['SCALE=400'] });
    if (tag === 'xcv') {
      // qemu cannot run CORE-V code: ours only.
      const r = runOurs(m, elf, MAX_CYCLES);
      rows.push({ name: 'workload, CORE-V build (Node)', value: r.ours.instructions / r.oursMs / 1000, unit: 'MIPS', note: `${(r.ours.instructions / 1e6).toFixed(1)} M instructions` });
    } else {
      rows.push(await speed(m, `workload x400 ${tag}`, elf));
    }
  }
  for (const p of handWritten().filter((q) => ['sort', 'recursion'].includes(q.name))) {
    const elf = await compileCAsync(p.sources, join(scratchDir(), `${p.name}.bench.elf`), { march: 'rv32imc' });
    rows.push(await speed(m, `${p.name} rv32imc`, elf));
  }
  return rows;
}

const BENCH_DIR = join(PROGRAMS_DIR, '../bench');

/** Best-of-`reps` wall time of f, after one warm-up call. */
function bestMs<T>(reps: number, f: () => T): { ms: number; last: T } {
  let last = f();
  let ms = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    last = f();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, last };
}

/** 8 cores busy on the cluster vs the same work on one core (ours and qemu's). */
async function clusterRows(m: Machine): Promise<BenchRow[]> {
  const defines = ['REPS=1000'];
  const clusterElf = readBytes(await compileSiracusa([join(BENCH_DIR, 'cluster.c')], join(scratchDir(), 'bench-cluster.elf'), { march: 'rv32imc', defines }));
  const singlePath = await compileCAsync([join(BENCH_DIR, 'single.c')], join(scratchDir(), 'bench-single.elf'), { march: 'rv32imc', defines });
  const cl = bestMs(3, () => runSiracusa(m, clusterElf, { maxCycles: 1e11 }));
  // The same run profiled (issue #14): the per-pc heat over the whole code segment, the event log.
  const code = parseElf(clusterElf).segments.find((s) => s.flags & 1)!;
  const prof = bestMs(3, () => runSiracusa(m, clusterElf, { maxCycles: 1e11, profile: { lo: code.vaddr, span: code.memsz } }));
  const one = bestMs(3, () => runElf(m, readBytes(singlePath), { maxCycles: 1e11 }));
  if (cl.last.stdout !== one.last.stdout) throw new Error(`cluster and single-core benchmark disagree: ${cl.last.stdout} vs ${one.last.stdout}`);
  let qemu = Infinity;
  for (let i = 0; i < 3; i++) qemu = Math.min(qemu, runQemu(singlePath, 120_000).ms);
  const clIns = cl.last.cores.reduce((s, c) => s + c.instructions, 0);
  const mips = (ins: number, ms: number) => ins / ms / 1000;
  const q = { name: 'qemu-riscv32, single-core ELF', value: mips(one.last.instructions, qemu) };
  // The same ELF on the wasm core in headless Chromium (the app's build of it).
  const chromium = await inChromium((page) => timeHook(page, 'simRun', { elfBase64: Buffer.from(clusterElf).toString('base64') }, 3));
  const browserRow: BenchRow = 'skipped' in chromium
    ? { name: 'cluster: 8 cores busy, aggregate (Chromium)', value: NaN, unit: 'MIPS', note: chromium.skipped }
    : {
      name: 'cluster: 8 cores busy, aggregate (Chromium)', value: mips(chromium.result.figures.instructions, chromium.result.ms!), unit: 'MIPS',
      baseline: { name: 'same ELF in Node', value: mips(clIns, cl.ms) },
      note: `${chromium.result.figures.cycles === cl.last.cycles ? 'same cycles as Node' : `CYCLES DIFFER: ${chromium.result.figures.cycles} vs ${cl.last.cycles}`}; run in the page's main thread; target >= 100 MIPS`,
    };
  return [
    browserRow,
    {
      name: 'cluster: 8 cores busy, profiled (Node)', value: mips(clIns, prof.ms), unit: 'MIPS', baseline: { name: 'not profiled', value: mips(clIns, cl.ms) },
      note: `${prof.last.cycles === cl.last.cycles ? 'same cycles' : `CYCLES DIFFER: ${prof.last.cycles} vs ${cl.last.cycles}`}; ${prof.last.profile?.jobs.length ?? 0} jobs logged, ${prof.last.profile?.dropped ?? 0} dropped`,
    },
    {
      name: 'cluster: 8 cores busy, aggregate (Node)', value: mips(clIns, cl.ms), unit: 'MIPS', baseline: q,
      note: `${(clIns / 1e6).toFixed(0)} M instructions in ${(cl.last.cycles / 1e6).toFixed(2)} M cycles (${(one.last.cycles / cl.last.cycles).toFixed(2)}x fewer than 1 core); ${cl.ms.toFixed(0)} ms`,
    },
    {
      name: 'same work on 1 bare core (Node)', value: mips(one.last.instructions, one.ms), unit: 'MIPS', baseline: q,
      note: `${(one.last.instructions / 1e6).toFixed(0)} M instructions, ${(one.last.cycles / 1e6).toFixed(2)} M cycles; ours ${one.ms.toFixed(0)} ms, qemu ${qemu.toFixed(0)} ms`,
    },
  ];
}

/** csmith seeds from 1 up until `count` programs have been compared (qemu > 5 s: skipped). */
async function fuzzRows(m: Machine, count: number): Promise<BenchRow[]> {
  let agree = 0;
  let skipped = 0;
  let instructions = 0;
  let ms = 0;
  let nextSeed = 1;
  let reserved = 0;
  const bad: string[] = [];
  const t0 = performance.now();
  const compared = () => agree + bad.length;
  const worker = async () => {
    while (reserved < count) {
      const seed = nextSeed++;
      const p = csmith(seed);
      const o = await differential(m, p, 'rv32imc', MAX_CYCLES, undefined, 5_000);
      if (!o.ours) { skipped++; continue; }
      if (reserved >= count) return;
      reserved++;
      const x = await differential(m, p, XCV, MAX_CYCLES, o.qemu);
      instructions += o.ours.instructions + (x.ours?.instructions ?? 0);
      ms += o.oursMs + x.oursMs;
      if (o.mismatch || x.mismatch) bad.push(`seed ${seed}: ${o.mismatch ?? `CORE-V build: ${x.mismatch}`}`);
      else agree++;
      if (compared() % 25 === 0) process.stderr.write(`  csmith: ${compared()}/${count} compared\n`);
    }
  };
  await Promise.all([worker(), worker()]);
  for (const b of bad) process.stderr.write(`MISMATCH ${b}\n`);
  return [{
    name: `csmith differential, ${compared()} programs`, value: agree, unit: 'agree',
    note: `${bad.length} mismatches; seeds 1..${nextSeed - 1}, ${skipped} skipped (qemu > 5 s); each also built for CORE-V; ${(instructions / 1e6).toFixed(0)} M instructions at ${(instructions / ms / 1000).toFixed(0)} MIPS incl. loading; ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  }];
}

export const simBench: Bench = {
  name: 'sim',
  run: async () => {
    if (!toolsPresent(CLANG, QEMU, CSMITH)) return [{ name: 'sim (clang-19, qemu-user, csmith missing)', value: 0, unit: '' }];
    const m = await nodeMachine();
    const seedArg = process.argv.indexOf('--seeds');
    const seeds = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 200;
    return [...await speedRows(m), ...await clusterRows(m), ...await fuzzRows(m, seeds)];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stderr.write('running sim…\n');
  const rows = await simBench.run();
  console.log(formatTable(rows));
  if (rows.some((r) => r.name.startsWith('csmith differential') && !/^0 mismatches/.test(r.note ?? ''))) process.exitCode = 1;
}
