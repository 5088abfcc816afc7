// Issue 39, the C-injection half: text from the model or the user never makes a line of the
// generated C. The escaping rule itself (c-text.ts); the issue's graph name, which used to close
// Network.c's header comment and #define hal_fork; every name field of a model at once; and a
// fuzz of hostile names, every program giving the same tokens and objects as with clean names.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { proto } from '../onnx/proto';
import { installUserOps } from '../ops';
import { checkUserOp } from '../ops/user/entry';
import { mulberry32 } from '../fuzz/prng';
import { compileC } from '../../sim/cc/driver';
import { LIBRARY_SOURCES } from '../../sim/run/sources';
import {
  CLEAN, cleanTwin, comparedFiles, compileModel, hostOp, maskedLines, modelBytes, tokenStreams, type ModelNames,
} from '../../testing/hostile-names';
import { cComment, cFormat, cString, MAX_NAME } from './c-text';
import type { CodegenResult } from './types';

afterEach(() => installUserOps([]));

/** A comment holding `s`, tokenized by our preprocessor: nothing but the tokens around it. */
function commentTokens(body: string): string[] {
  const src = `int a; /* ${body} */ int b;\n`;
  return tokenize(src);
}
function tokenize(src: string): string[] {
  const code = { files: [{ path: 'x.c', content: src, kind: 'network' as const }] } as unknown as CodegenResult;
  return tokenStreams(code).get('x.c')!;
}

describe('the escaping rule', () => {
  const nasty = ['*/', '/*', '\n', '\r', '\r\n', '\u2028', '\u2029', '\\', '\\\n', '??/', '??/\n', '"', "'", '#include "x"', '%n%s', '\u0000',
    '\u202e', 'é', '\u{1f600}', '*', '/', '*/*/', '/**/', '??=', '???/', '\t', '\x7f'];

  it('keeps clean text as it is', () => {
    for (const s of ['network', 'onnx__Add_0', 'a b-c (x, y): [1,2] int8 -> 3 cores', 'RequantizedAdd 8x8']) {
      expect(cComment(s)).toBe(s);
      expect(cString(s)).toBe(s);
    }
    expect(cFormat('50%')).toBe('50%%');
  });

  it('gives one line of printable ASCII with no comment delimiter, splice or trigraph', () => {
    const rng = mulberry32(39);
    for (let k = 0; k < 2000; k++) {
      const s = Array.from({ length: 1 + Math.floor(rng() * 12) }, () => nasty[Math.floor(rng() * nasty.length)]).join('');
      for (const e of [cComment(s), cString(s), cFormat(s)]) {
        expect(e).toMatch(/^[\x20-\x7e]*$/);
        expect(e).not.toContain('??');
      }
      const c = cComment(s);
      expect(c).not.toContain('*/');
      expect(c).not.toContain('/*');
      expect(c).not.toContain('\\\n');
      // In a comment it is a comment: the tokens around it are all there is.
      expect(commentTokens(c)).toEqual(['int', 'a', ';', 'int', 'b', ';', '']);
      // In a string literal it is one literal.
      const lit = tokenize(`const char *p = "${cString(s)}";\n`);
      expect(lit.length).toBe(8);
      expect(lit[5]).toBe(`"${cString(s)}"`);
    }
  });

  it('shows what it escapes, and cuts long text', () => {
    expect(cComment('a*/b')).toBe('a* /b');
    expect(cComment('a/*b')).toBe('a/ *b');
    expect(cComment('x\ny\rz\u2028')).toBe('x\\x0ay\\x0dz\\u2028');
    expect(cComment('c:\\')).toBe('c:\\x5c');
    expect(cComment('??/')).toBe('?\\x3f/');
    expect(cComment('\u{1f600}')).toBe('\\U0001f600');
    expect(cString('say "hi"\\n')).toBe('say \\"hi\\"\\\\n');
    expect(cString('??/')).toBe('?\\?/');
    expect(cString('é\n')).toBe('\\303\\251\\012');
    expect(cFormat('%s')).toBe('%%s');
    expect(cComment('x'.repeat(1000))).toBe('x'.repeat(MAX_NAME) + '...');
  });
});

const ADDER = new URL('../../../public/models/adder/', import.meta.url);
const adder = (n: string) => new Uint8Array(readFileSync(new URL(n, ADDER)));

/** The adder with its graph name replaced. */
function adderNamed(name: string): Uint8Array {
  const m = proto.ModelProto.decode(adder('network.onnx'));
  m.graph!.name = name;
  return proto.ModelProto.encode(m).finish().slice();
}

