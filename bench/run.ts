// npm run bench [-- name ...]: runs the benchmarks (all; or for each argument, the benchmark of
// that exact name if there is one, else those whose name contains it) and prints one table.
import { ccBench } from './cc';
import { ccSpeedBench } from './cc-speed';
import { codePaneBench } from './codepane';
import { convBench } from './conv';
import { csmithCcBench } from './csmith-cc';
import { fidelityBench } from './fidelity';
import { interpretBench, parseBench } from './frontend';
import { fuzzBench } from './fuzz';
import { gvsocBench } from './gvsoc';
import { simBench } from './sim';
import { lowerBench } from './lower';
import { layoutBench } from './layout';
import { preprocessBench } from './preprocess';
import { profileBench } from './profile';
import { tilingBench } from './tiling';
import type { Bench, BenchRow } from './harness';
import { formatTable } from './harness';

const BENCHES: Bench[] = [parseBench, interpretBench, lowerBench, layoutBench, tilingBench, codePaneBench, profileBench, preprocessBench, ccSpeedBench, fuzzBench, simBench, gvsocBench, csmithCcBench, ccBench, convBench, fidelityBench];

const filters = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const exact = (f: string) => BENCHES.some((b) => b.name === f);
const chosen = BENCHES.filter((b) => filters.length === 0 || filters.some((f) => (exact(f) ? b.name === f : b.name.includes(f))));
const rows: BenchRow[] = [];
for (const b of chosen) {
  process.stderr.write(`running ${b.name}…\n`);
  rows.push(...(await b.run()));
}
console.log(formatTable(rows));
