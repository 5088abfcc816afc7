// The generated programs of built-in models (`dpg compile -p siracusa`), the portable kernel
// library, a one-core HAL and the tiny libc, compiled by our front end and optimised at level 2
// (the IR checked after every pass), run in the IR interpreter: Errors: 0, as unoptimised. The
// interpreter's step counts before and after are printed (a rough measure of the work saved).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileToIr } from '../sim/cc/compile';
import { filesFrom } from '../sim/cc/fs';
import { runModule } from '../sim/cc/interp';
import { optimize } from '../sim/cc/opt';
import { dpg } from './main';

const out = mkdtempSync(join(tmpdir(), 'dpg-cc-opt-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function tree(dir: string, prefix: string, into: Record<string, string>): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) tree(join(dir, e.name), `${prefix}/${e.name}`, into);
    else if (/\.[ch]$/.test(e.name)) into[`${prefix}/${e.name}`] = readFileSync(join(dir, e.name), 'utf8');
  }
}

async function generated(model: string, flags: string[]): Promise<Record<string, string>> {
  const dir = join(out, model + flags.join(''));
  const lines: string[] = [];
  const code = await dpg(['compile', '-p', 'siracusa', '-t', `public/models/${model}`, '--out', dir, ...flags], (s) => lines.push(s), (s) => lines.push(s));
  expect(code, lines.join('\n')).toBe(0);
  const files: Record<string, string> = {};
  tree(join(dir, 'codegen'), '/p', files);
  tree(new URL('../compiler/runtime/libc/include/', import.meta.url).pathname, '/libc', files);
  tree(new URL('../compiler/runtime/siracusa/', import.meta.url).pathname, '/p/runtime/siracusa', files);
  files['/p/runtime/hal_interp.c'] = readFileSync(new URL('../sim/cc/testdata/hal_interp.c', import.meta.url), 'utf8');
  files['/libc.c'] = readFileSync(new URL('../compiler/runtime/libc/libc.c', import.meta.url), 'utf8');
  return files;
}

describe('generated programs run optimised in the IR interpreter', () => {
  const configs: [string, string[]][] = [
    ['adder', ['--untiled', '--cores', '1']], ['mini-mobilenetv2', ['--untiled', '--cores', '1']],
    ['mini-mobilenetv2', ['--cores', '1', '--l1', '8000', '--doublebuffer']], ['transformer-block', ['--cores', '1', '--l1', '64000']],
  ];
  for (const [model, flags] of configs) {
    it(`${model} ${flags.join(' ')}: Errors: 0`, async () => {
      const files = await generated(model, flags);
      const sources = ['/p/main.c', '/p/Network.c', '/p/Network_weights.c', '/p/runtime/hal_interp.c', '/libc.c',
        ...Object.keys(files).filter((f) => /^\/p\/kernels\/[^/]+\.c$/.test(f))];
      const front = () => sources.map((s) => compileToIr(s, {
        files: filesFrom(files), includePaths: ['/p', '/p/kernels', '/p/runtime', '/p/runtime/siracusa'], systemPaths: ['/libc'],
      }).module);
      const plain = runModule(front(), { maxSteps: 2e9, memory: 64 << 20 });
      const mods = front();
      const t0 = performance.now();
      for (const m of mods) optimize(m, { level: 2, verify: true });
      const ms = performance.now() - t0;
      const r = runModule(mods, { maxSteps: 2e9, memory: 64 << 20 });
      console.log(`${model} ${flags.join(' ')}: ${plain.steps} steps unoptimised, ${r.steps} optimised (${(r.steps / plain.steps).toFixed(2)}x); optimiser ${ms.toFixed(0)} ms with checks`);
      expect(r.error).toBeUndefined();
      expect(r.stdout).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      expect(r.stdout).toBe(plain.stdout);
      expect(r.exitCode).toBe(0);
    }, 900_000);
  }
});