/** The objects our toolchain makes of the program's C files: their sections, debug info aside. */
function objects(code: CodegenResult): Map<string, string> {
  const files = new Map<string, string>();
  for (const [p, t] of LIBRARY_SOURCES) files.set(`/${p}`, t);
  for (const f of code.files) files.set(`/${f.path}`, f.content);
  const out = new Map<string, string>();
  for (const f of code.files.filter((x) => x.path.endsWith('.c'))) {
    const o = compileC(`/${f.path}`, {
      files: { read: (p) => files.get(p) }, includePaths: ['/', '/kernels', '/runtime'], systemPaths: ['/runtime/libc/include'], defines: ['DPG_XPULP'],
    });
    const secs = o.object.sections.filter((s) => !s.name.startsWith('.debug') && s.name !== '.comment')
      .map((s) => ({ name: s.name, data: Buffer.from(s.data).toString('hex'), size: s.size, relocs: s.relocs }));
    out.set(f.path, JSON.stringify(secs));
  }
  return out;
}

/** The hostile program has no line the generator did not write: same lines as the clean one outside comments and literals, same tokens. */
function expectSameProgram(hostile: CodegenResult, clean: CodegenResult) {
  expect(hostile.files.map((f) => f.path)).toEqual(clean.files.map((f) => f.path));
  const cleanFiles = new Map(comparedFiles(clean).map((f) => [f.path, f.content]));
  for (const f of comparedFiles(hostile)) {
    const a = maskedLines(f.content), b = maskedLines(cleanFiles.get(f.path)!);
    expect(a.length, f.path).toBe(b.length);
    a.forEach((line, i) => { if (line !== b[i]) expect(`${f.path}:${i + 1}: ${line}`).toBe(`${f.path}:${i + 1}: ${b[i]}`); });
  }
  const ta = tokenStreams(hostile), tb = tokenStreams(clean);
  for (const [p, toks] of ta) expect(toks, p).toEqual(tb.get(p));
}

const ISSUE_NAME = 'main' + ' '.repeat(300) + '*/\n#include "Network.h"\n#define hal_fork(c,f,a) (printf("INJECTED"),hal_fork(c,f,a))\n/*';

