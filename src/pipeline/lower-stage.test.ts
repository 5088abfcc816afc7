import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeOnnx } from '../compiler/onnx/write';
import { at, GraphBuilder } from '../compiler/passes/testing';
import { artifactsOf } from './artifacts';
import { DEFAULT_CONFIG } from '../compiler/config';
import type { PipelineEvent } from './events';
import { record, type Results } from './results';
import { runPipeline } from './run';
import { SHARED_TESTS, missing } from '../testing/requires';

/** The stage results among the events. */
function resultsOf(events: PipelineEvent[]): Results {
  const r: Results = {};
  for (const e of events) if (e.type === 'stage') record(r, e);
  return r;
}

async function events(model: Uint8Array, platform = DEFAULT_CONFIG.platform, extra: { inputs?: Uint8Array } = {}) {
  const got: PipelineEvent[] = [];
  await runPipeline({ model, modelName: 'network.onnx', ...extra }, { ...DEFAULT_CONFIG, platform }, (e) => got.push(e), { until: 'lower' });
  return got;
}

describe('the lower stage', () => {
  it('fails with an unsupported-op error naming the node and the missing capability, after reporting its result', async () => {
    const b = new GraphBuilder();
    const c = b.node('Conv', [b.input('x', [1, 2, 8, 8]), b.init('w', [2, 2, 3, 3])], { dilations: at.ints([2, 2]), kernel_shape: at.ints([3, 3]) });
    b.output(b.requant(c, 8));
    const got = await events(writeOnnx(b.build()));
    const lower = got.filter((e) => 'stage' in e && e.stage === 'lower' && e.type !== 'progress');
    expect(lower.map((e) => e.type)).toEqual(['stage', 'error']);
    const result = resultsOf(got).lower!;
    expect(result.snapshots.length).toBeGreaterThan(1);
    const error = (lower[1] as { error: { code: string; where: string; what: string } }).error;
    expect(error.code).toBe('unsupported-op');
    expect(error.where).toBe('node "Conv_0" (RequantizedConv)');
    expect(error.what).toContain('dilation 1');
    expect(got.filter((e) => e.type === 'progress' && e.stage === 'lower').map((e) => (e as { message: string }).message))
      .toContain('pass 1/31: type-inputs');
  });

  const mobilenet = fileURLToPath(new URL('../../../shared/deeploy-tests/Models/miniMobileNetv2/', import.meta.url));
  it.skipIf(missing(SHARED_TESTS))('lowers miniMobileNetv2 and writes final.onnx, passes.json and bindings.json', async () => {
    const got = await events(readFileSync(`${mobilenet}network.onnx`), 'siracusa', { inputs: readFileSync(`${mobilenet}inputs.npz`) });
    expect(got.find((e) => e.type === 'error')).toBeUndefined();
    const r = resultsOf(got).lower!;
    expect(r.checkInputs).toBe('inputs.npz');
    const files = artifactsOf({ stage: 'lower', result: r });
    expect(files.map((f) => f.path)).toEqual(['final.onnx', 'passes.json', 'bindings.json']);
    const passes = JSON.parse(files[1].data as string) as { passes: { pass: string; nodes: number; check: unknown }[] };
    expect(passes.passes.at(-1)).toMatchObject({ pass: 'drop-output-reshape', nodes: 15 });
    expect(JSON.parse(files[2].data as string).failures).toEqual([]);
  });
});
