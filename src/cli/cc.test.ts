// `dpg cc`: one C file through our compiler for Siracusa (the kernel library's headers found by
// default), its assembly printed or written; the pass list; optimisations turned off by name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passList } from '../sim/cc/driver';
import { dpg, EXIT } from './main';

const dir = mkdtempSync(join(tmpdir(), 'dpg-cc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await dpg(argv, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };

/** A counted loop over the kernel library's types (its header found without -I). */
const SUM = file('sum.c', `#include "dpg_kernels.h"
int32_t sum(const int32_t *a, uint32_t n) { int32_t s = 0; for (uint32_t i = 0; i < n; i++) s += a[i]; return s; }
`);

describe('dpg cc', () => {
  it('compiles a counted loop to a hardware loop at -O2, and not with hardware-loops disabled or at -O0', async () => {
    const o2 = await call('cc', SUM, '-O2');
    expect(o2.code, o2.err).toBe(EXIT.ok);
    expect(o2.out).toMatch(/^sum:/m);
    expect(o2.out).toMatch(/\tcv\.setup\t/);
    const off = await call('cc', SUM, '--disable', 'hardware-loops');
    expect(off.code, off.err).toBe(EXIT.ok);
    expect(off.out).toMatch(/^sum:/m);
    expect(off.out).not.toMatch(/cv\.setup/);
    const o0 = await call('cc', SUM, '-O0');
    expect(o0.out).not.toMatch(/cv\.setup/);
  });

  it('-D defines and -I finds headers (joined forms too); -o writes the assembly', async () => {
    const sub = mkdtempSync(join(dir, 'inc-'));
    writeFileSync(join(sub, 'k.h'), '#define K_TIMES(x) ((x) * K)\n');
    const src = file('k.c', '#include "k.h"\nint f(int x) { return K_TIMES(x) + 1; }\n');
    const out = join(dir, 'k.s');
    const r = await call('cc', src, `-I${sub}`, '-D', 'K=12', '-o', out);
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(r.out).toBe('');
    expect(r.err).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(/^f:/m);
    const missing = await call('cc', src);
    expect(missing.code).toBe(EXIT.badInput);
    expect(missing.err).toMatch(/k\.c:1:10: .*k\.h/);
  });

  it('a compile error is file:line:col and exit status 2', async () => {
    const bad = file('bad.c', 'int f(int a) {\n  return a +;\n}\n');
    const r = await call('cc', bad);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/^error: .*bad\.c:2:13: /);
  });

  it('--passes lists every optimisation in order, marking the ones that do not run', async () => {
    const r = await call('cc', '--passes');
    expect(r.code).toBe(EXIT.ok);
    const names = [...r.out.matchAll(/^ {4}-O\d {2}(\S+)/gm)].map((m) => m[1]);
    expect(names).toEqual(passList().map((p) => p.name));
    expect(names.indexOf('sccp')).toBeLessThan(names.indexOf('inline'));
    expect(names.indexOf('licm')).toBeLessThan(names.indexOf('hardware-loops'));
    const o1 = await call('cc', '--passes', '-O1', '--disable', 'gvn');
    expect(o1.out).toMatch(/ inline .*\[off at -O1\]/);
    expect(o1.out).toMatch(/ gvn .*\[off: --disable\]/);
    expect(o1.out).not.toMatch(/ sccp .*\[off/);
  });

  it('an unknown optimisation is an error naming it and listing the known ones', async () => {
    const r = await call('cc', SUM, '--disable', 'hardware-loop');
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("unknown optimisation 'hardware-loop'");
    expect(r.err).toContain('known: prune, cfg');
    expect(r.err).toContain('hardware-loops');
  });

  it('flags of our compiler are refused where they mean nothing', async () => {
    expect(await call('run', '-t', 'x', '-I', 'd')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining("-I: a flag of the cc command, not of 'run'") });
    expect(await call('run', '-t', 'x', '--cc', 'clang', '-O0')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('-O: sets our C compiler') });
    expect(await call('cc')).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('cc needs a C file') });
    expect(await call('cc', join(dir, 'none.c'))).toMatchObject({ code: EXIT.badInput, err: expect.stringContaining('cannot read') });
  });
});
