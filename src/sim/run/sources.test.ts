// The kernel library, the Siracusa runtime and the tiny libc are project files under
// src/compiler; sources.ts embeds them for the browser (no file system there). This test keeps
// the two equal; DPG_WRITE_SOURCES=1 rewrites sources.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LIBRARY_SOURCES } from './sources';

const COMPILER = fileURLToPath(new URL('../../compiler/', import.meta.url));
/** The folders the Siracusa build reads (the host HAL and the NPU's host emulation are not in it). */
const DIRS = ['kernels', 'runtime', 'runtime/siracusa', 'runtime/libc', 'runtime/libc/include'];
const HOST_ONLY = new Set(['runtime/hal_host.c', 'runtime/neureka_task.c']);

function onDisk(): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of DIRS) {
    for (const f of readdirSync(join(COMPILER, d)).sort()) {
      const path = `${d}/${f}`;
      if (/\.[chS]$/.test(f) && !HOST_ONLY.has(path)) out.set(path, readFileSync(join(COMPILER, d, f), 'utf8'));
    }
  }
  return out;
}

function sourcesModule(files: Map<string, string>): string {
  const file = fileURLToPath(new URL('./sources.ts', import.meta.url));
  const head = readFileSync(file, 'utf8').split('export const LIBRARY_SOURCES')[0];
  const rows = [...files].map(([path, text]) => `  [${JSON.stringify(path)}, ${JSON.stringify(text)}],`);
  return `${head}export const LIBRARY_SOURCES: ReadonlyMap<string, string> = new Map([\n${rows.join('\n')}\n]);\n`;
}

describe('embedded library sources', () => {
  it('sources.ts embeds the kernel library, the Siracusa runtime and the libc exactly', () => {
    const files = onDisk();
    if (process.env.DPG_WRITE_SOURCES) writeFileSync(new URL('./sources.ts', import.meta.url), sourcesModule(files));
    expect(new Map(LIBRARY_SOURCES), 'run DPG_WRITE_SOURCES=1 npx vitest run src/sim/run/sources.test.ts').toEqual(files);
  });

  it('holds what the Siracusa build compiles', () => {
    for (const f of ['kernels/gemm.c', 'kernels/dpg_kernels.h', 'runtime/hal_siracusa.c', 'runtime/siracusa/crt0.S', 'runtime/libc/libc.c', 'runtime/libc/include/stdio.h'])
      expect(LIBRARY_SOURCES.has(f), f).toBe(true);
  });
});
