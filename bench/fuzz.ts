// Fuzz benchmark: N seeded mutations of the shared models through the whole front end
// (readOnnx -> shape inference -> interpreter), in child processes so that a case that hangs
// (> 5 s) can be killed and counted. (Child processes rather than worker threads: on Node 20,
// tsx's loader does not reach worker threads.) Standalone: `npx tsx bench/fuzz.ts [cases] [seed]`.
// Every finding is printed with its seed and model: fuzzOnce(model bytes, seed) reproduces it.
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCorpus } from '../src/testing/corpus';
import { mutate } from '../src/compiler/fuzz/mutate';
import { mulberry32 } from '../src/compiler/fuzz/prng';
import type { CaseResult, FuzzModel, FuzzSummary } from '../src/compiler/fuzz/run';
import { caseFor, describeCase, emptySummary, record, runCase } from '../src/compiler/fuzz/run';
import { readNpz } from '../src/compiler/npz';
import type { Bench, BenchRow } from './harness';
import { formatTable } from './harness';

export interface BenchFuzzOptions {
  /** Worker processes (default: one per CPU). */
  workers?: number;
  /** A case running longer than this is a hang (default 5000 ms). */
  hangMs?: number;
  baseSeed?: number;
  /** Element budget per case (see fuzzOnce). */
  budget?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

const WORKER_FLAG = '--fuzz-worker';
type ToWorker = { index: number } | { stop: true };
type FromWorker = { ready: true } | { index: number; result: CaseResult };

function loadModels(): FuzzModel[] {
  return loadCorpus().map((c) => ({ name: c.name, onnx: c.onnx, inputs: c.inputs ? readNpz(c.inputs, 'inputs.npz') : undefined }));
}

/** Runs `cases` fuzz cases and returns the counts; hangs and uncaught exceptions are in `findings`. */
export async function benchFuzz(cases = 10000, opts: BenchFuzzOptions = {}): Promise<FuzzSummary> {
  const hangMs = opts.hangMs ?? 5000;
  const baseSeed = opts.baseSeed ?? 1;
  const nWorkers = Math.max(1, Math.min(opts.workers ?? availableParallelism(), cases));
  const models = loadModels();
  const summary = emptySummary();
  const t0 = performance.now();
  let next = 0;
  let lastLog = t0;

  await new Promise<void>((resolve, reject) => {
    let live = 0;
    const start = () => {
      // The same module, with the same loader flags (tsx), in worker mode.
      const w: ChildProcess = fork(fileURLToPath(import.meta.url), [WORKER_FLAG, String(baseSeed), String(opts.budget ?? '')], {
        execArgv: process.execArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      live++;
      let ready = false;
      let killed = false; // after a hang: ignore whatever the worker still sends
      let current = -1;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let startedAt = 0;
      const dispatch = () => {
        if (next >= cases) {
          w.send({ stop: true } satisfies ToWorker);
          return;
        }
        current = next++;
        startedAt = performance.now();
        w.send({ index: current } satisfies ToWorker);
        timer = setTimeout(() => {
          // A hang: stop the worker, record the case, and carry on with a fresh worker.
          const { model, donor, seed } = caseFor(models, current, baseSeed);
          const what = mutate(model.onnx, mulberry32(seed), donor.onnx).what;
          record(summary, { seed, model: model.name, mutation: what, outcome: 'hang', stage: 'interpret',
            message: `still running after ${hangMs} ms (killed)`, ms: performance.now() - startedAt });
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
        clearTimeout(timer);
        record(summary, m.result);
        current = -1;
        const now = performance.now();
        if (opts.log && now - lastLog > 5000) {
          lastLog = now;
          opts.log(`  ${summary.cases}/${cases} cases, ${summary.uncaught} uncaught, ${summary.hangs} hangs`);
        }
        dispatch();
      });
      w.on('exit', (code, signal) => {
        clearTimeout(timer);
        live--;
        if (!ready) return reject(new Error(`a fuzz worker failed to start (exit ${code ?? signal})`));
        // A crash of the worker itself (out of memory...) counts against the case it ran.
        if (current >= 0) {
          const { model, donor, seed } = caseFor(models, current, baseSeed);
          const what = mutate(model.onnx, mulberry32(seed), donor.onnx).what;
          record(summary, { seed, model: model.name, mutation: what, outcome: 'uncaught', stage: 'interpret',
            message: `the worker died (exit ${code ?? signal})`, ms: performance.now() - startedAt });
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
  run: async () => rows(await benchFuzz(Number(process.env.FUZZ_CASES ?? 10000))),
};

function rows(s: FuzzSummary): BenchRow[] {
  return [{
    name: `fuzz front end (${s.cases} cases)`,
    value: s.ms,
    unit: 'ms',
    note: `${(s.cases / (s.ms / 1000)).toFixed(0)} cases/s; ok ${s.ok}, errors ${s.errors}, uncaught ${s.uncaught}, hangs ${s.hangs}`,
  }];
}

// ---- the worker side ----------------------------------------------------------------------------

const isWorker = process.argv[2] === WORKER_FLAG && !!process.send;
if (isWorker) {
  const baseSeed = Number(process.argv[3]);
  const budget = process.argv[4] ? Number(process.argv[4]) : undefined;
  const models = loadModels();
  process.on('message', (m: ToWorker) => {
    if ('stop' in m) return process.disconnect();
    const result = runCase(models, m.index, baseSeed, budget);
    process.send!({ index: m.index, result } satisfies FromWorker);
  });
  process.send!({ ready: true } satisfies FromWorker);
}

// ---- standalone -----------------------------------------------------------------------------------

if (!isWorker && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cases = Number(process.argv[2] ?? 10000);
  const baseSeed = Number(process.argv[3] ?? 1);
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(baseSeed)) {
    console.error('usage: npx tsx bench/fuzz.ts [cases] [base seed]');
    process.exit(2);
  }
  const s = await benchFuzz(cases, { baseSeed, log: (l) => process.stderr.write(`${l}\n`) });
  console.log(formatTable(rows(s)));
  console.log(`errors by code: ${JSON.stringify(s.byCode)}; cases ended in: ${JSON.stringify(s.byStage)}; ` +
    `slowest case ${s.slowestMs.toFixed(0)} ms; interpreter skipped for the element budget: ${s.overBudget}`);
  for (const f of s.findings) console.log(`  ${describeCase(f)}`);
  process.exitCode = s.uncaught + s.hangs > 0 ? 1 : 0;
}
