// GCC vector types: vector_size(4) of int8 (the Deeploy tutorial's SIMD kernels): elementwise
// operators with wrap-around per lane, element access, scalars splatted, casts to int.
// Packed vectors (4 bytes of 8- or 16-bit lanes) live in one register: lane-wise IR ops that the
// interpreter runs, the CORE-V back end selects to xcvsimd and plain RV32 expands (rv/vectors.ts).
// Every operator is checked against a lane-by-lane model of GCC's semantics in the interpreter,
// on the simulator (CORE-V and plain RV32) and, when clang-19 is here, clang-19's build.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runElf } from '../index';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { buildBuiltin } from '../testing/builtin';
import { XCV_MARCH, compileCAsync, readBytes, scratchDir } from '../testing/toolchain';
import { CLANG_19, missing } from '../../testing/requires';
import { compileToIr } from './compile';
import { compileC } from './driver';
import { asserts, ccError, libc, libcHeaders } from './front-util';
import { filesFrom } from './fs';
import { VEC_OPS, type Inst, type IrFunction, type IrModule, type Op } from './ir';
import { runModule } from './interp';
import { optimize } from './opt';
import { expandVectors } from './rv/vectors';

it('int8 x 4 vectors', () => {
  expect(asserts(`
  v4s a = {1, 2, 3, 127}, b = {10, 20, 30, 1}; v4s c = a + b; ASSERT(11, c[0]); ASSERT(33, c[2]); ASSERT(-128, c[3]);
  c = a * b; ASSERT(40, c[1]); c = b - a; ASSERT(-126, c[3]); c = a & b; ASSERT(2, c[2]); c = a << 1; ASSERT(-2, c[3]);
  c = -a; ASSERT(-3, c[2]); c = a + 1; ASSERT(4, c[2]); c[1] = 99; ASSERT(99, c[1]); ASSERT(4, sizeof(v4s)); ASSERT(4, _Alignof(v4s));
  ASSERT(0x7f030201, (int)a); v4u u = {250, 1, 2, 3}; u += (v4u){10, 0, 0, 0}; ASSERT(4, u[0]); c = (v4s)0x01020304; ASSERT(4, c[0]);
  ASSERT(-1, (a == a)[0]); ASSERT(0, (a > b)[0]); ASSERT(-1, (a > b)[3]); ASSERT(267, dot(a, b));
  ASSERT(-1, (u > (v4u){1, 0, 0, 0})[0]); ASSERT(1, sizeof((u > u)[0])); int i = 2; ASSERT(3, a[i]); c[i] = 7; ASSERT(7, c[2]);
  int big = 300; c = a + big; ASSERT(45, c[0]); ASSERT(-85, c[3]); /* GCC: the int is converted to the element type, then splatted */
  `, `typedef signed char v4s __attribute__((vector_size(4))); typedef unsigned char v4u __attribute__((vector_size(4)));
      int dot(v4s a, v4s b) { int s = 0; for (int i = 0; i < 4; i++) s += a[i] * b[i]; return s; }`)).toBe('');
});

it('8-byte vectors; wider ones are refused at their declaration', () => {
  expect(asserts(`v4h a = {1, 2, 3, 4}, b = {10, 20, 30, 40}; v4h c = a + b; ASSERT(11, c[0]); ASSERT(44, c[3]); ASSERT(8, sizeof(v4h));
    v4uh u = {1, 0xffff, 3, 4}; ASSERT(-1, (u > (v4uh){0, 1, 2, 3})[1]);`,
  'typedef short v4h __attribute__((vector_size(8))); typedef unsigned short v4uh __attribute__((vector_size(8)));')).toBe('');
  expect(ccError('typedef int v4i __attribute__((vector_size(16)));\nint f(v4i x) { return x[0]; }'))
    .toMatch(/^\/t\/main\.c:1:\d+: vector_size\(16\) is not supported: vectors of at most 8 bytes/);
});

it('a vector condition of ?: is refused, as GCC\'s C does (the select is (v & m) | (w & ~m))', () => {
  expect(ccError('typedef signed char v4s __attribute__((vector_size(4)));\nv4s f(v4s v, v4s w) { return (v > w) ? v : w; }'))
    .toMatch(/^\/t\/main\.c:2:\d+: used (signed )?char __attribute__\(\(vector_size\(4\)\)\) where a scalar is required/);
});

