import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLATFORMS, type PlatformName } from '../config';
import { OPS } from '../ops';
import { PLATFORM_DEFS, platformFor } from '.';

describe('platforms', () => {
  it.each(PLATFORMS)('%s: a flat listing of uniquely named, documented passes', (name) => {
    const p = platformFor(name);
    expect(p.name).toBe(name);
    const names = p.passes.map((x) => x.name);
    expect(new Set(names).size).toBe(names.length);
    for (const pass of p.passes) {
      expect(pass.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(pass.doc.length).toBeGreaterThan(20);
    }
    expect(names[0]).toBe('type-inputs');
  });

  it('Siracusa: L1 256 KiB TCDM at 0x10000000, L2 2 MiB, L3 16 MiB, an 8-core cluster; N-EUREKA adds its 4 MiB weight memory', () => {
    const s = platformFor('siracusa');
    expect(s.memory.map((m) => [m.name, m.bytes, m.base])).toEqual([['L1', 262144, 0x10000000], ['L2', 2097152, undefined], ['L3', 16777216, undefined]]);
    expect(s.engines).toEqual([expect.objectContaining({ name: 'cluster', cores: 8 })]);
    const n = platformFor('siracusa-neureka');
    expect(n.memory.at(-1)).toMatchObject({ name: 'WMEM', bytes: 4 * 1024 * 1024, base: 0x10400000 });
    expect(n.engines.map((e) => e.name)).toEqual(['cluster', 'neureka']);
    expect(n.passes.map((p) => p.name)).toEqual([...s.passes.map((p) => p.name)].flatMap((x) => (x === 'normalize-gemm' ? [x, 'gemm-to-pointwise-conv'] : [x])));
    expect(platformFor('generic').memory).toHaveLength(1);
  });

  it("Siracusa + N-EUREKA's listing is Siracusa's with gemm-to-pointwise-conv right after normalize-gemm", () => {
    const names = (p: PlatformName) => platformFor(p).passes.map((x) => x.name);
    const siracusa = names('siracusa');
    const at = siracusa.indexOf('normalize-gemm') + 1;
    expect(names('siracusa-neureka')).toEqual([...siracusa.slice(0, at), 'gemm-to-pointwise-conv', ...siracusa.slice(at)]);
  });

  it('every kernel in a catalogue is for an op the registry knows, on an engine of its platform', () => {
    const known = new Set(OPS.flatMap((e) => e.ops));
    for (const p of Object.values(PLATFORM_DEFS)) {
      const engines = new Set(p.engines.map((e) => e.name));
      for (const k of p.kernels) {
        expect(known.has(k.op), `${p.name}: ${k.op}`).toBe(true);
        expect(engines.has(k.engine), `${p.name}: ${k.op} on ${k.engine}`).toBe(true);
      }
    }
  });

  it('no compiler code outside src/compiler/platforms asks which platform it is', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) { if (e !== 'platforms') walk(p); continue; }
        if (!p.endsWith('.ts') || p.endsWith('.test.ts')) continue;
        const src = readFileSync(p, 'utf8');
        if (/platform\s*[!=]==|['"](generic|siracusa|siracusa-neureka)['"]/.test(src)) offenders.push(relative(root, p));
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
