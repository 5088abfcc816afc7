// npm run bench -- csmith-cc [--seeds N] [--from S] [--levels] : the csmith differential of our
// toolchain at scale. csmith seeds from S (default 1) up until N programs (default 1,000) have been
// compared: clang-19's build on qemu-riscv32 (a seed qemu cannot finish in 5 s is skipped, not
// counted) against our compiler + assembler + linker's build (-O2, CORE-V) on the simulator.
// --levels: each program is also built by us at -O0 (no optimisation) and run on the simulator;
// it must print what clang-19's and our -O2 build print (a mismatch of either kind counts).
// Prints agreements, mismatches and timeouts (ours past 2e9 cycles); the mismatching and
// timed-out seeds go to stderr as reproducers (`csmith --seed N`). The bar is 0 mismatches.
import { nodeMachine } from '../src/sim/node';
import { csmithVsClang, type CsmithCcOutcome } from '../src/sim/testing/csmith-cc';
import { CLANG, CSMITH, QEMU, toolsPresent } from '../src/sim/testing/toolchain';
import type { Bench, BenchRow } from './harness';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

export const csmithCcBench: Bench = {
  name: 'csmith-cc',
  run: async (): Promise<BenchRow[]> => {
    if (!toolsPresent(CLANG, QEMU, CSMITH)) return [{ name: 'csmith-cc (clang-19, qemu-user, csmith missing)', value: NaN, unit: '' }];
    const count = arg('--seeds', 1000);
    const from = arg('--from', 1);
    const levels = process.argv.includes('--levels');
    const m = await nodeMachine();
    const done: CsmithCcOutcome[] = [];
    let skipped = 0;
    let next = from;
    const t0 = performance.now();
    // Two workers: one's clang-19 build and qemu run overlap the other's compile and simulation.
    const worker = async () => {
      while (done.length < count) {
        const seed = next++;
        const o = await csmithVsClang(m, seed, { levels });
        if (o.status === 'skipped') { skipped++; continue; }
        if (done.length >= count) return;
        done.push(o);
        if (o.status !== 'agree') process.stderr.write(`${o.status.toUpperCase()}${o.level ? ` (${o.level})` : ''} seed ${seed}: ${o.why}\n`);
        if (done.length % 50 === 0) process.stderr.write(`  csmith-cc: ${done.length}/${count} compared\n`);
      }
    };
    await Promise.all([worker(), worker()]);
    const by = (s: string) => done.filter((o) => o.status === s);
    const agree = by('agree'), mismatch = by('mismatch'), timeout = by('timeout');
    const sum = (f: (o: CsmithCcOutcome) => number | undefined) => agree.reduce((t, o) => t + (f(o) ?? 0), 0);
    const seeds = (l: CsmithCcOutcome[]) => l.map((o) => o.seed).sort((a, b) => a - b).join(' ');
    if (mismatch.length) process.stderr.write(`mismatching seeds: ${seeds(mismatch)}\n`);
    if (timeout.length) process.stderr.write(`timed-out seeds: ${seeds(timeout)}\n`);
    if (mismatch.length) process.exitCode = 1;
    const n = Math.max(agree.length, 1);
    const atO0 = (l: CsmithCcOutcome[]) => l.filter((o) => o.level === '-O0').length;
    const o0Note = levels ? `; of these -O0 builds: ${atO0(mismatch)} mismatches (vs clang-19 or our -O2), ${atO0(timeout)} timeouts; -O0 simulation ${(sum((o) => o.o0?.cycles) / Math.max(1, sum((o) => o.ours?.cycles))).toFixed(1)}x -O2's cycles` : '';
    return [
      {
        name: `csmith-cc: ${done.length} programs, ours${levels ? ' (-O2 and -O0)' : ''} on the simulator vs clang-19 on qemu`, value: mismatch.length, unit: 'mismatches',
        note: `${agree.length} agree, ${timeout.length} timeouts (ours > 2e9 cycles), ${skipped} skipped (qemu > 5 s); seeds ${from}..${Math.max(from, ...done.map((o) => o.seed))}${o0Note}; ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      },
      {
        name: 'csmith-cc: our compile per program (agreeing ones, mean)', value: sum((o) => o.compileMs) / n, unit: 'ms',
        note: `link ${(sum((o) => o.linkMs) / n).toFixed(1)} ms, simulation ${(sum((o) => o.runMs) / n).toFixed(0)} ms, ${(sum((o) => o.ours?.instructions) / n / 1e6).toFixed(2)} M instructions per program`,
      },
    ];
  },
};
