// Differential test: our preprocessor against Debian's clang-19 -E on the C the playground
// compiles: every .c file of the kernel library, the runtime and the tiny libc (with -DDPG_XPULP
// and without), and the programs codegen writes for the built-in models. The token texts, in
// order, must be the same (whitespace and line breaks aside; a pragma is `# pragma ...`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import type { CodegenResult } from '../../compiler/codegen/types';
import { loadFolder, planAndGenerate } from '../../testing/tiled-harness';
import { tokenize } from './lex';
import { preprocess } from './preprocess';
import { randomIfExpression, randomMacroProgram, rng, SNIPPETS } from './snippets.test-data';
import { run } from './test-util';
import { CLANG_19, missing } from '../../testing/requires';

const CLANG = 'clang-19';
const src = (p: string) => fileURLToPath(new URL(p, import.meta.url)).replace(/\/$/, '');
const KERNELS = src('../../compiler/kernels/');
const RUNTIME = src('../../compiler/runtime/');
const SIRACUSA_RT = src('../../compiler/runtime/siracusa/');
const LIBC = src('../../compiler/runtime/libc/');
const LIBC_INCLUDE = join(LIBC, 'include');
const OUR_INCLUDE = src('./include/');
const MODELS = src('../../../public/models/');

const disk = { read: (p: string) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } } };

/** clang -E's tokens for a file (-nostdinc: our headers and the libc's, exactly as ours sees them). */
function clangTokens(file: string, includes: string[], defines: string[]): string[] {
  const out = execFileSync(CLANG, ['-E', '-P', '--target=riscv32-unknown-elf', '-march=rv32imc', '-ffreestanding', '-nostdinc', '-std=c11',
    ...includes.flatMap((d) => ['-I', d]), '-isystem', LIBC_INCLUDE, '-isystem', OUR_INCLUDE, ...defines.map((d) => `-D${d}`), file],
  { encoding: 'utf8', maxBuffer: 1 << 28 });
  return tokenize(out, '<clang>').slice(0, -1).map((t) => t.text);
}

function ourTokens(file: string, includes: string[], defines: string[]): string[] {
  const r = preprocess(file, { files: disk, includePaths: includes, systemPaths: [LIBC_INCLUDE], defines, std: 'c11' });
  return r.tokens.flatMap((t) => (t.kind === 'eof' ? [] : t.kind === 'pragma' ? ['#', 'pragma', ...tokenize(t.text, '').slice(0, -1).map((x) => x.text)] : [t.text]));
}

/** undefined when the two agree, else where they part. */
function difference(file: string, includes: string[], defines: string[]): string | undefined {
  const a = ourTokens(file, includes, defines);
  const b = clangTokens(file, includes, defines);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return undefined;
  const around = (t: string[]) => t.slice(Math.max(0, i - 6), i + 6).join(' ');
  return `${file} ${defines.join(' ')}: token ${i} of ${a.length} / ${b.length}\n  ours:  ${around(a)}\n  clang: ${around(b)}`;
}

const hasClang = !missing(CLANG_19);
let compared = 0;
afterAll(() => {
  if (hasClang) console.log(`clang-diff: ${compared} preprocessings compared with ${CLANG} -E`);
});

function expectSame(files: string[], includes: string[], defines: string[]): void {
  const diffs = files.map((f) => difference(f, includes, defines)).filter((d) => d !== undefined);
  compared += files.length;
  expect(diffs).toEqual([]);
}

