// Hardware loops in the assembly (rv/hwloop.ts): which loops get cv.setup and which must not.
// Their results on the simulator against clang-19 and the IR interpreter are the C suite's
// testdata/suite/hwloops.c (suite.test.ts).
import { describe, expect, it } from 'vitest';
import { LIBRARY_SOURCES } from '../../run/sources';
import { compileC } from '../driver';
import { filesFrom } from '../fs';

/** cv.setup count per function of the assembly. */
function setups(asm: string): Map<string, number> {
  const n = new Map<string, number>();
  let fn = '';
  for (const l of asm.split('\n')) {
    const m = /^([A-Za-z_]\w*):$/.exec(l);
    if (m) { fn = m[1]; n.set(fn, 0); }
    if (/^\s+cv\.setup\b/.test(l)) n.set(fn, n.get(fn)! + 1);
  }
  return n;
}

const SNIPPETS = `
int up2(int lo, int hi) { int s = 0; for (int i = lo; i < hi; i += 2) s += i; return s; }
int up4_le(int lo, int hi) { int s = 0; for (int i = lo; i <= hi; i += 4) s = s * 3 + i; return s; }
int down4(int hi, int lo) { int s = 0; for (int i = hi; i > lo; i -= 4) s = s * 5 + i; return s; }
int down_ge(int hi, int lo) { int s = 0; for (int i = hi; i >= lo; i--) s = s * 7 + i; return s; }
unsigned count_only(unsigned n) { unsigned x = 1; for (unsigned k = n; k; k--) x = x * 3 + 1; return x; }
int ne_up(int lo, int hi) { int s = 0; for (int i = lo; i != hi; i++) s += i * i; return s; }
int sum_ptr(const short *p, const short *end) { int s = 0; for (; p < end; p++) s += *p; return s; }
int tiny(int n) { int x = 0; for (int i = 0; i < n; i++) x += 3; return x; }
long long nest3(int a, int b, int c) {
  long long s = 0;
  for (int i = 0; i < a; i++) for (int j = 0; j < b; j++) for (int k = 0; k < c; k += 2) s += i * 100 + j * 10 + k;
  return s;
}
int ident(int);
int with_call(int n) { int s = 0; for (int i = 0; i < n; i++) s += ident(i); return s; }
int with_break(const int *a, int n) { int i; for (i = 0; i < n; i++) if (a[i] < 0) break; return i; }
int step3(int n) { int s = 0; for (int i = 0; i < n; i += 3) s += i; return s; }
int ahead(const unsigned char *x, unsigned L, unsigned *last) {
  unsigned j; int s = 0;
  for (j = 4; j + 8 <= L; j += 8) s = s * 3 + x[j] + x[j + 4];
  *last = j;
  return s;
}
int words_ne(const int *a, const int *end) { int s = 0; while (a != end) { s = s * 3 + *a; a += 2; } return s; }
int after(int n, int *i_out) { int i = 0, s = 0; for (; i < n; i += 2) s += i; *i_out = i; return s; }
`;

describe('hardware loops', () => {
  const build = (xpulp: boolean) => compileC('main.c', { files: filesFrom({ 'main.c': SNIPPETS }), xpulp }).asm;

  it('counted one-block loops get one; calls, breaks and steps that are no power of two do not', () => {
    const asm = build(true);
    const n = setups(asm);
    for (const f of ['up2', 'up4_le', 'down4', 'down_ge', 'count_only', 'ne_up', 'sum_ptr', 'tiny', 'nest3']) expect([f, n.get(f)]).toEqual([f, 1]);
    // A test on the counter plus a constant, and counters read after the loop (corrected at the exit).
    for (const f of ['ahead', 'after', 'words_ne']) expect([f, n.get(f)]).toEqual([f, 1]);
    for (const f of ['with_call', 'with_break', 'step3']) expect([f, n.get(f)]).toEqual([f, 0]);
    // A counter that only counts is gone: count_only's body is the multiply-add alone.
    const body = /cv\.setup\t0, \w+, (\.\w+)\n(\.\w+):\n([^]*?)\1:/.exec(asm.slice(asm.indexOf('count_only:')))!;
    expect(body[3].trim().split('\n').filter((l) => !l.includes('.loc')).length).toBeLessThanOrEqual(4);
    // The constraints: aligned, uncompressed, at least 3 instructions (tiny's one add is padded).
    expect(asm).toMatch(/\.p2align\t2\n\t\.option\tpush\n\t\.option\tnorvc\n\tcv\.setup/);
    expect(asm.slice(asm.indexOf('tiny:'))).toMatch(/\tnop\n\.LBB\d+_\d+_end:\n\t\.option\tpop/);
  });

  it('plain RV32 builds never use them', () => {
    expect(build(false)).not.toMatch(/cv\./);
  });

  it('the kernel library\'s GEMM and elementwise inner loops use them', () => {
    const files = filesFrom(Object.fromEntries([...LIBRARY_SOURCES].map(([p, t]) => [`/${p}`, t])));
    const opts = { files, systemPaths: ['/runtime/libc/include'], includePaths: ['/kernels', '/runtime'], defines: ['DPG_XPULP'], xpulp: true };
    const gemm = setups(compileC('/kernels/gemm.c', opts).asm);
    // The 2 x 4 block's K loop, in every specialised copy of the column code.
    for (const f of ['column_SS_fast', 'column_UU_fast', 'column_SS_general', 'column_SS_k4']) expect([f, gemm.get(f)! > 0]).toEqual([f, true]);
    const ew = setups(compileC('/kernels/elementwise.c', opts).asm);
    expect([...ew.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(3);
    for (const f of ['binary_contig8_any', 'dpg_requant_shift', 'rq_add_runs8']) expect([f, ew.get(f)! > 0]).toEqual([f, true]);
    // iSoftmax's row maximum, eight bytes a pass (its test reads j + 8).
    const rows = setups(compileC('/kernels/rows.c', opts).asm);
    expect(rows.get('isoftmax_table_any')).toBeGreaterThan(3);
  });
});
