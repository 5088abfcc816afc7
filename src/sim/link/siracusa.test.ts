// The differential test of the linker: the objects `dpg run --cc clang` builds for shared test
// folders and built-in models (tiled and untiled, with and without N-EUREKA and its weight
// memory), linked by ld.lld-19 with link.ld and by ours with the typed layout, run on the
// simulator: the same bytes at the same addresses, the same stdout, the same cycles and per-core
// statistics.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import { dpg, EXIT } from '../../cli/main';
import { codegenFor, siracusaObjectsFor } from '../../testing/siracusa-objects';
import { codegenTestFolders } from '../../testing/test-folders';
import { parseElf } from '../elf';
import { nodeMachine } from '../node';
import { RunError } from '../run/error';
import { linkWithBuiltin, linkWithLld, runOnSimulator, siracusaToolchain } from '../run/simulate';
import { runSiracusa } from '../siracusa';
import { linkSiracusa } from './index';
import { sourceAt } from './lines';
import { CLANG_19, LLD_19, missing } from '../../testing/requires';

/** Name, address, size and (PROGBITS) content hash of each non-empty loadable section, from the section headers. */
function allocSections(elf: Uint8Array): string[] {
  const dv = new DataView(elf.buffer, elf.byteOffset, elf.byteLength);
  const shoff = dv.getUint32(32, true), shnum = dv.getUint16(48, true), shstrndx = dv.getUint16(50, true);
  const sh = (i: number, f: number) => dv.getUint32(shoff + 40 * i + f, true);
  const name = (off: number) => { let e = sh(shstrndx, 16) + off, s = ''; while (elf[e]) s += String.fromCharCode(elf[e++]); return s; };
  const out: string[] = [];
  for (let i = 1; i < shnum; i++) {
    if (!(sh(i, 8) & 2) || !sh(i, 20)) continue;
    const bytes = sh(i, 4) === 8 ? 'nobits' : createHash('sha256').update(elf.subarray(sh(i, 16), sh(i, 16) + sh(i, 20))).digest('hex').slice(0, 16);
    out.push(`${name(sh(i, 0))} 0x${sh(i, 12).toString(16)} ${sh(i, 20)} ${bytes}`);
  }
  return out;
}

const tools = !missing(CLANG_19, LLD_19) && siracusaToolchain();

const CASES: { folder: string; label: string; config: Partial<Config> }[] = [
  { folder: 'Kernels/Integer/Add/Regular', label: 'untiled, 8 cores', config: { tiled: false } },
  { folder: 'Kernels/Integer/Add/Regular', label: 'tiled, home in L3', config: { l1: 8000, defaultMemLevel: 'L3' } },
  { folder: 'Kernels/Integer/Conv/Regular_2D_RQ', label: 'tiled, L1 8000, double-buffered', config: { l1: 8000, doubleBuffer: true } },
  { folder: 'Kernels/Integer/Conv/Regular_2D_RQ', label: 'untiled, 1 core', config: { tiled: false, cores: 1 } },
  { folder: 'Kernels/Integer/Conv/Regular_2D_RQ', label: 'N-EUREKA, tiled, weight memory', config: { platform: 'siracusa-neureka', doubleBuffer: true, neurekaWmem: true } },
  { folder: 'models/adder', label: 'tiled', config: {} },
  { folder: 'models/mini-mobilenetv2', label: 'untiled, 8 cores', config: { tiled: false } },
  { folder: 'models/mini-mobilenetv2', label: 'tiled, L1 64000', config: {} },
  { folder: 'models/mini-mobilenetv2', label: 'N-EUREKA, untiled, weight memory', config: { platform: 'siracusa-neureka', tiled: false, neurekaWmem: true } },
  { folder: 'models/mini-mobilenetv2', label: 'N-EUREKA, tiled, weights in L2', config: { platform: 'siracusa-neureka', doubleBuffer: true } },
];

