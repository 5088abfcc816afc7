// The shared folders today's playground does not run (scope.ts: float32, bfloat16, the float ->
// int8 boundary, the tutorial lab's op before the student adds it) are refused the way bad input
// is: a PlaygroundError that is not an internal error and names the node, tensor or file, never a
// crash or a silent pass. One that starts passing fails here too: widen scope.ts then (issue 33).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PlaygroundError } from '../common/errors';
import { checkOutputs } from '../compiler/interpret/compare';
import { interpret } from '../compiler/interpret/interpret';
import { bindNpzInputs } from '../compiler/interpret/npz-io';
import { readNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { inferTypes } from '../compiler/shapes/infer';
import { findTestDirs, SHARED_TESTS } from './corpus';
import { SHARED_TESTS as SHARED_TESTS_NEED, missing } from './requires';
import { scopeOf } from './scope';

const ROOT = fileURLToPath(SHARED_TESTS);
const ALL = missing(SHARED_TESTS_NEED) ? [] : findTestDirs(SHARED_TESTS, 'all');
const OUTSIDE = ALL.filter((d) => !scopeOf(d).inside);

/** The reference stage on the folder, as `dpg reference` runs it: its error, or the check. */
function reference(dir: string): unknown {
  try {
    const graph = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
    const { inputs } = bindNpzInputs(graph, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz');
    const got = interpret(graph, inputs, { inputsName: 'inputs.npz' });
    return checkOutputs(got, readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz'), 'outputs.npz');
  } catch (e) {
    return e;
  }
}

describe.skipIf(missing(SHARED_TESTS_NEED))('shared folders outside what the playground runs today', () => {
  it('are found by content: the integer ones are inside, the float ones outside', () => {
    const inside = ALL.filter((d) => scopeOf(d).inside).map((d) => relative(ROOT, d));
    expect(inside.length).toBeGreaterThanOrEqual(40);
    expect(inside.every((n) => !/FP32|BF16/.test(n))).toBe(true);
    expect(OUTSIDE.length).toBeGreaterThan(0);
    console.log(`scope: ${inside.length} shared folders run, ${OUTSIDE.length} refused (float32, bfloat16, mixed, the lab's op)`);
  });

  it.each(OUTSIDE.map((d) => [relative(ROOT, d), d]))('%s is refused with a clear error', (_name, dir) => {
    const r = reference(dir);
    expect(r, 'refused, not run').toBeInstanceOf(PlaygroundError);
    const e = (r as PlaygroundError).data;
    expect(e.code).not.toBe('internal');
    expect(`${e.where ?? ''} ${e.what}`).toMatch(/node "|tensor '|input '|initializer '|weight '|\.onnx|\.npz/);
  });
});
