// The optimiser's passes on small programs: what each one must achieve (promoted slots, phis,
// folded branches, inlined and dropped functions, unrolled loops) and what it must keep
// (volatile asm, device-register loads, meaning: every program also runs the same).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileToIr } from '../compile';
import { compileSnippet, libc } from '../front-util';
import { filesFrom } from '../fs';
import type { IrFunction, IrModule } from '../ir';
import { runModule } from '../interp';
import { optimize, simplifyFunction } from '.';
import { dominators, findLoops } from './dom';
import { verifyFunction } from './verify';

function count(f: IrFunction, op: string): number {
  let n = 0;
  for (const b of f.blocks) for (const x of b.insts) if (x.op === op) n++;
  return n;
}

function fn(m: IrModule, name: string): IrFunction {
  const f = m.functions.find((g) => g.name === name);
  if (!f) throw new Error(`no function ${name}`);
  return f;
}

/** Compiles, optimises (checking the IR after every pass) and runs `src` with and without; both must agree. */
function both(src: string, level: 1 | 2 = 2): { m: IrModule; plain: number; opt: number } {
  const plain = runModule([compileSnippet(src), libc()]);
  const m = optimize(compileSnippet(src), { level, verify: true });
  const r = runModule([m, libc()]);
  expect(r.error).toBeUndefined();
  expect(r.stdout).toBe(plain.stdout);
  expect(r.exitCode).toBe(plain.exitCode);
  return { m, plain: plain.steps, opt: r.steps };
}

describe('mem2reg', () => {
  it('turns a loop counter and a sum into phis: no slot, load or store left', () => {
    const m = compileSnippet('int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }');
    const f = fn(m, 'f');
    expect(f.slots.length).toBe(3);
    simplifyFunction(f, verifyFunction);
    expect(f.slots.length).toBe(0);
    expect(count(f, 'load') + count(f, 'store')).toBe(0);
    expect(count(f, 'phi')).toBe(2);
  });

  it('keeps slots whose address escapes', () => {
    const m = compileSnippet('void g(int *); int f(void) { int x = 1; g(&x); return x; }');
    const f = fn(m, 'f');
    simplifyFunction(f, verifyFunction);
    expect(f.slots.length).toBe(1);
    expect(count(f, 'load')).toBe(1);
  });

  it('keeps the meaning of char and short variables (wrap-around, sign)', () => {
    const r = both(`#include <stdio.h>
      int main(void) { unsigned char c = 250; signed char s = 120; short h = 32000; unsigned short u = 1;
        for (int i = 0; i < 10; i++) { c += 3; s += 5; h += 1000; u -= 2; }
        printf("%d %d %d %d\\n", c, s, h, u); return c + s; }`);
    expect(fn(r.m, 'main').slots.length).toBe(0);
  });

  it('an uninitialised variable reads as some value, not a crash', () => {
    both('int main(void) { int x; for (int i = 0; i < 3; i++) { if (i == 1) x = 5; } return x; }');
  });
});

describe('level 1 (the scalar passes only)', () => {
  it('promotes and folds but neither inlines nor unrolls', () => {
    const r = both(`#include <stdio.h>
      static int sq(int x) { return x * x; }
      int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += sq(i); printf("%d\\n", s); return 0; }`, 1);
    const main = fn(r.m, 'main');
    expect(main.slots).toEqual([]);
    expect(count(main, 'call')).toBe(2);
    expect(count(main, 'phi')).toBeGreaterThan(0);
  });
});