// ---------------------------------------------------------------- every operator, lane by lane

interface VType { name: string; w: 8 | 16; signed: boolean; elem: string }
const TYPES: VType[] = [
  { name: 'v4s', w: 8, signed: true, elem: 'signed char' },
  { name: 'v4u', w: 8, signed: false, elem: 'unsigned char' },
  { name: 'v2s', w: 16, signed: true, elem: 'short' },
  { name: 'v2u', w: 16, signed: false, elem: 'unsigned short' },
];

/** Lane values: a's x, b's y, the count vector's c, the lane index i; the scalars s (in the element's range) and k (a count). */
type LaneFn = (x: number, y: number, c: number, s: number, k: number, i: number) => number | boolean;
/** C expressions over a, b, c (vectors), s, k (ints) and t (a scratch vector), each with the lane it gives. */
const OPS: [string, LaneFn][] = [
  ['a + b', (x, y) => x + y], ['a - b', (x, y) => x - y], ['a * b', (x, y) => Math.imul(x, y)],
  ['a / b', (x, y) => Math.trunc(x / y)], ['a % b', (x, y) => x % y],
  ['a & b', (x, y) => x & y], ['a | b', (x, y) => x | y], ['a ^ b', (x, y) => x ^ y],
  ['a << c', (x, _y, c) => x << c], ['a >> c', (x, _y, c) => x >> c],
  ['a == b', (x, y) => x === y], ['a != b', (x, y) => x !== y], ['a < b', (x, y) => x < y],
  ['a <= b', (x, y) => x <= y], ['a > b', (x, y) => x > y], ['a >= b', (x, y) => x >= y],
  ['-a', (x) => -x], ['~a', (x) => ~x], ['+a', (x) => x],
  ['a + s', (x, _y, _c, s) => x + s], ['s - a', (x, _y, _c, s) => s - x], ['a * s', (x, _y, _c, s) => Math.imul(x, s)],
  ['a << k', (x, _y, _c, _s, k) => x << k], ['a >> k', (x, _y, _c, _s, k) => x >> k],
  ['a < s', (x, _y, _c, s) => x < s], ['s <= a', (x, _y, _c, s) => s <= x], ['a == s', (x, _y, _c, s) => x === s],
  ['a & s', (x, _y, _c, s) => x & s], ['s | a', (x, _y, _c, s) => s | x],
  ['a >> 3', (x) => x >> 3], ['a << 1', (x) => x << 1], ['a + 5', (x) => x + 5], ['a - 100', (x) => x - 100],
  ['a > 2', (x) => x > 2], ['a >= 40', (x) => x >= 40], ['a != 7', (x) => x !== 7], ['a > 100', (x) => x > 100],
  ['a & 0x0f', (x) => x & 15], ['a ^ 1', (x) => x ^ 1],
  ['(t = a, t += b, t)', (x, y) => x + y], ['(t = a, t -= 3, t)', (x) => x - 3],
  ['(t = a, t >>= k, t)', (x, _y, _c, _s, k) => x >> k], ['(t = a, t *= b, t)', (x, y) => Math.imul(x, y)],
  ['(t = a, t[1] = s, t)', (x, _y, _c, s, _k, i) => (i === 1 ? s : x)],
  ['(a & (v)(a > b)) | (b & ~(v)(a > b))', (x, y) => Math.max(x, y)], ['(b & (v)(a > b)) | (a & ~(v)(a > b))', (x, y) => Math.min(x, y)],
  ['(a & (v)(a < s)) | ((a * 0 + s) & ~(v)(a < s))', (x, _y, _c, s) => Math.min(x, s)],
];
/** Element reads (an int each). */
const READS: [string, (lanes: number[]) => number][] = [
  ['a[0]', (l) => l[0]], ['a[1]', (l) => l[1]], ['a[L - 1]', (l) => l[l.length - 1]], ['a[0] + b[1]', (l) => l[0]],
];

const N = 8;