describe('the issue\'s graph name', () => {
  it.each(['generic', 'siracusa'] as const)('gives %s C with no attacker line, compiling to what the clean name gives', async (platform) => {
    const config = { platform, cores: 8, tiled: false } as const;
    const bad = await compileModel(adderNamed(ISSUE_NAME), [], config, adder('inputs.npz'));
    const good = await compileModel(adderNamed('adder'), [], config, adder('inputs.npz'));
    expect(bad.error).toBeUndefined();
    const code = bad.code!;
    for (const f of code.files) {
      const lines = f.content.split('\n');
      expect(lines.filter((l) => /^\s*#\s*define\s+hal_fork/.test(l)), f.path).toEqual([]);
      expect(lines.filter((l) => l.includes('INJECTED') && !l.trimStart().startsWith('*')), f.path).toEqual([]);
    }
    const net = code.files.find((f) => f.path === 'Network.c')!.content.split('\n');
    expect(net.filter((l) => l === '#include "Network.h"')).toHaveLength(1); // the generator's own
    expect(net[1]).toMatch(/^ \* Network\.c: main {252}\.\.\. for /);
    const toks = tokenStreams(code);
    for (const [p, t] of toks) expect(t.filter((x) => x.includes('INJECTED')), p).toEqual([]);
    expectSameProgram(code, good.code!);
    expect(objects(code)).toEqual(objects(good.code!));
  }, 120_000);
});

// Hostile text for every name field: a comment terminator, a newline, a preprocessor line.
const EVIL = '*/\n#define RunNetwork() injected()\n/* ??/\n\\\n"%n\u2028\r';
const evilNames = (e: string): ModelNames => ({
  graph: `g${e}`, producer: `p${e}`, doc: `d${e}`, nodes: [`n0_${e}`, `n1_${e}`],
  tensors: { a: `ta_${e}`, b: `tb_${e}`, t: `tt_${e}`, y: `ty_${e}` }, attrName: `an${e}`, attrValue: `av${e}`, domain: `dom${e}`,
});

const CONFIGS = [
  { platform: 'generic', tiled: false },
  { platform: 'siracusa', cores: 8, tiled: false },
  { platform: 'siracusa', cores: 8, l1: 64000 },
  { platform: 'siracusa', cores: 8, l1: 8000, defaultMemLevel: 'L3', profileTiling: 'L3' },
  { platform: 'siracusa', cores: 8, l1: 1024, doubleBuffer: true, profileTiling: 'L2' },
] as const satisfies readonly Partial<Config>[];

describe('every name field of a model holding a comment terminator, a newline and a preprocessor line', () => {
  it.each(CONFIGS)('compiles %j to the clean model\'s program, outside comments and literals', async (config) => {
    const names = evilNames(EVIL);
    const bad = await compileModel(modelBytes(names), [hostOp(names.domain)], config);
    expect(bad.error).toBeUndefined();
    const clean = cleanTwin(names);
    const good = await compileModel(modelBytes(clean), [hostOp(clean.domain)], config);
    expect(good.error).toBeUndefined();
    expectSameProgram(bad.code!, good.code!);
    for (const f of comparedFiles(bad.code!)) {
      expect(f.content.split('\n').filter((l) => /^\s*#\s*define\s+RunNetwork/.test(l)), f.path).toEqual([]);
      expect(f.content).not.toMatch(/[\r\u2028]/);
    }
    for (const [p, t] of tokenStreams(bad.code!)) expect(t, p).not.toContain('injected');
  }, 120_000);

  it('refuses a user op whose C names are not identifiers, naming each field', () => {
    const { spec } = hostOp('lab');
    const bad = { ...spec, op: `X${EVIL}`, inputs: [{ ...spec.inputs[0], name: `x${EVIL}` }], output: { ...spec.output, name: 'y */' },
      attrs: spec.attrs.map((a) => ({ ...a, name: `${a.name}\n#define` })) };
    const fields = checkUserOp(bad).map((p) => p.field);
    for (const f of ['op', 'inputs.0.name', 'output.name', 'attrs.0.name', 'attrs.1.name']) expect(fields).toContain(f);
  });
});

// ---- the fuzz --------------------------------------------------------------------------------

const PIECES = ['*/', '/*', '\n', '\r', '\\', '\\\n', '#', '#define x', '#include "Network.h"', '"', "'", '??', '??/', '%', '%n', '$', '$(shell x)',
  '\u2028', '\u2029', '\u202e', '\u0000', '\t', 'é', '\u{1f600}', ' ', 'a', 'Z', '_', '0', '*', '/', '//', ';', '{', '}', '(', ')'];

/** A random string heavy on C and make metacharacters, sometimes with long runs. */
function hostileString(rng: () => number): string {
  let s = '';
  const parts = 1 + Math.floor(rng() * 10);
  for (let k = 0; k < parts; k++) {
    const p = PIECES[Math.floor(rng() * PIECES.length)];
    s += rng() < 0.08 ? p.repeat(20 + Math.floor(rng() * 200)) : p;
  }
  return s;
}

/** Strings per model: graph, producer, doc, 2 nodes, 4 tensors, attribute value. */
const PER_MODEL = 10;

function fuzzNames(rng: () => number): ModelNames {
  const s = Array.from({ length: PER_MODEL }, () => hostileString(rng));
  return {
    graph: s[0], producer: s[1], doc: s[2], nodes: [`n0_${s[3]}`, `n1_${s[4]}`],
    tensors: { a: `ta_${s[5]}`, b: `tb_${s[6]}`, t: `tt_${s[7]}`, y: `ty_${s[8]}` }, attrName: 'note', attrValue: s[9], domain: CLEAN.domain,
  };
}

/** The issue's 1,000 strings (100 models, a few seconds); DPG_FUZZ_NAMES=N runs another count. */
const FUZZ_STRINGS = Number(process.env.DPG_FUZZ_NAMES ?? 1000);

describe('a fuzz of hostile names through codegen', () => {
  it(`${FUZZ_STRINGS} random strings over the name fields give the clean names' program`, async () => {
    const rng = mulberry32(0x39c0de);
    const models = Math.ceil(FUZZ_STRINGS / PER_MODEL);
    const t0 = performance.now();
    for (let m = 0; m < models; m++) {
      const names = fuzzNames(rng);
      const config = CONFIGS[m % CONFIGS.length];
      const bad = await compileModel(modelBytes(names), [hostOp(names.domain)], config);
      expect(bad.error, JSON.stringify(names)).toBeUndefined();
      const good = await compileModel(modelBytes(cleanTwin(names)), [hostOp(CLEAN.domain)], config);
      expectSameProgram(bad.code!, good.code!);
      // A sample through our compiler to objects: the same bytes.
      if (m % 10 === 0) expect(objects(bad.code!)).toEqual(objects(good.code!));
    }
    console.log(`fuzz: ${models * PER_MODEL} hostile strings in ${models} models, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);
});
