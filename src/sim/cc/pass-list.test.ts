// The optimisations by name (passList(): the IR optimiser's schedule, then the back end's optional
// selections and layout clean-ups): each one turned off alone changes the code it is for, and
// keeps the meaning: the C suite's self-checking files still pass, in the IR interpreter (IR
// passes, the IR checked after every pass) and built by our toolchain on the simulator (all).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { runElf } from '../index';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { buildBuiltin } from '../testing/builtin';
import { compileToIr } from './compile';
import { compileC, formatPassList, passList } from './driver';
import { libc, libcHeaders } from './front-util';
import { filesFrom } from './fs';
import { runModule } from './interp';
import { OPT_PASSES, optimize } from './opt';
import { RV_PASSES } from './rv/passes';

const SUITE = fileURLToPath(new URL('./testdata/suite/', import.meta.url));
const TALLY = /^(\d+) checks, 0 failed\n$/;

const asm = (src: string, disable: string[] = [], opt: 0 | 1 | 2 = 2): string =>
  compileC('/t/a.c', { files: filesFrom({ '/t/a.c': src }), disable, opt }).asm.replace(/^\s*\.(loc|file)\b.*\n/gm, '');

describe('the pass list', () => {
  it('is the IR optimiser\'s table, then the back end\'s, each name once', () => {
    const list = passList();
    expect(list.map((p) => p.name)).toEqual([...OPT_PASSES.map((p) => p.name), ...RV_PASSES.map((p) => p.name)]);
    expect(new Set(list.map((p) => p.name)).size).toBe(list.length);
    expect(list.findIndex((p) => p.stage === 'rv')).toBe(OPT_PASSES.length);
    for (const p of list) expect(p.doc.length, p.name).toBeGreaterThan(10);
  });

  it('prints every pass once, in order, under its stage', () => {
    const text = formatPassList();
    const at = passList().map((p) => text.search(new RegExp(`-O${p.level}  ${p.name} `)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text.indexOf('IR optimiser')).toBeLessThan(text.indexOf('back end'));
  });

  it('an unknown name is a bad-config error naming it and the known ones', () => {
    const err = (() => { try { asm('int f(void) { return 0; }', ['no-such-pass']); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(PlaygroundError);
    expect((err as PlaygroundError).data.code).toBe('bad-config');
    expect((err as Error).message).toMatch(/unknown optimisation 'no-such-pass'.*known: prune, cfg, mem2reg/);
    // Each stage takes only its own names.
    expect(() => optimize(compileToIr('/t/a.c', { files: filesFrom({ '/t/a.c': 'int x;' }) }).module, { level: 2, disable: ['hardware-loops'] }))
      .toThrow(/unknown optimisation 'hardware-loops'/);
  });

  it('-O0 runs none of the back end\'s optimisations either', () => {
    expect(asm('int f(int a, int b) { if (a == 3) return a <= b; return (short)b; }')).toMatch(/cv\./);
    expect(asm('int f(int a, int b) { if (a == 3) return a <= b; return (short)b; }', [], 0)).not.toMatch(/cv\./);
  });
});

/** A program every IR pass leaves its mark on (prune: a big static callee's second call site is in an unreachable function). */
const IR_PROGRAM = `
struct P { int x, y; };
static int big(int *p, int n) {
  int s = 0, t = 1;
  for (int i = 0; i < n; i++) { s += p[i] * p[i + 1] - (p[i] >> 3) + (p[i] ^ n) * 5 - p[i + 2] / 7; t = t * 3 + (s & 15); }
  for (int i = 0; i < n; i++) { s -= p[i] % 9 + (t >> i) - p[2 * i] * p[3 * i]; t ^= s << 2; }
  for (int i = n; i > 0; i--) { s += (p[i] | t) - (p[i - 1] & 255) * 17; t += s >> 5; }
  return s + t;
}
static int unreachable(int *p) { return big(p, 3); }
static int twice(int a) { return a + a; }
int work(int *p, int n, int k) {
  struct P q = { n, k };
  int t = 0;
  for (int i = 0; i < 4; i++) t += p[i];
  int c = 5;
  if (c > 9) t = 100;
  for (int j = 0; j < n; j++) p[j] = p[j] + q.x * q.y + (k << 2) + (k << 2);
  int dead = k * 77;
  (void)dead;
  t += p[n] * p[n];
  t += (unsigned)n % (unsigned)(k | 1) + (unsigned)n / (unsigned)(k | 1);
  for (int j = 0; j < n; j++) { if (k & 1) t += p[j]; else t -= p[j] * 3; }
  return t + twice(k) + big(p, n) * 8;
}`;

describe('each IR pass off', () => {
  it.for(OPT_PASSES.map((p) => p.name))('%s: the code changes', (name) => {
    expect(asm(IR_PROGRAM, [name])).not.toBe(asm(IR_PROGRAM));
  });

  const files = ['loops.c', 'control.c', 'structs.c', 'pointers.c'];
  const sources = Object.fromEntries(['test.h', ...files].map((f) => [`/suite/${f}`, readFileSync(`${SUITE}${f}`, 'utf8')]));
  const fs = filesFrom({ ...sources, ...libcHeaders() });
  it.for(OPT_PASSES.map((p) => p.name))('%s: the suite\'s loops, control, structs and pointers still pass (IR checked after every pass)', { timeout: 60_000 }, (name) => {
    for (const f of files) {
      const m = optimize(compileToIr(`/suite/${f}`, { files: fs, systemPaths: ['/libc/include'] }).module, { level: 2, verify: true, disable: [name] });
      const r = runModule([m, libc()], { maxSteps: 2e8 });
      expect(r.error, f).toBeUndefined();
      expect(r.stdout, f).toMatch(TALLY);
    }
  });
});

const LOOP_WITH_BREAK = 'int f(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) { if (p[i] == 0) break; s += p[i]; } return s; }';
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/**
 * Per back-end optimisation: a program it applies to and what it selects there (`sign`), or, for
 * the layout clean-ups, what there is more of (`more`: the test copied into the latch) or fewer
 * of (`fewer`: jumps) with it on.
 */
/** Loads whose result the very next instruction reads (a stall each on CV32E40P). */
const loadUses = (text: string): number => {
  const ls = text.split('\n').filter((l) => /^\t[a-z]/.test(l) && !l.startsWith('\t.'));
  let n = 0;
  for (let i = 0; i + 1 < ls.length; i++) {
    const m = /^\t(?:cv\.)?l[bhw]u?\s+(\w+),/.exec(ls[i]);
    if (m && new RegExp(`[\\s,(]${m[1]}\\b`).test(ls[i + 1].replace(/^\t\S+/, ''))) n++;
  }
  return n;
};

const RV_CASES: Record<string, { src: string; sign?: RegExp; more?: RegExp; fewer?: RegExp; lower?: (asm: string) => number }> = {
  'hardware-loops': { src: 'int f(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }', sign: /cv\.setup/ },
  'post-increment': { src: 'int f(int *p) { int n = 0; while (*p++) n++; return n; }', sign: /cv\.lw\s+\w+, \(\w+\), 4/ },
  'reg-reg-addressing': { src: 'int f(const unsigned char *a, const int *t, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[t[i]]; return s; }', sign: /cv\.lbu\s+\w+, \w+\(\w+\)/ },
  'branch-immediate': { src: 'int f(int x) { if (x == 3) return 7; return 1; }', sign: /cv\.bneimm|cv\.beqimm/ },
  'corev-sle': { src: 'int f(int a, int b) { return a <= b; }', sign: /cv\.sle\b/ },
  'corev-extend': { src: 'int f(int x) { return (short)x; }', sign: /cv\.exths/ },
  'simd-min-max': { src: 'typedef signed char v4s __attribute__((vector_size(4)));\nv4s f(v4s a, v4s b) { v4s m = a > b; return (a & m) | (b & ~m); }', sign: /cv\.max\.b/ },
  'lane-extract-insert': { src: 'unsigned f(unsigned x) { return (x >> 8) & 0xff; }', sign: /cv\.extractu\.b/ },
  'simd-scalar-operand': { src: 'typedef signed char v4s __attribute__((vector_size(4)));\nv4s f(v4s a) { return a + 3; }', sign: /cv\.add\.sci\.b/ },
  // Layout: a loop with its test at the top and a second exit (no hardware loop).
  'jump-threading': { src: LOOP_WITH_BREAK, fewer: /^\tj\t/gm },
  'rotate-latch': { src: LOOP_WITH_BREAK, more: /^\tlw\t/gm },
  'load-use-schedule': { src: 'int f(const int *a, const int *b, int k) { return (a[0] * k + b[0]) * (a[1] + 7) + (b[1] ^ k); }', lower: loadUses },
  // An unrolled loop that is not counted (a step of 3): its copies, split by exit tests, fall through into each other.
  'select-min-max': { src: 'int f(int a, int b) { return a > b ? a : b; }\nunsigned g(int v) { return v < 0 ? 0u - (unsigned)v : (unsigned)v; }', sign: /\tcv\.max\s[\s\S]*\tcv\.abs\s/ },
  'block-chains': { src: 'int f(const int *a, int n) { int s = 0;\n#pragma GCC unroll 4\nfor (int i = 0; i < n; i += 3) s = s * 3 + a[i]; return s; }', fewer: /^\tj\t/gm },
};

describe('each back-end optimisation off', () => {
  it('every one has a case here', () => expect(Object.keys(RV_CASES).sort()).toEqual(RV_PASSES.map((p) => p.name).sort()));

  it.for(RV_PASSES.map((p) => p.name))('%s: what it selects is gone', (name) => {
    const c = RV_CASES[name];
    const on = asm(c.src), off = asm(c.src, [name]);
    expect(on).not.toBe(off);
    if (c.sign) {
      expect(on).toMatch(c.sign);
      expect(off).not.toMatch(c.sign);
    }
    if (c.more) expect(count(on, c.more)).toBeGreaterThan(count(off, c.more));
    if (c.fewer) expect(count(on, c.fewer)).toBeLessThan(count(off, c.fewer));
    if (c.lower) expect(c.lower(on)).toBeLessThan(c.lower(off));
  });

});

describe('each optimisation off, on the simulator', () => {
  let m: Machine;
  beforeAll(async () => { m = await nodeMachine(); });
  // The back end's: the files their selections and layouts are about; the IR passes': loops
  // (what the back end sees then is less clean: a hardware loop's bound was once read before
  // the body defined it when DCE was off).
  const files = { rv: ['hwloops.c', 'vector.c', 'patterns.c', 'loops.c'], ir: ['hwloops.c', 'loops.c'] };
  const suite = Object.fromEntries(['test.h', ...files.rv].map((f) => [`/suite/${f}`, readFileSync(`${SUITE}${f}`, 'utf8')]));
  it.for(passList().map((p) => [p.name, p.stage] as const))('%s: the suite\'s loops (and for the back end vectors and patterns) still pass', { timeout: 120_000 }, ([name, stage]) => {
    for (const f of files[stage]) {
      const b = buildBuiltin([`/suite/${f}`], suite, { xpulp: true, opt: 2, disable: [name] });
      const run = runElf(m, b.link.elf, { maxCycles: 1e9 });
      expect(run.stdout, f).toMatch(TALLY);
      expect(run.exitCode, f).toBe(0);
    }
  });
});