function lanesOf(word: number, t: VType): number[] {
  const out: number[] = [];
  for (let i = 0; i < 32; i += t.w) {
    const v = (word >>> i) & ((1 << t.w) - 1);
    out.push(t.signed ? (v << (32 - t.w)) >> (32 - t.w) : v);
  }
  return out;
}

function packLanes(vals: number[], t: VType): number {
  return vals.reduce((acc, v, i) => acc | ((v & ((1 << t.w) - 1)) << (t.w * i)), 0) >>> 0;
}

/** A small deterministic generator (the inputs must be the same for every build). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}

interface Case { a: number; b: number; c: number; s: number; k: number }

function cases(t: VType): Case[] {
  const r = rng(t.w * 7 + (t.signed ? 1 : 2));
  const lanes = 32 / t.w, max = (1 << t.w) - 1;
  const word = (f: (i: number) => number) => packLanes(Array.from({ length: lanes }, (_, i) => f(i)), t);
  const edge = [0, 1, max, 1 << (t.w - 1), (1 << (t.w - 1)) - 1];
  return Array.from({ length: N }, (_, n) => {
    const a = word((i) => (n < 2 ? edge[(n + i) % edge.length] : r() & max));
    let b = word((i) => (n < 2 ? edge[(n + 2 * i + 1) % edge.length] : r() & max));
    b = packLanes(lanesOf(b, t).map((y) => y || 3), t); // no lane of b is 0 (division)
    const c = word(() => r() % t.w);
    const sv = r() & max;
    const s = t.signed ? (sv << (32 - t.w)) >> (32 - t.w) : sv;
    return { a, b, c, s, k: r() % t.w };
  });
}

function expected(): string {
  const out: string[] = [];
  for (const t of TYPES) {
    cases(t).forEach((k, n) => {
      const A = lanesOf(k.a, t), B = lanesOf(k.b, t), C = lanesOf(k.c, t);
      for (const [expr, f] of OPS) {
        out.push(`${t.name} ${n} ${expr} = ${hex(packLanes(A.map((x, i) => { const r = f(x, B[i], C[i], k.s, k.k, i); return typeof r === 'boolean' ? -Number(r) : r; }), t))}`);
      }
      for (const [expr, f] of READS) {
        const v = expr === 'a[0] + b[1]' ? A[0] + B[1] : f(A);
        out.push(`${t.name} ${n} ${expr} = ${hex(v >>> 0)}`);
      }
    });
  }
  return `${out.join('\n')}\n`;
}

const hex = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');

/** The program printing every operator's result for every case, as `expected()` does. */
function program(): string {
  const lines = ['#include <stdio.h>'];
  for (const t of TYPES) {
    lines.push(`typedef ${t.elem} ${t.name} __attribute__((vector_size(4)));`);
    const cs = cases(t);
    const arr = (name: string, vals: number[]) => `unsigned ${name}_${t.name}[${N}] = {${vals.map((v) => `0x${(v >>> 0).toString(16)}u`).join(', ')}};`;
    lines.push(arr('A', cs.map((c) => c.a)), arr('B', cs.map((c) => c.b)), arr('C', cs.map((c) => c.c)));
    lines.push(`int S_${t.name}[${N}] = {${cs.map((c) => c.s).join(', ')}}, K_${t.name}[${N}] = {${cs.map((c) => c.k).join(', ')}};`);
  }
  for (const t of TYPES) {
    lines.push(`#define v ${t.name}`, `#define L ${32 / t.w}`, `static void run_${t.name}(void) {`, `  for (int n = 0; n < ${N}; n++) {`,
      `    v a = (v)A_${t.name}[n], b = (v)B_${t.name}[n], c = (v)C_${t.name}[n], t; ${t.elem} s = S_${t.name}[n]; int k = K_${t.name}[n];`);
    const fmt = (expr: string) => `"${t.name} %d ${expr.replace(/%/g, '%%')} = %08x\\n"`;
    for (const [expr] of OPS) lines.push(`    printf(${fmt(expr)}, n, (unsigned)(${expr}));`);
    for (const [expr] of READS) lines.push(`    printf(${fmt(expr)}, n, (unsigned)(int)(${expr}));`);
    lines.push('    (void)t;', '  }', '}', '#undef v', '#undef L');
  }
  lines.push('int main(void) {', ...TYPES.map((t) => `  run_${t.name}();`), '  return 0;', '}');
  return `${lines.join('\n')}\n`;
}

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

