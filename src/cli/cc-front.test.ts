// The generated programs (main.c, Network.c, Network_weights.c from `dpg compile -p siracusa`)
// parse, type-check and lower through our C front end (issue #13), with the kernel library and
// runtime headers beside them; and the front end's time on microllama-prefill's weights file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileToIr } from '../sim/cc/compile';
import { filesFrom } from '../sim/cc/fs';
import { runModule } from '../sim/cc/interp';
import { dpg } from './main';

const out = mkdtempSync(join(tmpdir(), 'dpg-cc-front-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function tree(dir: string, prefix: string, into: Record<string, string>): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) tree(join(dir, e.name), `${prefix}/${e.name}`, into);
    else if (/\.[ch]$/.test(e.name)) into[`${prefix}/${e.name}`] = readFileSync(join(dir, e.name), 'utf8');
  }
}

const LIBC = new URL('../compiler/runtime/libc/include/', import.meta.url).pathname;
const SIRACUSA = new URL('../compiler/runtime/siracusa/', import.meta.url).pathname;

async function generated(model: string, ...flags: string[]): Promise<Record<string, string>> {
  const dir = join(out, model + flags.join(''));
  const lines: string[] = [];
  const code = await dpg(['compile', '-p', 'siracusa', '-t', `public/models/${model}`, '--out', dir, ...flags], (s) => lines.push(s), (s) => lines.push(s));
  expect(code, lines.join('\n')).toBe(0);
  const files: Record<string, string> = {};
  tree(join(dir, 'codegen'), '/p', files);
  tree(LIBC, '/libc', files);
  tree(SIRACUSA, '/p/runtime/siracusa', files);
  return files;
}

function front(files: Record<string, string>, path: string, defines = ['DPG_XPULP']) {
  return compileToIr(path, {
    files: filesFrom(files), defines,
    includePaths: ['/p', '/p/kernels', '/p/runtime', '/p/runtime/siracusa'], systemPaths: ['/libc'],
  });
}

describe('generated programs go through the front end', () => {
  for (const model of ['adder', 'mini-mobilenetv2', 'transformer-block', 'microllama-decode', 'microllama-prefill']) {
    it(model, async () => {
      const files = await generated(model);
      for (const f of ['main.c', 'Network.c', 'Network_weights.c']) {
        const r = front(files, `/p/${f}`);
        expect(r.module.functions.length + r.module.globals.length).toBeGreaterThan(0);
        if (f === 'Network_weights.c') {
          const size = files[`/p/${f}`].length;
          const total = r.ms.preprocess + r.ms.parse + r.ms.lower;
          console.log(`${model}/${f} (${(size / 1e6).toFixed(1)} MB): preprocess ${r.ms.preprocess.toFixed(0)} ms, parse ${r.ms.parse.toFixed(0)} ms, lower ${r.ms.lower.toFixed(0)} ms`);
          expect(total).toBeLessThan(5000);
        }
      }
    }, 300_000);
  }
});

// The generated program, the kernel library (portable C, no Xpulp asm), a one-core HAL and the
// tiny libc, all compiled by our front end, run in the IR interpreter: the outputs match.
describe('generated programs run in the IR interpreter', () => {
  const configs: [string, string[]][] = [
    ['adder', ['--untiled', '--cores', '1']], ['mini-mobilenetv2', ['--untiled', '--cores', '1']],
    ['mini-mobilenetv2', ['--cores', '1', '--l1', '8000', '--doublebuffer']], ['transformer-block', ['--cores', '1', '--l1', '64000']],
  ];
  for (const [model, flags] of configs) {
    it(`${model} ${flags.join(' ')}: Errors: 0`, async () => {
      const files = await generated(model, ...flags);
      files['/p/runtime/hal_interp.c'] = readFileSync(new URL('../sim/cc/testdata/hal_interp.c', import.meta.url), 'utf8');
      const sources = ['/p/main.c', '/p/Network.c', '/p/Network_weights.c', '/p/runtime/hal_interp.c', '/libc/../libc.c',
        ...Object.keys(files).filter((f) => /^\/p\/kernels\/[^/]+\.c$/.test(f))];
      files['/libc.c'] = readFileSync(new URL('../compiler/runtime/libc/libc.c', import.meta.url), 'utf8');
      const mods = sources.map((s) => front(files, s === '/libc/../libc.c' ? '/libc.c' : s, []).module);
      const r = runModule(mods, { maxSteps: 2e9, memory: 64 << 20 });
      expect(r.error).toBeUndefined();
      expect(r.stdout).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      expect(r.exitCode).toBe(0);
    }, 600_000);
  }
});
