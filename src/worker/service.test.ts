// The worker's load check: npz files that do not fit the graph fail the parse stage.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../compiler/config';
import { readNpz, writeNpz } from '../compiler/npz';
import { nodeMilp } from '../pipeline/node/milp';
import type { PipelineEvent } from '../pipeline/events';
import { pipelineService } from './service';

const dir = new URL('../../public/models/adder/', import.meta.url);
const file = (f: string) => new Uint8Array(readFileSync(new URL(f, dir)));

async function load(outputs: Uint8Array) {
  const events: PipelineEvent[] = [];
  const ok = await pipelineService(nodeMilp).compile({ model: file('network.onnx'), modelName: 'network.onnx', inputs: file('inputs.npz'), outputs },
    DEFAULT_CONFIG, (e) => { events.push(e); }, { until: 'parse', checkNpz: true });
  return { ok, error: events.find((e) => e.type === 'error') };
}

describe('pipeline service load check', () => {
  it('passes files that fit, and fails the parse stage naming the file when they do not', async () => {
    expect(await load(file('outputs.npz'))).toEqual({ ok: true, error: undefined });
    const arrays = readNpz(file('outputs.npz'), 'outputs.npz');
    // Golden outputs may be flattened (compare.ts counts elements), but not shorter.
    const half = arrays[0]!.data.length / 2;
    const { ok, error } = await load(writeNpz([{ ...arrays[0]!, shape: [half], data: arrays[0]!.data.slice(0, half) }]));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ stage: 'parse', error: { code: 'bad-inputs', where: 'outputs.npz' } });
  });
});

describe('pipeline service lower results', () => {
  it('carry the element type each tensor really has (the ONNX file declares float32)', async () => {
    let types: Record<string, string>[] | undefined;
    await pipelineService(nodeMilp).compile({ model: file('network.onnx'), modelName: 'network.onnx', inputs: file('inputs.npz') },
      DEFAULT_CONFIG, (e) => { if (e.type === 'stage' && e.stage === 'lower') types = e.result.elementTypes; }, { until: 'lower' });
    expect(types?.[0]).toMatchObject({ a: 'int8', b: 'int8', sum: 'int16' });
    expect(Object.values(types!.at(-1)!)).not.toContain('float32');
  });
});
