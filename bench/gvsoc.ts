// npm run bench -- gvsoc : the tutorial's runs on our simulator beside the cycles Deeploy + GVSoC
// report for them (../shared/reference/siracusa.md). The baseline is a published figure, not
// measured here: the ratio says how far our kernels and timing model are from the reference.
import { dpg } from '../src/cli/main';
import { siracusaToolchain } from '../src/sim/run/simulate';
import type { RunResult } from '../src/sim/run/types';
import type { Bench, BenchRow } from './harness';
import { sharedTest } from './paths';

const LLAMA = sharedTest('Models/microLlama/INT8/microLlama64_parallel');

/** microLlama64_parallel, tiled on 8 cores: flags and GVSoC's cycles for the same run. */
const RUNS: { name: string; flags: string[]; gvsoc: number }[] = [
  { name: 'Siracusa, L1 8000', flags: ['-p', 'siracusa', '--l1', '8000'], gvsoc: 47.5e6 },
  { name: 'Siracusa, L1 64000', flags: ['-p', 'siracusa', '--l1', '64000'], gvsoc: 35.3e6 },
  { name: 'Siracusa + N-EUREKA, L1 64000', flags: ['-p', 'siracusa-neureka', '--l1', '64000'], gvsoc: 28.6e6 },
  { name: 'Siracusa + N-EUREKA + weight memory, L1 64000', flags: ['-p', 'siracusa-neureka', '--l1', '64000', '--neureka-wmem'], gvsoc: 28.3e6 },
];

async function cycles(flags: string[]): Promise<{ run?: RunResult; error?: string }> {
  const out: string[] = [];
  await dpg(['run', '--cc', 'clang', '--cores', '8', '-t', LLAMA, '--json', ...flags], (s) => out.push(s), () => {});
  const j = JSON.parse(out.join('\n')) as { run?: RunResult; error?: { what: string } };
  return { run: j.run, error: j.error?.what };
}

export const gvsocBench: Bench = {
  name: 'gvsoc',
  run: async () => {
    if (!siracusaToolchain()) return [{ name: 'gvsoc (clang-19 / ld.lld-19 missing)', value: NaN, unit: '' }];
    const rows: BenchRow[] = [];
    for (const r of RUNS) {
      const { run, error } = await cycles(r.flags);
      const ok = run && /^Errors: 0 out of/m.test(run.stdout);
      rows.push({
        name: `microLlama64_parallel, ${r.name}, 8 cores`, value: ok ? run.cycles! / 1e6 : NaN, unit: 'M cycles',
        baseline: { name: 'GVSoC (published)', value: r.gvsoc / 1e6 },
        note: ok ? `Errors 0; ${(run.sim!.instructions / 1e6).toFixed(0)} M instructions${run.sim!.neureka.tasks ? `, ${run.sim!.neureka.tasks} NPU tasks` : ''}`
          : `failed: ${error ?? run?.stdout.slice(-200)}`,
      });
    }
    return rows;
  },
};
