// npm run bench [-- name ...]: runs the benchmarks (all, or those whose name contains an
// argument) and prints one table.
import { ccSpeedBench } from './cc-speed';
import { codePaneBench } from './codepane';
import { interpretBench, parseBench } from './frontend';
import { fuzzBench } from './fuzz';
import { gvsocBench } from './gvsoc';
import { simBench } from './sim';
import { lowerBench } from './lower';
import { layoutBench } from './layout';
import { preprocessBench } from './preprocess';
import { tilingBench } from './tiling';
import type { Bench, BenchRow } from './harness';
import { formatTable } from './harness';

const BENCHES: Bench[] = [parseBench, interpretBench, lowerBench, layoutBench, tilingBench, codePaneBench, preprocessBench, ccSpeedBench, fuzzBench, simBench, gvsocBench];

const filters = process.argv.slice(2);
const chosen = BENCHES.filter((b) => filters.length === 0 || filters.some((f) => b.name.includes(f)));
const rows: BenchRow[] = [];
for (const b of chosen) {
  process.stderr.write(`running ${b.name}…\n`);
  rows.push(...(await b.run()));
}
console.log(formatTable(rows));
