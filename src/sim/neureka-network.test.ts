// Networks with N-EUREKA layers, generated for siracusa-neureka and run on the simulator
// (hal_siracusa.c driving as/neureka.ts): Errors 0 untiled, untiled with the weights in the
// weight memory, tiled, and tiled with the weights read in place from the weight memory; the controller sleeps while the NPU works, and the weight memory
// saves cycles.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KERNELS_DIR } from './run/host';
import { codegenTestFolders } from '../testing/test-folders';
import { loadFolder, planAndGenerate } from '../testing/tiled-harness';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import type { Machine } from './machine';
import { nodeMachine } from './node';
import { runSiracusa, type SiracusaResult } from './siracusa';
import { compileSiracusa, readBytes, scratchDir } from './testing/toolchain';
import { CLANG_19, missing } from '../testing/requires';

const NETS = ['Models/miniMobileNetv2', 'Models/CNN_Linear1', 'models/mini-mobilenetv2'];
const RUNS: [string, Partial<Config>][] = [
  ['untiled', { tiled: false }], ['untiled, weight memory', { tiled: false, neurekaWmem: true }], ['tiled', { tiled: true, l1: 64000 }],
  ['tiled at L1 8000, weight memory', { tiled: true, l1: 8000, neurekaWmem: true }],
];
const LIB = readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.c')).map((f) => join(KERNELS_DIR, f));
const folders = codegenTestFolders().filter((f) => NETS.includes(f.name));
let m: Machine;

async function simulate(dir: string, name: string, c: Partial<Config>): Promise<SiracusaResult> {
  const { code } = await planAndGenerate(loadFolder(dir, { ...DEFAULT_CONFIG, platform: 'siracusa-neureka' }), { platform: 'siracusa-neureka', cores: 8, ...c });
  expect(code.layers.some((l) => l.engine === 'neureka')).toBe(true);
  const out = join(scratchDir(), 'neureka-nets', `${name}-${c.tiled ? 't' : 'u'}${c.l1 ?? ''}${c.neurekaWmem ? 'w' : ''}`.replace(/\W/g, '_'));
  mkdirSync(out, { recursive: true });
  for (const f of code.files) writeFileSync(join(out, f.path), f.content);
  const c_ = code.files.filter((f) => f.path.endsWith('.c') && f.path !== 'Makefile').map((f) => join(out, f.path));
  const elf = await compileSiracusa([...c_, ...LIB], join(out, 'net.elf'), { extraIncludes: [out, KERNELS_DIR] });
  return runSiracusa(m, readBytes(elf), { maxCycles: 2e8 });
}

describe.skipIf(missing(CLANG_19))('siracusa-neureka networks on the simulator', () => {
  beforeAll(async () => { m = await nodeMachine(); });
  it('finds the networks', () => expect(folders.length).toBe(NETS.length));
  for (const { dir, name } of folders) {
    it(name, async () => {
      const cycles: number[] = [];
      for (const [label, c] of RUNS) {
        const r = await simulate(dir, name, c);
        expect(r.stopped, label).toBe('exit');
        expect(r.stdout, label).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        cycles.push(r.cycles);
      }
      // The weights over the weight memory's own link: no slower than from L2.
      expect(cycles[1]).toBeLessThanOrEqual(cycles[0]);
    }, 300_000);
  }
});