describe('every operator on packed vectors against a lane-by-lane model', () => {
  const want = expected();
  const src = program();

  it.for([0, 2] as const)('in the IR interpreter (opt %i)', (level) => {
    const mod = compileToIr('/t/ops.c', { files: filesFrom({ '/t/ops.c': src, ...libcHeaders() }), systemPaths: ['/libc/include'] }).module;
    const r = runModule([level ? optimize(mod, { level }) : mod, libc()], { maxSteps: 2e8 });
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe(want);
  });

  it.for([[true, 2], [false, 2], [false, 0]] as const)('on the simulator (xpulp %s, opt %i)', { timeout: 60_000 }, ([xpulp, opt]) => {
    const b = buildBuiltin(['/t/ops.c'], { '/t/ops.c': src }, { xpulp, opt });
    const asm = b.asm[b.asm.length - 1];
    if (xpulp) expect(asm).toMatch(/\tcv\.add\.b\t/); else expect(asm).not.toMatch(/^\s+cv\./m);
    const run = runElf(m, b.link.elf, { maxCycles: 2e9 });
    expect(run.stopped).toBe('exit');
    expect(run.stdout).toBe(want);
  });

  it.skipIf(missing(CLANG_19))('clang-19 -O2 with xcvsimd prints the same (the model is GCC\'s semantics)', { timeout: 120_000 }, async () => {
    const dir = scratchDir();
    const file = join(dir, 'vector-ops.c');
    writeFileSync(file, src);
    const elf = await compileCAsync([file], join(dir, 'vector-ops.elf'), { march: `rv32imc${XCV_MARCH}` });
    const run = runElf(m, readBytes(elf), { maxCycles: 2e9 });
    expect(run.stdout).toBe(want);
  });
});

// ---------------------------------------------------------------- the expansion for plain RV32

describe('plain RV32 expansion of the lane-wise IR ops equals the interpreter\'s', () => {
  /** main() { return op(a, b) } or, splatted, op(a, vsplat(b)). */
  const moduleOf = (op: Op, lane: 8 | 16, a: number, b: number, splat: boolean): IrModule => {
    const insts: Inst[] = [
      { op: 'const', ty: 'i32', dst: 0, args: [], imm: a | 0, loc: 't:1' },
      { op: 'const', ty: 'i32', dst: 1, args: [], imm: b | 0, loc: 't:1' },
      splat ? { op: 'vsplat', ty: 'i32', dst: 2, args: [1], lane, loc: 't:1' } : { op: 'copy', ty: 'i32', dst: 2, args: [1], loc: 't:1' },
      op === 'vsplat' ? { op, ty: 'i32', dst: 3, args: [0], lane, loc: 't:1' } : { op, ty: 'i32', dst: 3, args: [0, 2], lane, loc: 't:1' },
      { op: 'ret', ty: 'i32', dst: -1, args: [3], loc: 't:1' },
    ];
    const f: IrFunction = { name: 'main', params: [], ret: 'i32', sret: false, variadic: false, isStatic: false, slots: [], blocks: [{ insts }], nregs: 4, attrs: {}, loc: 't:1' };
    return { globals: [], functions: [f], externs: [] };
  };
  const r = rng(99);
  for (const op of VEC_OPS) {
    it(op, () => {
      for (const lane of [8, 16] as const) {
        for (let n = 0; n < 60; n++) {
          // Counts of any size (the lane's low bits count), edge lanes, random words.
          const pick = () => [0, -1, 0x80808080 | 0, 0x7f7f7f7f, 0x80008000 | 0, 0x7fff7fff, r() | 0, r() | 0, r() & 0x0f0f0f0f][n % 9 === 0 ? r() % 6 : 6 + (r() % 3)];
          // Every third pair has equal lanes and lanes one apart (the compares' boundaries).
          const a = pick(), b = n % 3 === 1 ? a ^ (r() & 0x01000301) : pick();
          for (const splat of [false, true]) {
            const mod = moduleOf(op, lane, a, b, splat);
            const want = runModule(mod, { memory: 1 << 16 }).exitCode;
            const plain = { ...mod, functions: [expandVectors(mod.functions[0])] };
            expect(plain.functions[0].blocks[0].insts.some((x) => VEC_OPS.has(x.op)), 'no vector op left').toBe(false);
            expect(runModule(plain, { memory: 1 << 16 }).exitCode, `${op}.${lane} ${hex(a)} ${hex(b)}${splat ? ' (splat)' : ''}`).toBe(want);
          }
        }
      }
    });
  }
});

