// The new-operator lab from the command line: the test maker, the four runs with their table
// beside GVSoC's figures, and every kind of bad spec or kernel named with where it is.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installUserOps } from '../compiler/ops';
import { dpg, EXIT } from './main';

const LAB = new URL('../pipeline/lab/', import.meta.url).pathname;
const SPEC = join(LAB, 'ileakyrelu.json'), SCALAR = join(LAB, 'scalar.c'), SIMD = join(LAB, 'simd.c');
const tmp = mkdtempSync(join(tmpdir(), 'dpg-lab-'));

async function call(...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await dpg(argv, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}
/** A file in the temp folder with `text`. */
function file(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}
const spec = JSON.parse(readFileSync(SPEC, 'utf8'));
const scalar = readFileSync(SCALAR, 'utf8');

afterEach(() => installUserOps([]));

describe('dpg lab', () => {
  it('runs the four steps bit-exact and prints cycles and speedups beside the GVSoC figures', async () => {
    const r = await call('lab', '--op-spec', SPEC, '--kernel', SCALAR, '--simd-kernel', SIMD);
    expect(r.err).toMatch(/^1 core, untiled: \d+ cycles, Errors: 0 out of 65536 \(untiled\)$/m);
    expect(r.err).toMatch(/^8 cores, tiled \(L1 32768\): \d+ cycles, Errors: 0 out of 65536 \(tile \[1, 4, 64, 64\] x 4\)$/m);
    expect(r.code).toBe(EXIT.ok);
    const rows = r.out.split('\n');
    expect(rows[0]).toMatch(/^step\s+cycles\s+vs 1 core\s+vs previous\s+GVSoC\s+GVSoC speedup\s+ours \/ GVSoC$/);
    expect(rows.slice(1).map((l) => l.split(/\s{2,}/)[0])).toEqual(['1 core, untiled', '8 cores, untiled', '8 cores, tiled (L1 32768)', '+ SIMD (innermost tile a multiple of 16)']);
    const cycles = rows.slice(1).map((l) => Number(l.split(/\s{2,}/)[1].replace(/,/g, '')));
    // Every step is faster than the one before; all cores give most of it, SIMD comes last.
    for (let i = 1; i < 4; i++) expect(cycles[i]).toBeLessThan(cycles[i - 1]);
    expect(cycles[0] / cycles[1]).toBeGreaterThan(6);
    expect(rows[4]).toContain('43,005');
  }, 120_000);
});

describe('bad specs and kernels are named with where they are', () => {
  const small = join(tmp, 'small');
  it('(and a SIMD kernel in GCC vector types is as fast as one with the Xpulp helpers)', async () => {
    await call('make-test', '--op-spec', SPEC, '--shape', '1x4x8x64', '--attr', 'shift=3', '--out', join(tmp, 'v'));
    const runtime = async (k: string) => {
      const r = await call('run', '-t', join(tmp, 'v'), '--op-spec', SPEC, '--kernel', k, '--l1', '4096');
      expect(r.out).toContain('Errors: 0 out of 2048');
      return Number(/Runtime: (\d+) cycles/.exec(r.out)![1]);
    };
    const helpers = await runtime(SIMD), vectors = await runtime(join(LAB, 'simd-vectors.c'));
    expect(vectors).toBeLessThanOrEqual(helpers * 1.02);
  });
  it('the test maker writes a folder, and refuses an attribute out of its range', async () => {
    expect((await call('make-test', '--op-spec', SPEC, '--shape', '1x4x8x8', '--attr', 'shift=3', '--out', small)).code).toBe(EXIT.ok);
    const r = await call('make-test', '--op-spec', SPEC, '--shape', '1x4x8x8', '--attr', 'shift=9', '--out', join(tmp, 'x'));
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('node "iLeakyReLU_0" (iLeakyReLU): attribute \'shift\' = 9 is outside the allowed range [0, 7] of iLeakyReLU');
  });

  it('an expression that does not parse names the file, field and column', async () => {
    const bad = file('bad-expr.json', JSON.stringify({ ...spec, semantics: 'x >= 0 ? x : (mul * x >> shift' }));
    const r = await call('run', '-t', small, '--op-spec', bad, '--kernel', SCALAR);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain(`${bad}: semantics: column 31: expected ')' but found the end`);
  });

  it('a shape rule that does not fit the inputs', async () => {
    const binary = file('binary.json', JSON.stringify({ ...spec, shape: 'binary', inputs: [{ name: 'x', dtype: 'int8' }, { name: 'z', dtype: 'int8' }] }));
    const r = await call('run', '-t', small, '--op-spec', binary, '--kernel', SCALAR);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('node "iLeakyReLU_0" (iLeakyReLU): input 1 (\'z\') is missing');
  });

  it('a kernel that does not compile names its file and line', async () => {
    const k = file('iLeakyReLU-bad.c', scalar.replace('y[i] = (int8_t)', 'y[i] = (int8_t) v +;'));
    const r = await call('run', '-t', small, '--op-spec', SPEC, '--kernel', k);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/iLeakyReLU\.c:11:\d+: /);
  });

  it('a kernel that writes out of bounds is stopped with the layer, core, address and line', async () => {
    const k = file('oob.c', scalar.replace('i < hi', 'i <= hi'));
    const r = await call('run', '-t', small, '--op-spec', SPEC, '--kernel', k);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/layer 0 "iLeakyReLU_0" \(iLeakyReLU, kernel iLeakyReLU_s8_s8\): core \d wrote 1 byte at 0x[0-9a-f]+, outside its output buffer \[0x[0-9a-f]+, 0x[0-9a-f]+\) at iLeakyReLU\.c:11/);
  });

  it('a kernel with a wrong result: the run fails with the mismatches', async () => {
    const k = file('wrong.c', scalar.replace('(mul * v) >> shift', '(mul * v) >> (shift + 1)'));
    const r = await call('run', '-t', small, '--op-spec', SPEC, '--kernel', k);
    expect(r.code).toBe(EXIT.outputErrors);
    expect(r.out).toMatch(/^Mismatch in output 0 at index \d+: got -?\d+, expected -?\d+$/m);
    expect(r.out).toMatch(/Errors: [1-9]\d* out of 256/);
    expect(r.err).toMatch(/error: \d+ output values differ from the golden ones: output 0 '\w+' comes from layer "iLeakyReLU_0" \(iLeakyReLU, kernel iLeakyReLU_s8_s8 in iLeakyReLU\.c\)/);
  });
});