describe('SCCP, simplification and CFG cleanup', () => {
  it('folds a switch on a constant and deletes the dead arms', () => {
    const m = compileSnippet(`int f(int a) { int mode = 2; switch (mode) { case 1: return a + 1; case 2: return a * 8; default: return 0; } }`);
    const f = fn(m, 'f');
    simplifyFunction(f, verifyFunction);
    expect(f.blocks.length).toBe(1);
    expect(count(f, 'switch')).toBe(0);
    expect(count(f, 'mul')).toBe(0);
    expect(count(f, 'shl')).toBe(1); // a * 8 -> a << 3
  });

  it('propagates constants through a loop whose variable never changes', () => {
    const m = compileSnippet('int f(int n) { int k = 3, s = 0; for (int i = 0; i < n; i++) { if (k != 3) k = 7; s += k; } return s; }');
    const f = fn(m, 'f');
    simplifyFunction(f, verifyFunction);
    expect(count(f, 'phi')).toBe(2); // i and s; k is the constant 3
  });

  it('folds bit-exactly: wrap-around, unsigned division and shifts, 64-bit', () => {
    both(`#include <stdio.h>
      int main(void) { int a = 2147483647; unsigned b = 0xfffffff0u; long long c = -5; unsigned long long d = 1ull << 63;
        printf("%d %u %u %d %lld %llu %lld\\n", a + 1, b / 16u, b % 8u, (int)b >> 2, c * 3 / 2, d >> 3, (long long)(unsigned char)(a * 7));
        return 0; }`);
  });
});

describe('DCE', () => {
  it('keeps volatile asm and asm clobbering memory, drops pure asm whose outputs are unused', () => {
    const m = compileSnippet(`int f(int a) { int r;
      __asm__ volatile("nop");
      __asm__("add %0, %1, %1" : "=r"(r) : "r"(a));
      __asm__("sub %0, %1, %1" : "=r"(r) : "r"(a) : "memory");
      return a; }`);
    const f = fn(m, 'f');
    simplifyFunction(f, verifyFunction);
    const t = f.blocks.flatMap((b) => b.insts.filter((x) => x.op === 'asm').map((x) => x.asm!.template));
    expect(t).toEqual(['nop', 'sub %0, %1, %1']);
  });

  it('keeps an unused load from a fixed address (a device register), drops one from a local', () => {
    const m = compileSnippet('void f(void) { int x = 3; (void)x; (void)*(volatile unsigned *)0x1a10c000; }');
    const f = fn(m, 'f');
    simplifyFunction(f, verifyFunction);
    expect(count(f, 'load')).toBe(1);
    expect(f.slots.length).toBe(0);
  });
});

describe('inlining', () => {
  it('inlines always_inline and small static functions, drops the static ones left unused, keeps external ones', () => {
    const r = both(`#include <stdio.h>
      static inline __attribute__((always_inline)) int big(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }
      static int sq(int x) { return x * x; }
      int ext(int x) { return x + 1; }
      int main(void) { printf("%d %d %d\\n", big(5), sq(7), ext(1)); return 0; }`);
    expect(r.m.functions.map((f) => f.name).sort()).toEqual(['ext', 'main']);
    expect(count(fn(r.m, 'main'), 'call')).toBe(1); // printf
  });

  it('leaves recursion alone and never loops', () => {
    const r = both(`#include <stdio.h>
      static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
      static int even(int n); static int odd(int n) { return n == 0 ? 0 : even(n - 1); } static int even(int n) { return n == 0 ? 1 : odd(n - 1); }
      int main(void) { printf("%d %d\\n", fact(10), even(11)); return 0; }`);
    expect(r.m.functions.map((f) => f.name)).toContain('fact');
  });

  it('keeps noinline functions, calls with struct results and arguments, variadic callees', () => {
    const r = both(`#include <stdio.h>
      #include <stdarg.h>
      struct P { int a, b; };
      static __attribute__((noinline)) int keep(int x) { return x + 2; }
      static struct P mk(int a) { struct P p = {a, a * 2}; return p; }
      static int sum(struct P p) { return p.a + p.b; }
      static int va(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
      static long long wide(long long x, int y) { return x * y; }
      int main(void) { printf("%d %d %d %lld\\n", keep(1), sum(mk(4)), va(3, 1, 2, 3), wide(1ll << 40, 3)); return 0; }`);
    const names = r.m.functions.map((f) => f.name);
    expect(names).toContain('keep');
    expect(names).toContain('va');
    expect(names).not.toContain('mk');
    expect(names).not.toContain('wide');
  });
});