describe.skipIf(!hasClang)('preprocessor vs clang-19 -E', () => {
  const library = [
    ...readdirSync(KERNELS).filter((f) => f.endsWith('.c')).map((f) => join(KERNELS, f)),
    join(RUNTIME, 'hal_siracusa.c'), join(RUNTIME, 'neureka_task.c'), join(LIBC, 'libc.c'),
  ];
  const libIncludes = [KERNELS, RUNTIME, SIRACUSA_RT];

  it('the kernel library, runtime and libc with -DDPG_XPULP', () => expectSame(library, libIncludes, ['DPG_XPULP']));
  it('the kernel library, runtime and libc without', () => expectSame(library, libIncludes, []));

  const programs: Array<{ model: string; config: Partial<Config> }> = [
    ...['adder', 'mini-mobilenetv2', 'transformer-block', 'microllama-prefill', 'microllama-decode'].map((model) => ({ model, config: { platform: 'siracusa' as const } })),
    { model: 'mini-mobilenetv2', config: { platform: 'siracusa-neureka', neurekaWmem: true } },
    { model: 'transformer-block', config: { platform: 'siracusa', tiled: false, cores: 1 } },
    { model: 'adder', config: { platform: 'generic', tiled: false, cores: 1 } },
  ];
  const scratch = mkdtempSync(join(tmpdir(), 'dpg-cc-diff-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  for (const { model, config } of programs) {
    it(`the program for ${model} (${JSON.stringify(config)})`, async () => {
      const full = { ...DEFAULT_CONFIG, ...config };
      const { code } = await planAndGenerate(loadFolder(join(MODELS, model), full), full);
      const dir = mkdtempSync(join(scratch, `${model}-`));
      writeProgram(code, dir);
      const cFiles = code.files.filter((f) => f.path.endsWith('.c')).map((f) => join(dir, f.path));
      expect(cFiles.length).toBeGreaterThan(1);
      expectSame(cFiles, [dir, ...libIncludes], full.platform === 'generic' ? [] : ['DPG_XPULP']);
    });
  }
});

describe.skipIf(!hasClang)('macro corner cases vs clang-19 -E', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'dpg-cc-snip-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const textsOf = (out: string) => tokenize(out, '<clang>').slice(0, -1).map((t) => t.text).join(' ');
  const clang = (snippet: string): string | undefined => {
    writeFileSync(join(scratch, 'main.c'), snippet);
    try {
      return textsOf(execFileSync(CLANG, ['-E', '-P', '-std=c11', '-nostdinc', '--target=riscv32-unknown-elf', '-march=rv32imc', '-ffreestanding', 'main.c'], { cwd: scratch, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }));
    } catch {
      return undefined;
    }
  };
  const ours = (snippet: string): string | undefined => {
    try {
      return run(snippet).tokens.slice(0, -1).map((t) => (t.kind === 'pragma' ? `# pragma ${t.text}` : t.text)).join(' ');
    } catch {
      return undefined;
    }
  };

  it(`expands ${SNIPPETS.length} snippets like clang`, () => {
    const diffs = SNIPPETS.map((s) => ({ s, ours: ours(s), clang: clang(s) })).filter((d) => d.ours !== d.clang);
    compared += SNIPPETS.length;
    expect(diffs).toEqual([]);
  });

  // Random programs, the same ones every run; a thousand of each agreed when this was written.
  it('expands 100 random macro programs like clang', () => {
    const rnd = rng(4242);
    const programs = Array.from({ length: 100 }, () => randomMacroProgram(rnd));
    const diffs = programs.map((s) => ({ s, ours: ours(s), clang: clang(s) })).filter((d) => d.ours !== d.clang);
    compared += programs.length;
    expect(diffs).toEqual([]);
  });

  it('evaluates 100 random #if expressions like clang', () => {
    const rnd = rng(5);
    const programs = Array.from({ length: 100 }, () => `#if ${randomIfExpression(rnd)}\n1\n#else\n0\n#endif`);
    const diffs = programs.map((s) => ({ s, ours: ours(s), clang: clang(s) })).filter((d) => d.ours !== d.clang);
    compared += programs.length;
    expect(diffs).toEqual([]);
  });

  it('fails where clang fails', () => {
    const bad = ['#define CAT(a,b) a##b\nCAT(.,.)', '#define F(a,b) a\nF(1)', '#define F(a) a\nF(1', '#if 1/0\n#endif', '#if\n#endif',
      '#define S(x) #y', '#error x', '#if 1\n', '#endif', '#include "nope.h"'];
    for (const b of bad) {
      expect(clang(b), b).toBeUndefined();
      expect(ours(b), b).toBeUndefined();
    }
  });
});

function writeProgram(code: CodegenResult, dir: string): void {
  for (const f of code.files) if (!f.path.includes('/')) writeFileSync(join(dir, f.path), f.content);
}
