// Fuzz benchmark: N seeded mutations of the shared models, each under a seeded configuration,
// through every stage (parse, shapes, interpret, lower, tile, codegen, our C compiler:
// src/testing/fuzz-stages.ts), in child processes so that a case that hangs (over `hangMs`) can be
// killed and counted. (Child processes rather than worker threads: on Node 20, tsx's loader does
// not reach worker threads.) Standalone: `npx tsx bench/fuzz.ts [cases] [seed] [front|compile|all]`.
// Every finding is printed with its seed and model: fuzzOnce(model bytes, seed) reproduces it.
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCorpus } from '../src/testing/corpus';
import { fuzzStages, STAGE_SETS, type StageSet } from '../src/testing/fuzz-stages';
import type { CaseResult, FuzzModel, FuzzSummary } from '../src/compiler/fuzz/run';
import { bugCount, describeCase, distinctFindings, emptySummary, formatSummary, record, runCase, stoppedCase } from '../src/compiler/fuzz/run';
import { readNpz } from '../src/compiler/npz';
import type { Bench, BenchRow } from './harness';
import { formatTable } from './harness';

export interface BenchFuzzOptions {
  /** Worker processes (default: one per CPU). */
  workers?: number;
  /**
   * A case running longer than this is a hang (default 60 s: the largest models take 10-20 s
   * through every stage on a busy machine, and a 2 KiB L1 turns microLlama's tile tables into a
   * 5.7 MB Network.c that our compiler takes 35 s on). Cases over a third of it are printed as slow.
   */
  hangMs?: number;
  baseSeed?: number;
  /** Which stages: the front end only, or all (default). */
  stages?: StageSet;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

const WORKER_FLAG = '--fuzz-worker';
type ToWorker = { index: number } | { stop: true };
type FromWorker = { ready: true } | { index: number; stage: string } | { index: number; result: CaseResult };

function loadModels(): FuzzModel[] {
  return loadCorpus().map((c) => ({ name: c.name, onnx: c.onnx, inputs: c.inputs ? readNpz(c.inputs, 'inputs.npz') : undefined }));
}

/** Runs `cases` fuzz cases and returns the counts; hangs and bugs are in `findings`. */
export async function benchFuzz(cases = 10000, opts: BenchFuzzOptions = {}): Promise<FuzzSummary> {
  const hangMs = opts.hangMs ?? 60_000;
  const baseSeed = opts.baseSeed ?? 1;
  const set = opts.stages ?? 'all';
  const nWorkers = Math.max(1, Math.min(opts.workers ?? availableParallelism(), cases));
  const models = loadModels();
  const summary = emptySummary(fuzzStages(set).map((s) => s.name));
  const t0 = performance.now();
  let next = 0;
  let lastLog = t0;
  /** Records a case and prints a finding as soon as it is found. */
  const add = (r: CaseResult) => {
    const before = summary.findings.length;
    record(summary, r);
    for (const f of summary.findings.slice(before)) opts.log?.(`  ${describeCase(f)}`);
    if (r.outcome !== 'hang' && r.ms > hangMs / 3) opts.log?.(`  slow (${r.ms.toFixed(0)} ms, ${JSON.stringify(r.stageMs)}): ${describeCase(r).slice(0, 300)}`);
  };

  await new Promise<void>((resolve, reject) => {
    let live = 0;
    const start = () => {
      // The same module, with the same loader flags (tsx), in worker mode.
      const w: ChildProcess = fork(fileURLToPath(import.meta.url), [WORKER_FLAG, String(baseSeed), set], {
        execArgv: process.execArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      live++;
      let ready = false;
      let killed = false; // after a hang: ignore whatever the worker still sends
      let current = -1;
      let stage = '';
      let timer: ReturnType<typeof setTimeout> | undefined;
      let startedAt = 0;
      const dispatch = () => {
        if (next >= cases) {
          w.send({ stop: true } satisfies ToWorker);
          return;
        }
        current = next++;
        stage = '';
        startedAt = performance.now();
        w.send({ index: current } satisfies ToWorker);
        timer = setTimeout(() => {
          // A hang: stop the worker, record the case, and carry on with a fresh worker.
          add(stoppedCase(models, current, baseSeed, 'hang', stage, `still running after ${hangMs} ms (killed)`, performance.now() - startedAt));
          current = -1;
          killed = true;
          w.kill('SIGKILL');
        }, hangMs);
      };
      w.on('message', (m: FromWorker) => {
        if (killed) return;
        if ('ready' in m) {
          ready = true;
          return dispatch();
        }
        if ('stage' in m) {
          stage = m.stage;
          return;
        }
        clearTimeout(timer);
        add(m.result);
        current = -1;
        const now = performance.now();
        if (opts.log && now - lastLog > 10_000) {
          lastLog = now;
          opts.log(`  ${summary.cases}/${cases} cases, ${summary.outcomes.uncaught} uncaught, ${summary.outcomes.internal} internal, ${summary.outcomes.hang} hangs`);
        }
        dispatch();
      });
      w.on('exit', (code, signal) => {
        clearTimeout(timer);
        live--;
        if (!ready) return reject(new Error(`a fuzz worker failed to start (exit ${code ?? signal})`));
        // A crash of the worker itself (out of memory...) counts against the case it ran.
        if (current >= 0) {
          add(stoppedCase(models, current, baseSeed, 'uncaught', stage, `the worker died (exit ${code ?? signal})`, performance.now() - startedAt));
          current = -1;
        }
        if (next < cases) start();
        else if (live === 0) resolve();
      });
    };
    try {
      for (let i = 0; i < nWorkers; i++) start();
    } catch (e) {
      reject(e);
    }
  });
  summary.ms = performance.now() - t0;
  return summary;
}

/** The benchmark as bench/run.ts lists them. */
export const fuzzBench: Bench = {
  name: 'fuzz',
  run: async () => {
    const s = await benchFuzz(Number(process.env.FUZZ_CASES ?? 10000), { log: (l) => process.stderr.write(`${l}\n`) });
    for (const l of formatSummary(s, true)) process.stderr.write(`${l}\n`);
    for (const d of distinctFindings(s)) process.stderr.write(`  ${d.count}x: ${describeCase(d.first).slice(0, 800)}\n`);
    return rows(s);
  },
};

function rows(s: FuzzSummary): BenchRow[] {
  const last = Object.entries(s.stages).at(-1);
  return [{
    name: `fuzz, every stage (${s.cases} cases)`,
    value: s.ms,
    unit: 'ms',
    note: `${(s.cases / (s.ms / 1000)).toFixed(1)} cases/s; ok ${s.outcomes.ok}, refused ${s.outcomes.error}, internal ${s.outcomes.internal}, ` +
      `uncaught ${s.outcomes.uncaught}, hangs ${s.outcomes.hang}; ${last ? `${last[1].passed} through ${last[0]}` : ''}`,
  }];
}

// ---- the worker side ----------------------------------------------------------------------------

const isWorker = process.argv[2] === WORKER_FLAG && !!process.send;
if (isWorker) {
  const baseSeed = Number(process.argv[3]);
  const stages = fuzzStages(process.argv[4] as StageSet);
  const models = loadModels();
  // One case at a time: the parent sends the next index only after the result.
  process.on('message', (m: ToWorker) => {
    if ('stop' in m) return process.disconnect();
    void runCase(models, m.index, baseSeed, stages, (stage) => process.send!({ index: m.index, stage } satisfies FromWorker))
      .then((result) => process.send!({ index: m.index, result } satisfies FromWorker));
  });
  process.send!({ ready: true } satisfies FromWorker);
}

// ---- standalone -----------------------------------------------------------------------------------

if (!isWorker && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cases = Number(process.argv[2] ?? 10000);
  const baseSeed = Number(process.argv[3] ?? 1);
  const set = (process.argv[4] ?? 'all') as StageSet;
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(baseSeed) || !STAGE_SETS.includes(set)) {
    console.error('usage: npx tsx bench/fuzz.ts [cases] [base seed] [front|compile|all]');
    process.exit(2);
  }
  const workers = process.env.FUZZ_WORKERS ? Number(process.env.FUZZ_WORKERS) : undefined;
  const s = await benchFuzz(cases, { baseSeed, stages: set, workers, log: (l) => process.stderr.write(`${l}\n`) });
  console.log(formatTable(rows(s)));
  for (const l of formatSummary(s, true)) console.log(l);
  const distinct = distinctFindings(s);
  if (distinct.length) console.log(`${s.findings.length} findings of ${distinct.length} kinds (count: first reproducer):`);
  for (const d of distinct) console.log(`  ${d.count}x: ${describeCase(d.first).slice(0, 800)}`);
  process.exitCode = bugCount(s) > 0 ? 1 : 0;
}