describe('SROA and unrolling', () => {
  const GEMM_LIKE = `#include <stdio.h>
    #include <stdint.h>
    static inline __attribute__((always_inline)) int32_t mac4(int32_t acc, uint32_t a, uint32_t b) {
      for (int i = 0; i < 4; i++) acc += (int32_t)(int8_t)(a >> (8 * i)) * (int32_t)(int8_t)(b >> (8 * i));
      return acc;
    }
    static inline __attribute__((always_inline)) void block(int MR, int NR, const uint32_t *a, const uint32_t *b, int K, int32_t *y) {
      const uint32_t *ap[2], *bp[4];
      int32_t acc[2][4];
      for (int r = 0; r < MR; r++) ap[r] = a + r * K;
      for (int c = 0; c < NR; c++) bp[c] = b + c * K;
      for (int r = 0; r < MR; r++) for (int c = 0; c < NR; c++) acc[r][c] = 0;
      for (int k = 0; k < K; k++) {
        uint32_t av[2], bv[4];
        for (int r = 0; r < MR; r++) av[r] = *ap[r]++;
        for (int c = 0; c < NR; c++) bv[c] = *bp[c]++;
        for (int r = 0; r < MR; r++) for (int c = 0; c < NR; c++) acc[r][c] = mac4(acc[r][c], av[r], bv[c]);
      }
      for (int r = 0; r < MR; r++) for (int c = 0; c < NR; c++) y[r * 4 + c] = acc[r][c];
    }
    __attribute__((noinline)) void block24(const uint32_t *a, const uint32_t *b, int K, int32_t *y) { block(2, 4, a, b, K, y); }
    int main(void) {
      uint32_t a[2 * 3], b[4 * 3]; int32_t y[8];
      for (int i = 0; i < 6; i++) a[i] = 0x01fe7f80u * (i + 1);
      for (int i = 0; i < 12; i++) b[i] = 0x80817f02u ^ (i * 0x01010101u);
      block24(a, b, 3, y);
      for (int i = 0; i < 8; i++) printf("%d ", y[i]);
      printf("\\n");
      return 0;
    }`;

  it('turns a gemm-like 2 x 4 register block into vregs: no slot remains', () => {
    const r = both(GEMM_LIKE);
    const f = fn(r.m, 'block24');
    expect(f.slots).toEqual([]);
    expect(count(f, 'call')).toBe(0);
    // the k loop stays a loop; everything inside is straight-line code: 8 accumulators in phis
    expect(count(f, 'phi')).toBeGreaterThanOrEqual(2 + 4 + 8);
    expect(count(f, 'load')).toBe(2 + 4); // one word per row of A and of B per k
    expect(count(f, 'mul')).toBe(2 * 4 * 4 + 1); // 8 accumulators, 4 byte products each; 3 * K for B's last row
    expect(r.opt).toBeLessThan(r.plain);
  });

  it('unrolls by the trip count, wrap-around and unsigned compares included', () => {
    both(`#include <stdio.h>
      int main(void) { unsigned s = 0; for (unsigned char c = 250; c != 4; c++) s = s * 3 + c;
        for (unsigned u = 0xfffffffeu; u >= 0xfffffffcu; u--) s += u; for (int i = 10; i > 0; i -= 3) s ^= i;
        printf("%u\\n", s); return 0; }`);
  });

  it('unrolls a loop that runs zero times when SCCP has not folded its test (the body left unreachable)', () => {
    const src = `#include <stdio.h>
      int main(void) { int s = 0, i; for (i = 5; i < 5; i++) s += i; printf("%d %d\\n", s, i); return 0; }`;
    const plain = runModule([compileSnippet(src), libc()]);
    const m = optimize(compileSnippet(src), { level: 2, verify: true, disable: ['sccp'] });
    expect(runModule([m, libc()]).stdout).toBe(plain.stdout);
    expect(count(fn(m, 'main'), 'phi')).toBe(0);
  });

  it('honours #pragma GCC unroll 1 (no unrolling)', () => {
    const m = optimize(compileSnippet(`int f(int *p) { int s = 0;
      #pragma GCC unroll 1
      for (int i = 0; i < 4; i++) s += p[i];
      return s; }`), { level: 2, verify: true });
    expect(count(fn(m, 'f'), 'phi')).toBeGreaterThan(0);
  });

  it('#pragma GCC unroll N with a trip count known at run time: N copies without tests, then the loop for the rest', () => {
    const r = both(`#include <stdio.h>
      __attribute__((noinline)) int f(const int *p, int n) { int s = 0;
      #pragma GCC unroll 4
        for (int i = 0; i < n; i++) s += p[i] * 3;
        return s; }
      int main(void) { int a[9] = {1, -2, 3, 4, 5, 6, 7, 8, 9}; for (int n = 0; n <= 9; n++) printf("%d ", f(a, n)); printf("\\n"); return 0; }`);
    const f = fn(r.m, 'f');
    expect(count(f, 'load')).toBe(5); // four in the main loop, one in the rest
    expect(count(f, 'slt')).toBe(2); // the entry's and the rest's tests; the main loop counts down (ne) from n >> 2
    expect(count(f, 'lshr')).toBe(1);
  });

  it('#pragma GCC unroll N on a loop that is not counted (a step of 3): N copies, each testing the exit', () => {
    const r = both(`#include <stdio.h>
      __attribute__((noinline)) int f(const int *p, int n) { int s = 0;
      #pragma GCC unroll 4
        for (int i = 0; i < n; i += 3) s += p[i] * 3;
        return s; }
      int main(void) { int a[19] = {1, -2, 3, 4, 5, 6, 7, 8, 9}; for (int n = 0; n <= 19; n++) printf("%d ", f(a, n)); printf("\\n"); return 0; }`);
    const f = fn(r.m, 'f');
    expect(count(f, 'load')).toBe(4);
    expect(count(f, 'slt')).toBe(4);
  });

  it('#pragma GCC unroll N with a trip count N divides: only the first copy tests', () => {
    const r = both(`#include <stdio.h>
      __attribute__((noinline)) void table(signed char *t, int m) {
      #pragma GCC unroll 4
        for (unsigned b = 0; b < 128; b++) t[b] = (signed char)((int)(b * m) >> 3);
      }
      int main(void) { signed char t[128]; table(t, 7); int s = 0; for (int i = 0; i < 128; i++) s = s * 31 + t[i]; printf("%d\\n", s); return 0; }`);
    const f = fn(r.m, 'table');
    expect(count(f, 'store')).toBe(4);
    expect(count(f, 'ult') + count(f, 'ne')).toBe(1);
  });

  it('splits struct copies and memsets into scalars', () => {
    const r = both(`#include <stdio.h>
      struct Q { int shift, lo, hi; unsigned lim; };
      static int use(const struct Q *q, int v) { return v < q->lo ? q->lo : v > q->hi ? q->hi : v >> q->shift; }
      __attribute__((noinline)) int run(const struct Q *in, int v) { struct Q q = *in; struct Q z = {0}; z.hi = use(&q, v); return z.hi + z.lo; }
      int main(void) { struct Q q = {2, -5, 100, 7}; printf("%d %d %d\\n", run(&q, 1000), run(&q, -50), run(&q, 77)); return 0; }`);
    expect(fn(r.m, 'run').slots).toEqual([]);
  });
});

