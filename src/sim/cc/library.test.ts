// The kernel library, the runtime and the tiny libc parse, type-check and lower without errors
// (with and without -DDPG_XPULP, as the Siracusa build compiles them).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileToIr } from './compile';
import { filesFrom } from './fs';

const COMPILER = fileURLToPath(new URL('../../compiler/', import.meta.url));
const DIRS = ['kernels', 'runtime', 'runtime/siracusa', 'runtime/libc', 'runtime/libc/include'];

/** Every C source and header of the kernel library and the runtime, at /src/<dir>/<file>. */
export function libraryFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of DIRS) for (const f of readdirSync(join(COMPILER, d))) {
    if (/\.[ch]$/.test(f)) out[`/src/${d}/${f}`] = readFileSync(join(COMPILER, d, f), 'utf8');
  }
  return out;
}

const files = libraryFiles();
const opts = (defines: string[]) => ({
  files: filesFrom(files), defines,
  includePaths: ['/src/kernels', '/src/runtime', '/src/runtime/siracusa'], systemPaths: ['/src/runtime/libc/include'],
});

const kernels = Object.keys(files).filter((f) => f.startsWith('/src/kernels/') && f.endsWith('.c'));
const runtime = ['/src/runtime/hal_siracusa.c', '/src/runtime/neureka_task.c', '/src/runtime/libc/libc.c'];

describe('the kernel library and the runtime go through the front end', () => {
  it('finds the files', () => expect(kernels.length).toBeGreaterThanOrEqual(6));
  for (const path of kernels) {
    it(`${path.slice(5)}`, () => {
      const m = compileToIr(path, opts([])).module;
      expect(m.functions.length).toBeGreaterThan(0);
    });
    it(`${path.slice(5)} -DDPG_XPULP`, () => {
      const m = compileToIr(path, opts(['DPG_XPULP'])).module;
      expect(m.functions.length).toBeGreaterThan(0);
    });
  }
  for (const path of runtime) it(`${path.slice(5)}`, () => expect(compileToIr(path, opts(['DPG_XPULP'])).module.functions.length).toBeGreaterThan(0));
});
