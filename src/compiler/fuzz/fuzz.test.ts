// The mutation fuzzer, in process: ~300 seeded cases over every shared model through the
// whole front end, with zero uncaught exceptions and no case over the hang limit. The long
// run with hang detection in worker processes is bench/fuzz.ts.
import { describe, expect, test } from 'vitest';
import { readNpz } from '../npz';
import { proto } from '../onnx/proto';
import { findTestDirs, loadTestCase } from '../../testing/corpus';
import { mutate, mutateStructure } from './mutate';
import { mulberry32 } from './prng';
import type { FuzzModel } from './run';
import { caseFor, describeCase, emptySummary, fuzzOnce, record, runCase } from './run';

const ROOT = new URL('../../../../shared/deeploy-tests/', import.meta.url);
const MODELS: FuzzModel[] = findTestDirs(ROOT).map((d) => {
  const c = loadTestCase(d, ROOT);
  return { name: c.name, onnx: c.onnx, inputs: c.inputs ? readNpz(c.inputs, 'inputs.npz') : undefined };
});
const CASES = 300;
const HANG_MS = 5000;

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

  test('fuzzOnce never throws, even on empty or garbage input', () => {
    expect(fuzzOnce(new Uint8Array(), 1).outcome).toBe('error');
    expect(['ok', 'error']).toContain(fuzzOnce(new Uint8Array([1, 2, 3]), 2).outcome);
  });
});

test(`${CASES} fuzz cases over every shared model: no uncaught exception, no hang`, () => {
  const s = emptySummary();
  const t0 = performance.now();
  for (let i = 0; i < CASES; i++) {
    const r = runCase(MODELS, i, 20260804);
    record(s, r, r.ms > HANG_MS);
  }
  s.ms = performance.now() - t0;
  console.log(
    `fuzz: ${s.cases} cases in ${s.ms.toFixed(0)} ms: ok ${s.ok} (interpreter skipped for the element budget: ${s.overBudget}), ` +
    `errors ${s.errors} ${JSON.stringify(s.byCode)}, uncaught ${s.uncaught}, hangs ${s.hangs}; ` +
    `ended in ${JSON.stringify(s.byStage)}; slowest ${s.slowestMs.toFixed(0)} ms` +
    s.findings.map((f) => `\n  ${describeCase(f)}`).join(''));
  const bad = s.findings.filter((f) => f.outcome === 'uncaught' || f.outcome === 'hang').map(describeCase);
  expect(bad).toEqual([]);
  expect(s.uncaught).toBe(0);
  expect(s.hangs).toBe(0);
  // The fuzzer must reach every stage, or it is not testing the front end.
  expect(s.byStage.parse).toBeGreaterThan(0);
  expect(s.byStage.shapes).toBeGreaterThan(0);
  expect(s.byStage.interpret).toBeGreaterThan(CASES / 10);
  expect(s.ok).toBeGreaterThan(CASES / 10);
});