describe('LICM', () => {
  /** The blocks of f inside some loop (a natural loop of its CFG). */
  const inLoop = (f: IrFunction): Set<number> => new Set(findLoops(f, dominators(f)).flatMap((l) => [...l.blocks]));
  const opsInLoops = (f: IrFunction, op: string): number => {
    const loop = inLoop(f);
    return f.blocks.reduce((n, b, i) => n + (loop.has(i) ? b.insts.filter((x) => x.op === op).length : 0), 0);
  };

  it('a division by a divisor found non-zero before the loop leaves it, even from a branch; one by an untested divisor stays', () => {
    const r = both(`#include <stdio.h>
      __attribute__((noinline)) unsigned tested(const unsigned *x, unsigned n, unsigned k) {
        if (n == 0) return 0;
        unsigned s = 0;
        for (unsigned i = 0; i < k; i++) { if (x[i] > 9) s += 65536u / n; else s += x[i]; }
        return s; }
      __attribute__((noinline)) unsigned untested(unsigned a, unsigned n, unsigned k) {
        unsigned s = 0;
        for (unsigned i = 0; i < k; i++) s += a / n + i;
        return s; }
      int main(void) { unsigned x[4] = {1, 20, 3, 40}; printf("%u %u %u %u\\n", tested(x, 3, 4), tested(x, 0, 4), untested(5, 0, 0), untested(9, 2, 3)); return 0; }`);
    expect(opsInLoops(fn(r.m, 'tested'), 'udiv')).toBe(0);
    expect(opsInLoops(fn(r.m, 'untested'), 'udiv')).toBe(1);
  });

  it('loads from a local whose address never escapes leave a loop that stores through a pointer (alias.ts)', () => {
    const r = both(`#include <stdio.h>
      struct W { int a, b, c[4]; };
      __attribute__((noinline)) void f(const struct W *in, int *out, int n) {
        struct W w = *in;
        for (int i = 0; i < n; i++) out[i] = w.c[i & 3] * w.a + w.b; }
      int main(void) { struct W w = {3, -7, {1, 2, 3, 4}}; int o[9]; f(&w, o, 9); int s = 0; for (int i = 0; i < 9; i++) s = s * 3 + o[i]; printf("%d\\n", s); return 0; }`);
    // w.a and w.b leave (out[i] cannot be w: its address is never taken outside the copy);
    // w.c[i & 3] is read at a variable offset each iteration
    expect(opsInLoops(fn(r.m, 'f'), 'load')).toBe(1);
  });
});

