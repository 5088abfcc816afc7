// The mutation fuzzer, in process, on fixed-seed samples: 200 cases over every shared model
// through the front end (parse, shapes, interpret); 80 over the models under 1 MB, each under a
// seeded configuration, on through lower, tile, codegen, our C compiler and linker, and a
// bounded run on the simulator. No uncaught exception, no internal error, no case over the hang
// limit. The long run (10,000 cases, hang detection in worker processes) is bench/fuzz.ts.
import { describe, expect, test } from 'vitest';
import { readNpz } from '../npz';
import { proto } from '../onnx/proto';
import { findTestDirs, loadTestCase } from '../../testing/corpus';
import { mutate, mutateStructure } from './mutate';
import { mulberry32 } from './prng';
import { fuzzStages } from '../../testing/fuzz-stages';
import type { FuzzModel } from './run';
import { caseFor, describeCase, emptySummary, formatSummary, fuzzOnce, record, runCase } from './run';
import type { FuzzStage } from './stages';

const ROOT = new URL('../../../../shared/deeploy-tests/', import.meta.url);
const MODELS: FuzzModel[] = findTestDirs(ROOT).map((d) => {
  const c = loadTestCase(d, ROOT);
  return { name: c.name, onnx: c.onnx, inputs: c.inputs ? readNpz(c.inputs, 'inputs.npz') : undefined };
});
// As bench/fuzz.ts; the first case of the full sample also compiles the kernel library (about 20 s on a busy machine).
const HANG_MS = 60_000;

describe('mutations', () => {
  test('are deterministic: the same seed gives the same bytes', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { model, donor } = caseFor(MODELS, seed);
      const a = mutate(model.onnx, mulberry32(seed), donor.onnx);
      const b = mutate(model.onnx, mulberry32(seed), donor.onnx);
      expect(a.what).toBe(b.what);
      expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
    }
  });

  test('structure-aware ones re-encode valid protobuf that differs from the original', () => {
    const small = MODELS.filter((m) => m.onnx.length < 200_000);
    let changed = 0;
    for (let seed = 0; seed < 200; seed++) {
      const m = small[seed % small.length];
      const s = mutateStructure(m.onnx, mulberry32(seed));
      if (!s) continue;
      expect(() => proto.ModelProto.decode(s.bytes), s.what).not.toThrow();
      if (Buffer.compare(s.bytes, m.onnx) !== 0) changed++;
    }
    expect(changed).toBeGreaterThan(150);
  });

  test('never touch the original bytes', () => {
    const m = MODELS[0];
    const before = m.onnx.slice();
    for (let seed = 0; seed < 50; seed++) mutate(m.onnx, mulberry32(seed), MODELS[1].onnx);
    expect(Buffer.compare(before, m.onnx)).toBe(0);
  });

  test('fuzzOnce never throws, even on empty or garbage input', async () => {
    expect((await fuzzOnce(new Uint8Array(), 1)).outcome).toBe('error');
    expect(['ok', 'error']).toContain((await fuzzOnce(new Uint8Array([1, 2, 3]), 2)).outcome);
  });
});

async function sample(models: readonly FuzzModel[], cases: number, stages: readonly FuzzStage[]) {
  const s = emptySummary(stages.map((st) => st.name));
  const t0 = performance.now();
  for (let i = 0; i < cases; i++) {
    const r = await runCase(models, i, 20260804, stages);
    record(s, r, r.ms > HANG_MS);
  }
  s.ms = performance.now() - t0;
  console.log(`fuzz: ${formatSummary(s).join('\n')}${s.findings.map((f) => `\n  ${describeCase(f)}`).join('')}`);
  expect(s.findings.map(describeCase)).toEqual([]);
  expect(s.outcomes.uncaught + s.outcomes.internal + s.outcomes.hang).toBe(0);
  return s;
}

test('200 cases over every shared model through the front end: no uncaught exception, no hang', async () => {
  const s = await sample(MODELS, 200, fuzzStages('front'));
  // The fuzzer must reach every stage, or it is not testing them.
  expect(s.stages.parse.ended.error).toBeGreaterThan(0);
  expect(s.stages.shapes.ended.error).toBeGreaterThan(0);
  expect(s.stages.interpret.passed).toBeGreaterThan(20);
});

test('80 cases under seeded configurations through every stage: no uncaught exception, no internal error, no hang', async () => {
  // The models under 1 MB: a microLlama case takes seconds per stage.
  const s = await sample(MODELS.filter((m) => m.onnx.length < 1 << 20), 80, fuzzStages('all'));
  for (const stage of ['lower', 'tile', 'codegen', 'cc', 'run']) expect(s.stages[stage].reached, stage).toBeGreaterThan(5);
  expect(s.stages.run.passed).toBeGreaterThan(2);
});