// ---------------------------------------------------------------- the LeakyReLU kernel (issue #16)

const LEAKY = `
typedef signed char v4s __attribute__((vector_size(4)));
void leaky(const v4s *x, v4s *y, unsigned n, int shift) {
  for (unsigned i = 0; i < n; i++) { v4s v = x[i]; v4s s = v >> shift; v4s m = v > s; y[i] = (v & m) | (s & ~m); }
}
void leaky_xor(const v4s *x, v4s *y, unsigned n, int shift) {
  for (unsigned i = 0; i < n; i++) { v4s v = x[i]; v4s s = v >> shift; y[i] = s ^ ((v ^ s) & (v > s)); }
}
void leaky_ref(const signed char *x, signed char *y, unsigned n, int shift) {
  for (unsigned i = 0; i < n; i++) { int v = x[i], s = v >> shift; y[i] = v > s ? v : s; }
}`;

describe('the SIMD LeakyReLU kernel', () => {
  it('is a loop of cv.lw, cv.sra.sc.b, cv.max.b, cv.sw with no stack traffic', () => {
    const asm = compileC('/t/k.c', { files: filesFrom({ '/t/k.c': LEAKY }), xpulp: true }).asm;
    const fn = asm.slice(asm.indexOf('\nleaky:'), asm.indexOf('.Lfunc_end0'));
    const body = fn.split('\n').filter((l) => /^\t[a-z]/.test(l) && !l.startsWith('\t.'));
    expect(body.join('\n')).toMatch(/cv\.sra\.sc\.b/);
    expect(body.join('\n')).toMatch(/cv\.max\.b/);
    expect(body.some((l) => /\bsp\b/.test(l))).toBe(false);
    expect(body.some((l) => /\t(lb|lbu|sb|cv\.lb|cv\.sb)\t/.test(l))).toBe(false);
    // The loop: from the block the backward branch goes to, up to that branch.
    const loop = fn.slice(fn.lastIndexOf('\n', fn.indexOf(':\n', fn.indexOf('cv.lw') - 80)));
    expect(loop.split('\n').filter((l) => /^\t[a-z]/.test(l) && !l.startsWith('\t.')).length).toBeLessThanOrEqual(10);
  });

  it.for([true, false])('matches the scalar reference on the simulator (xpulp %s)', { timeout: 60_000 }, (xpulp) => {
    const main = `${LEAKY}
#include <stdio.h>
#define N 1024
signed char X[N] __attribute__((aligned(4))), Y[N] __attribute__((aligned(4))), Z[N] __attribute__((aligned(4))), R[N];
int main(void) {
  unsigned seed = 12345;
  for (int i = 0; i < N; i++) { seed = seed * 1103515245u + 12345u; X[i] = (signed char)(seed >> 16); }
  X[0] = -128; X[1] = 127; X[2] = 0; X[3] = -1;
  int bad = 0;
  for (int shift = 0; shift < 8; shift++) {
    leaky((const v4s *)X, (v4s *)Y, N / 4, shift);
    leaky_xor((const v4s *)X, (v4s *)Z, N / 4, shift);
    leaky_ref(X, R, N, shift);
    for (int i = 0; i < N; i++) bad += (Y[i] != R[i]) + (Z[i] != R[i]);
  }
  printf("%d mismatches\\n", bad);
  return bad != 0;
}`;
    const b = buildBuiltin(['/t/leaky.c'], { '/t/leaky.c': main }, { xpulp, opt: 2 });
    const run = runElf(m, b.link.elf, { maxCycles: 1e9 });
    expect(run.stdout).toBe('0 mismatches\n');
    expect(run.exitCode).toBe(0);
  });
});