describe('the kernel library with the CORE-V asm helpers (-DDPG_XPULP)', () => {
  const COMPILER = fileURLToPath(new URL('../../../compiler/', import.meta.url));
  const files: Record<string, string> = {};
  for (const d of ['kernels', 'runtime', 'runtime/siracusa', 'runtime/libc/include']) for (const f of readdirSync(join(COMPILER, d))) {
    if (/\.[ch]$/.test(f)) files[`/src/${d}/${f}`] = readFileSync(join(COMPILER, d, f), 'utf8');
  }
  const compile = (path: string): IrModule => compileToIr(path, {
    files: filesFrom(files), defines: ['DPG_XPULP'],
    includePaths: ['/src/kernels', '/src/runtime', '/src/runtime/siracusa'], systemPaths: ['/src/runtime/libc/include'],
  }).module;
  const kernels = Object.keys(files).filter((f) => f.startsWith('/src/kernels/') && f.endsWith('.c'));

  for (const path of kernels) {
    it(`${path.slice(5)} optimises with the IR checked after every pass`, () => {
      const m = optimize(compile(path), { level: 2, verify: true });
      expect(m.functions.length).toBeGreaterThan(0);
    }, 120_000);
  }

  it('gemm.c: the fast column function keeps its accumulators in vregs, the dot products inlined as asm', () => {
    const m = optimize(compile('/src/kernels/gemm.c'), { level: 2, verify: true });
    const f = fn(m, 'column_SS_fast');
    const stats = { slots: f.slots.length, calls: count(f, 'call'), asm: count(f, 'asm'), loads: count(f, 'load'), stores: count(f, 'store'), insts: f.blocks.reduce((s, b) => s + b.insts.length, 0) };
    console.log(`column_SS_fast: ${JSON.stringify(stats)}`);
    expect(stats.slots).toBe(0);
    expect(stats.calls).toBe(0);
    const templates = f.blocks.flatMap((b) => b.insts.filter((x) => x.op === 'asm').map((x) => x.asm!.template));
    // per K step of the unrolled-by-2 loop: 2 x (2 + 4 word loads, 8 dot products)
    expect(templates.filter((t) => t.startsWith('cv.sdotsp.b')).length).toBeGreaterThanOrEqual(16);
    expect(templates.filter((t) => t.startsWith('cv.dotsp.b')).length).toBe(8 + 4 + 2 + 1); // the 2 x 4 block, the 1 x 4 last row, 2 x 1 and 1 x 1 edges
    expect(templates.some((t) => t.startsWith('cv.sdotusp') || t.startsWith('cv.sdotup'))).toBe(false); // switch(mode) folded
    expect(m.functions.some((g) => g.name === 'sdot' || g.name === 'dot' || g.name === 'block' || g.name === 'column')).toBe(false);
  }, 120_000);
});
