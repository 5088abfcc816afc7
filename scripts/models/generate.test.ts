// The built-in models: deterministic, valid, self-consistent, and with activations that use the
// int8 range (neither saturated nor collapsed).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dpg } from '../../src/cli/main';
import { checkOutputs } from '../../src/compiler/interpret/compare';
import { interpret } from '../../src/compiler/interpret/interpret';
import { bindNpzInputs } from '../../src/compiler/interpret/npz-io';
import { readNpz } from '../../src/compiler/npz';
import { readOnnx } from '../../src/compiler/onnx/read';
import { inferTypes } from '../../src/compiler/shapes/infer';
import { buildModels, DEFAULT_DIR, modelFiles, writeModels, type BuiltModel, type ModelEntry } from './generate';
import { LLAMA } from './nets/llama';

const IDS = ['adder', 'mini-mobilenetv2', 'mini-resnet', 'transformer-block', 'microllama-prefill', 'microllama-decode'];

let models: BuiltModel[];
let files: Map<string, Uint8Array>;

beforeAll(() => {
  models = buildModels();
  files = modelFiles(models);
  // What `npm run models` does: bring public/models up to date (only changed files are written).
  writeModels(DEFAULT_DIR, files);
});

const bytesOf = (path: string) => new Uint8Array(readFileSync(join(DEFAULT_DIR, path)));

describe('built-in models', () => {
  it('are the six models, listed in index.json in the shape the app reads', () => {
    const index = JSON.parse(new TextDecoder().decode(files.get('index.json'))) as ModelEntry[];
    expect(index.map((m) => m.id)).toEqual(IDS);
    for (const m of index) {
      expect(m.name.length).toBeGreaterThan(3);
      expect(m.description.length).toBeGreaterThan(40);
      for (const f of [m.files.model, m.files.inputs, m.files.outputs]) expect(existsSync(join(DEFAULT_DIR, f))).toBe(true);
    }
    expect(new Uint8Array(readFileSync(join(DEFAULT_DIR, 'index.json')))).toEqual(files.get('index.json'));
  });

  it('are byte-identical when generated again', () => {
    const again = modelFiles(buildModels());
    expect([...again.keys()]).toEqual([...files.keys()]);
    for (const [path, bytes] of files) expect(Buffer.compare(Buffer.from(again.get(path)!), Buffer.from(bytes)), path).toBe(0);
  });

  it.each(IDS)('%s parses, infers, interprets and matches its outputs.npz', (id) => {
    const graph = readOnnx(bytesOf(`${id}/network.onnx`), `${id}/network.onnx`);
    const typed = inferTypes(graph);
    expect(typed.nodes.length).toBe(graph.nodes.length);
    for (const n of typed.nodes) expect(n.domain).toBe(''); // custom ops in the default domain, as in Deeploy's tests
    const { inputs, unused } = bindNpzInputs(graph, readNpz(bytesOf(`${id}/inputs.npz`), 'inputs.npz'), 'inputs.npz');
    expect(unused).toEqual([]);
    const got = interpret(graph, inputs);
    const check = checkOutputs(got, readNpz(bytesOf(`${id}/outputs.npz`), 'outputs.npz'));
    expect(check.errors).toBe(0);
    expect(check.total).toBeGreaterThan(0);
  });

  it.each(IDS)('dpg reference -t public/models/%s reports Errors: 0', async (id) => {
    const out: string[] = [], err: string[] = [];
    const code = await dpg(['reference', '-t', join(DEFAULT_DIR, id)], (s) => out.push(s), (s) => err.push(s));
    expect(err.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/Errors: 0 out of [1-9]\d*/);
  });

  it('decode reproduces the last token of the prefill bit for bit, and the same caches', () => {
    const prefill = models.find((m) => m.entry.id === 'microllama-prefill')!;
    const decode = models.find((m) => m.entry.id === 'microllama-decode')!;
    const { seq, dim } = LLAMA;
    expect(decode.outputValues[0].shape).toEqual([1, 1, dim]);
    expect(Array.from(decode.outputValues[0].data)).toEqual(Array.from(prefill.outputValues[0].data.subarray((seq - 1) * dim)));
    expect(decode.outputValues.length).toBe(prefill.outputValues.length);
    for (let i = 1; i < decode.outputValues.length; i++) {
      expect(decode.outputValues[i].shape).toEqual(prefill.outputValues[i].shape);
      expect(Array.from(decode.outputValues[i].data)).toEqual(Array.from(prefill.outputValues[i].data));
    }
    // Same weights and requant parameters: the two files hold the same initializers.
    const inits = (m: BuiltModel) => Object.values(m.graph.initializers).filter((t) => t.dtype === 'float32');
    expect(inits(decode).map((t) => Array.from(t.data as Float32Array))).toEqual(inits(prefill).map((t) => Array.from(t.data as Float32Array)));
  });

  it.each(IDS)('%s has no degenerate activation', (id) => {
    const m = models.find((x) => x.entry.id === id)!;
    // The decode graph runs one token with the prefill's calibration: narrower ranges are expected there.
    const minPeak = id === 'microllama-decode' ? 16 : 32;
    const bad: string[] = [];
    for (const a of m.builder.activations) {
      const peak = Math.max(-a.min, a.max);
      const why = a.kind === 'int8'
        ? [a.clipped > 0.05 && `clipped ${a.clipped}`, a.zeros > 0.6 && `zeros ${a.zeros}`, a.distinct < 8 && `${a.distinct} distinct values`,
          peak < minPeak && `peak ${peak}`]
        : a.kind === 'prob' ? [peak < 16 && `peak ${peak}`, a.distinct < 8 && `${a.distinct} distinct values`]
        : a.kind === 'wide' ? [a.distinct < 8 && `${a.distinct} distinct values`] : [];
      for (const w of why) if (w) bad.push(`${a.tensor} (${a.kind}): ${w}`);
    }
    expect(bad).toEqual([]);
    // Every graph output varies.
    for (const o of m.outputValues) expect(new Set(o.data).size, `output of ${id}`).toBeGreaterThanOrEqual(8);
  });
});
