// Our C preprocessor (src/sim/cc, issue #13) on the largest file the playground compiles:
// microllama-prefill's Network_weights.c (~2.3 MB of numbers), tokenized and preprocessed with
// its headers, in Node. Two figures: streamed (the parser's way: tokens made as they are read) and
// collected into one array. Baseline: clang-19 -E on the same file in the same run (process
// start included), when clang-19 is installed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG } from '../src/compiler/config';
import { overlay, filesFrom } from '../src/sim/cc/fs';
import { preprocess, preprocessStream, type PreprocessOptions } from '../src/sim/cc/preprocess';
import { hasTool } from '../src/sim/testing/toolchain';
import { loadFolder, planAndGenerate } from '../src/testing/tiled-harness';
import type { Bench, BenchRow } from './harness';
import { timeBest } from './harness';

const MODEL = 'microllama-prefill';
const FILE = 'Network_weights.c';
const dir = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

export const preprocessBench: Bench = {
  name: 'cc-preprocess',
  run: async () => {
    const config = { ...DEFAULT_CONFIG, platform: 'siracusa' as const };
    const { code } = await planAndGenerate(loadFolder(dir(`../public/models/${MODEL}`), config), config);
    const text = code.files.find((f) => f.path === FILE)!.content;
    const disk = { read: (p: string) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } } };
    const opts: PreprocessOptions = {
      files: overlay(filesFrom(new Map(code.files.map((f) => [f.path, f.content]))), disk),
      includePaths: [dir('../src/compiler/kernels'), dir('../src/compiler/runtime')],
      systemPaths: [dir('../src/compiler/runtime/libc/include')],
      defines: ['DPG_XPULP'],
    };
    let tokens = 0;
    const streamMs = await timeBest(() => {
      const s = preprocessStream(FILE, opts);
      for (tokens = 0; s.next().kind !== 'eof'; tokens++);
    });
    const arrayMs = await timeBest(() => preprocess(FILE, opts));

    let baseline: BenchRow['baseline'];
    let note = `${(text.length / 1024 / 1024).toFixed(2)} MB, ${tokens} tokens`;
    if (hasTool('clang-19')) {
      const tmp = mkdtempSync(join(tmpdir(), 'dpg-pp-bench-'));
      try {
        for (const f of code.files) if (!f.path.includes('/')) writeFileSync(join(tmp, f.path), f.content);
        const args = ['-E', '-P', '--target=riscv32-unknown-elf', '-march=rv32imc', '-ffreestanding', '-nostdinc', '-DDPG_XPULP',
          '-I', dir('../src/compiler/kernels'), '-I', dir('../src/compiler/runtime'), '-isystem', dir('../src/compiler/runtime/libc/include'),
          '-isystem', dir('../src/sim/cc/include'), join(tmp, FILE), '-o', join(tmp, 'out.i')];
        baseline = { name: 'clang-19 -E, same file', value: await timeBest(() => execFileSync('clang-19', args)) };
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    } else note += '; no clang-19 for the baseline';
    return [
      { name: `cc preprocess ${MODEL} ${FILE}, streamed (Node)`, value: streamMs, unit: 'ms', baseline, note },
      { name: `cc preprocess ${MODEL} ${FILE}, into an array (Node)`, value: arrayMs, unit: 'ms', baseline, note },
    ];
  },
};
