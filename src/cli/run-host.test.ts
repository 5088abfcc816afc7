// Acceptance for issue #6 (Generic): `dpg run -p generic --cc host -t DIR` prints
// `Errors: 0 out of T` for every shared Deeploy test folder and every built-in model (both
// found by walking their folders), and exits 0. Also --cc builtin's errors and mismatch exits.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codegenTestFolders } from '../testing/test-folders';
import { findTestDirs, SHARED_TESTS } from '../testing/corpus';
import { readNpz, writeNpz } from '../compiler/npz';
import { dpg, EXIT } from './main';
import { HOST_CC, SHARED_TESTS as SHARED_TESTS_NEED, missing } from '../testing/requires';

async function call(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await dpg(argv, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const shared = existsSync(fileURLToPath(SHARED_TESTS)) ? findTestDirs() : [];

describe.skipIf(missing(HOST_CC))('dpg run -p generic --cc host: every shared test and built-in model', () => {
  const dirs = codegenTestFolders();
  it('finds the folders', () => expect(dirs.length).toBeGreaterThanOrEqual(shared.length + 5));
  for (const { dir: d, name } of dirs) {
    it(name, async () => {
      const r = await call('run', '-p', 'generic', '--cc', 'host', '-t', d);
      expect(r.out).toMatch(/^Runtime: \d+ cycles$/m);
      expect(r.out).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      expect(r.code).toBe(EXIT.ok);
    });
  }
});

describe('dpg run targets', () => {
  const adder = shared.find((d) => d.endsWith('Add/Regular'));

  it.skipIf(missing(SHARED_TESTS_NEED))('--cc builtin (the default): a compile error exits 2 naming the file, line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-edit-'));
    const hal = join(dir, 'hal_siracusa.c');
    writeFileSync(hal, '#include "hal.h"\n\nint broken(void) {\n  return 1 +;\n}\n');
    const r = await call('run', '-p', 'siracusa', '-t', adder!, '--edit', `runtime/hal_siracusa.c=${hal}`);
    expect(r.err).toMatch(/^error: runtime\/hal_siracusa\.c:4:\d+: /m);
    expect(r.code).toBe(EXIT.badInput);
  });

  it.skipIf(missing(SHARED_TESTS_NEED))('--cc builtin refuses Generic (no Siracusa runtime) and --edit of a file the program does not have', async () => {
    const g = await call('run', '-p', 'generic', '-t', adder!);
    expect(g.err).toContain('--cc host');
    expect(g.code).toBe(EXIT.badInput);
    const e = await call('run', '-p', 'siracusa', '-t', adder!, '--edit', `kernels/nothing.c=${join(fileURLToPath(SHARED_TESTS), 'missing.c')}`);
    expect(e.err).toMatch(/cannot read .*missing\.c/);
    expect(e.code).toBe(EXIT.badInput);
  });

  it.skipIf(missing(SHARED_TESTS_NEED, HOST_CC))('a wrong golden output exits 1 and shows the mismatch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-bad-'));
    cpSync(adder!, dir, { recursive: true });
    const golden = readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz');
    const data = Float32Array.from(golden[0].data as Float32Array);
    data[3] += 1;
    writeFileSync(join(dir, 'outputs.npz'), writeNpz([{ ...golden[0], data }]));
    const r = await call('run', '-p', 'generic', '--cc', 'host', '-t', dir);
    expect(r.out).toMatch(/^Mismatch in output 0 at index 3: got -?\d+, expected -?\d+$/m);
    expect(r.out).toMatch(/^Errors: 1 out of \d+$/m);
    expect(r.code).toBe(EXIT.outputErrors);
  });
});
