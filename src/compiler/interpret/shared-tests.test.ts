// Acceptance: every Deeploy test vector in ../shared/deeploy-tests runs through the reference
// interpreter with 0 mismatching elements against its golden outputs.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTestDirs, SHARED_TESTS } from '../../testing/corpus';
import { readNpz } from '../npz';
import { readOnnx } from '../onnx/read';
import { checkOutputs } from './compare';
import { interpret } from './interpret';
import { bindNpzInputs } from './npz-io';
import { SHARED_TESTS as SHARED_TESTS_NEED, missing } from '../../testing/requires';

const ROOT = fileURLToPath(SHARED_TESTS);

/** Runs one test folder; returns the check and the interpretation time. */
export function runFolder(dir: string) {
  const graph = readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx');
  const { inputs } = bindNpzInputs(graph, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz');
  const golden = readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz');
  const t0 = performance.now();
  const got = interpret(graph, inputs, { inputsName: 'inputs.npz' });
  const ms = performance.now() - t0;
  return { check: checkOutputs(got, golden, 'outputs.npz'), ms };
}

const present = existsSync(ROOT);
const folders = present ? findTestDirs() : [];

describe.skipIf(missing(SHARED_TESTS_NEED))('shared Deeploy test vectors', () => {
  it('finds the test folders', () => {
    expect(folders.length).toBeGreaterThan(0);
  });
  for (const dir of folders) {
    it(relative(ROOT, dir), () => {
      const { check } = runFolder(dir);
      expect(check.total).toBeGreaterThan(0);
      expect({ errors: check.errors, firstMismatches: check.firstMismatches }).toEqual({ errors: 0, firstMismatches: [] });
    });
  }
});
