// The run stage: a runner's RunError (a run that went wrong midway) is reported as the run's
// result so far, then the error, like any stage that fails with a result worth showing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../compiler/config';
import { nodeMilp } from './node/milp';
import { RunError } from '../sim/run/error';
import type { RunResult, Runner } from '../sim/run/types';
import type { PipelineEvent } from './events';
import { runPipeline } from './run';

const adder = (f: string) => readFileSync(new URL(`../../public/models/adder/${f}`, import.meta.url));

async function run(runner: Runner) {
  const got: PipelineEvent[] = [];
  const ok = await runPipeline({ model: adder('network.onnx'), modelName: 'network.onnx', inputs: adder('inputs.npz') },
    { ...DEFAULT_CONFIG, platform: 'generic' }, (e) => got.push(e), { milp: nodeMilp, runner });
  return { ok, run: got.filter((e) => 'stage' in e && e.stage === 'run' && e.type !== 'progress') };
}

describe('the run stage', () => {
  const partial: RunResult = { target: 'simulator', compiler: 'test', stdout: 'half', exitCode: -1 };

  it("reports a RunError's result, then its error", async () => {
    const { ok, run: events } = await run(() => { throw new RunError({ code: 'limit', where: 'run', what: 'too long' }, partial); });
    expect(ok).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['stage', 'error']);
    expect(events[0]).toMatchObject({ result: partial });
    expect(events[1]).toMatchObject({ error: { code: 'limit', what: 'too long' } });
  });

  it("reports a runner's result", async () => {
    const { ok, run: events } = await run(async () => ({ ...partial, exitCode: 0, stdout: 'Errors: 0 out of 1\n', errors: 0, total: 1 }));
    expect(ok).toBe(true);
    expect(events).toMatchObject([{ type: 'stage', result: { errors: 0 } }]);
  });
});