describe.skipIf(!tools)('our linker vs ld.lld-19 on the Siracusa programs', () => {
  const folders = tools ? codegenTestFolders() : [];
  const dirOf = (name: string) => folders.find((f) => f.name === name)?.dir;
  for (const c of CASES) {
    it(`${c.folder}: ${c.label}`, async () => {
      const dir = dirOf(c.folder);
      expect(dir, c.folder).toBeDefined();
      const { objects, linkScript } = await siracusaObjectsFor(dir!, { ...DEFAULT_CONFIG, ...c.config });
      const ours = linkWithBuiltin(objects), ref = linkWithLld(objects, linkScript);
      expect(parseElf(ours.elf).entry).toBe(parseElf(ref).entry);
      expect(allocSections(ours.elf)).toEqual(allocSections(ref));
      const m = await nodeMachine();
      const a = runSiracusa(m, ours.elf, { maxCycles: 2e9 }), b = runSiracusa(m, ref, { maxCycles: 2e9 });
      expect(a.stopped).toBe('exit');
      expect(a.stdout).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      expect(a.stdout).toBe(b.stdout);
      expect(a.cycles).toBe(b.cycles);
      expect(a.cores).toEqual(b.cores);
      expect(a.dma).toEqual(b.dma);
      expect(a.neureka).toEqual(b.neureka);
      // With unused sections collected: less code, the same run (functions stay 4-aligned, so
      // branch timing is unchanged), to the cycle with ideal fetch: the code moved, so it falls
      // in other instruction cache lines.
      const gc = linkWithBuiltin(objects, { gcSections: true });
      const g = runSiracusa(m, gc.elf, { maxCycles: 2e9, idealFetch: true });
      expect(gc.sections.find((x) => x.name === '.text')!.size).toBeLessThan(ours.sections.find((x) => x.name === '.text')!.size);
      const bIdeal = runSiracusa(m, ref, { maxCycles: 2e9, idealFetch: true });
      expect(g.stdout).toBe(bIdeal.stdout);
      expect(g.cycles).toBe(bIdeal.cycles);
      // The weight memory and L3 sections land where the script puts them.
      if (a.neureka.wmemBytes > 0) expect(ours.sections.find((s) => s.name === '.wmem')?.size).toBeGreaterThan(0);
      if (c.config.defaultMemLevel === 'L3') expect(ours.sections.find((s) => s.name === '.l3')?.size).toBeGreaterThan(0);
      // A trap's source line, from our line table: main's first line is in main.c.
      const main = ours.symbols.find((s) => s.name === 'main')!;
      expect(sourceAt(ours, main.addr)).toMatchObject({ fn: 'main', line: expect.stringMatching(/^main\.c:\d+$/) });
    }, 600_000);
  }

  it('dpg run --cc clang --ld builtin: Errors 0 and the same Runtime as ld.lld\'s build', async () => {
    const dir = dirOf('Kernels/Integer/Add/Regular')!;
    const run = async (...flags: string[]) => {
      const out: string[] = [];
      const code = await dpg(['run', '-p', 'siracusa', '--cc', 'clang', '-t', dir, ...flags], (x) => out.push(x), () => {});
      expect(code).toBe(EXIT.ok);
      return out.join('\n');
    };
    const ours = await run('--ld', 'builtin'), ref = await run();
    expect(ours).toMatch(/^Errors: 0 out of \d+$/m);
    expect(/^Runtime: \d+ cycles$/m.exec(ours)![0]).toBe(/^Runtime: \d+ cycles$/m.exec(ref)![0]);
  }, 600_000);

  it('a trap in a program we linked names the function and the source line from our line table', async () => {
    const config = { ...DEFAULT_CONFIG, tiled: false };
    const code = await codegenFor(dirOf('Kernels/Integer/Add/Regular')!, config);
    let network = '';
    const faulty = { ...code, files: code.files.map((f) => f.path !== 'Network.c' ? f
      : { ...f, content: network = f.content.replace('void RunNetwork(void) {', '$&\n  *(volatile int *)4 = 1;') }) };
    const err = await runOnSimulator(faulty, config, { linker: 'builtin' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RunError);
    const trap = (err as RunError).result.sim!.trap!;
    expect(trap).toMatchObject({ core: 8, tval: 4, fn: 'RunNetwork', line: expect.stringMatching(/^Network\.c:\d+$/) });
    expect(network.split('\n')[Number(trap.line!.split(':')[1]) - 2]).toContain('void RunNetwork(void) {');
  }, 600_000);

  // The largest program (2.3 MB of weights in C): byte for byte lld's; its link time, best of 5, beside lld's.
  it('models/microllama-prefill: tiled, the same layout, and the link time', async () => {
    const { objects, linkScript } = await siracusaObjectsFor(dirOf('models/microllama-prefill')!, DEFAULT_CONFIG);
    const ref = linkWithLld(objects, linkScript);
    const best = (f: () => unknown) => Math.min(...Array.from({ length: 5 }, () => { const t = performance.now(); f(); return performance.now() - t; }));
    const inputs = objects.map((path) => ({ name: path, bytes: new Uint8Array(readFileSync(path)) }));
    const ours = linkSiracusa(inputs);
    expect(allocSections(ours.elf)).toEqual(allocSections(ref));
    const ms = best(() => linkSiracusa(inputs)), lldMs = best(() => linkWithLld(objects, linkScript));
    console.log(`microllama-prefill: linked in ${ms.toFixed(0)} ms (objects in memory; ld.lld-19 from disk: ${lldMs.toFixed(0)} ms)`);
    expect(ms).toBeLessThan(5000);
  }, 600_000);
});
