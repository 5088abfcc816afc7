// Running a sweep: every point compiled and run in its own pipeline worker, as many at once as
// the machine has cores (at most one per point). A point reports its Runtime, errors and
// per-layer cycles, or why it failed; cancel stops every worker.
import type { Config } from '../../compiler/config';
import type { PipelineInput } from '../../pipeline/run';
import { PipelineClient } from '../../worker/client';
import { pointConfig, pointError, type SweepParam, type SweepValue } from './plan';

export interface SweepPoint {
  value: SweepValue;
  config: Config;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  /** Runtime (cycles) and `Errors: E out of T` of a finished run. */
  cycles?: number;
  errors?: number;
  total?: number;
  /** Controller cycles per layer node (from the run's profile). */
  layers?: Record<string, number>;
  /** Why the point did not run or did not finish. */
  error?: string;
  /** Wall time of the point, ms. */
  ms?: number;
}

export interface SweepHandle { done: Promise<SweepPoint[]>; cancel: () => void }

/** How many workers a sweep runs at once here. */
export function sweepParallelism(points: number): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(points, cores));
}

export function runSweep(input: PipelineInput, base: Config, param: SweepParam, values: SweepValue[],
  onUpdate: (points: SweepPoint[]) => void, parallel = sweepParallelism(values.length)): SweepHandle {
  const points: SweepPoint[] = values.map((value) => {
    const config = pointConfig(base, param, value);
    const error = pointError(config);
    return { value, config, status: error ? 'failed' : 'queued', ...(error ? { error } : {}) };
  });
  const clients: PipelineClient[] = [];
  let cancelled = false;
  const update = () => onUpdate(points.map((p) => ({ ...p })));

  const runPoint = async (client: PipelineClient, p: SweepPoint) => {
    p.status = 'running';
    update();
    const t0 = performance.now();
    let runError: string | undefined;
    const outcome = await client.compile(input, p.config, (e) => {
      if (e.type === 'stage' && e.stage === 'run') {
        const r = e.result;
        p.cycles = r.cycles; p.errors = r.errors; p.total = r.total;
        if (r.profile) p.layers = Object.fromEntries(r.profile.layers.filter((l) => l.cycles > 0).map((l) => [l.node, l.cycles]));
      }
      if (e.type === 'error') runError = `${e.error.where ? `${e.error.where}: ` : ''}${e.error.what}`;
      if (e.type === 'skipped' && e.stage === 'run') runError = e.reason;
    });
    p.ms = performance.now() - t0;
    if (outcome.kind === 'cancelled' || cancelled) p.status = 'cancelled';
    else if (outcome.kind === 'crashed') { p.status = 'failed'; p.error = outcome.error.what; }
    else if (runError || p.cycles === undefined) { p.status = 'failed'; p.error = runError ?? 'the program printed no Runtime'; }
    else p.status = 'done';
    update();
  };

  const queue = points.filter((p) => p.status === 'queued');
  const lanes = Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    const client = new PipelineClient();
    clients.push(client);
    try {
      for (let p = queue.shift(); p && !cancelled; p = queue.shift()) await runPoint(client, p);
    } finally {
      client.dispose();
    }
  });
  update();
  const done = Promise.all(lanes).then(() => {
    for (const p of points) if (p.status === 'queued') p.status = 'cancelled';
    update();
    return points;
  });
  return { done, cancel: () => { cancelled = true; for (const c of clients) c.cancel(); } };
}
