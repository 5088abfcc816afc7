// Acceptance for issue #6 (tiled Siracusa): for every shared test folder and built-in model,
// the code generated from the memory plan, built for the host with the HAL's DMA deferred to
// the wait (HAL_HOST_DEFERRED_DMA: a missing wait reads stale data), gives Errors 0 at L1 8000
// and 64000, single- and double-buffered, on 1 and 8 cores; configurations the plan says do not
// fit must fail with that error. The tiled C also compiles warning-free for RV32 (plain and
// Xpulp), --profileTiling prints one Input/Kernel/Output line per tile, and the home level L3
// (staged through L2) works on a few models.
import { describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { DEFAULT_CONFIG, type Config } from '../config';
import { buildAndRunHost, crossCompile, RV32_FLAGS } from '../../sim/run/host';
import { codegenTestFolders } from '../../testing/test-folders';
import { loadFolder, planAndGenerate, type Folder } from '../../testing/tiled-harness';
import type { CodegenResult } from './types';
import { CLANG_19, HOST_CC, SHARED_TESTS, missing } from '../../testing/requires';

const DEFERRED = ['HAL_HOST_DEFERRED_DMA'];
const folders = codegenTestFolders();
const siracusa = (dir: string) => loadFolder(dir, { ...DEFAULT_CONFIG, platform: 'siracusa' });

/** [l1, double buffering, cores] */
const CONFIGS: [number, boolean, number][] = [[8000, true, 8], [64000, false, 1], [8000, false, 1], [64000, true, 8]];

const errorsOf = (code: CodegenResult, defines = DEFERRED) => {
  const r = buildAndRunHost(code, { defines });
  return { errors: r.errors, total: r.total, stdout: r.stdout };
};

/** The program for a configuration, or null when the plan says it does not fit (checked to say how to fix it). */
async function generated(f: Folder, c: Partial<Config>) {
  try {
    return await planAndGenerate(f, { platform: 'siracusa', tiled: true, ...c });
  } catch (e) {
    if (!(e instanceof PlaygroundError) || e.data.code !== 'does-not-fit') throw e;
    expect(e.data.hint).toMatch(/an L[12] of at least \d+ B/);
    return null;
  }
}

describe.skipIf(missing(HOST_CC))('tiled Siracusa code on the host, DMA deferred to the wait', () => {
  for (const { dir, name } of folders) {
    it(name, async () => {
      const f = siracusa(dir);
      for (const [l1, doubleBuffer, cores] of CONFIGS) {
        const g = await generated(f, { l1, doubleBuffer, cores });
        if (!g) continue;
        const r = errorsOf(g.code);
        expect(r.stdout, `L1 ${l1}, ${doubleBuffer ? 'DB' : 'SB'}, ${cores} cores`).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        // Every layer keeps its lines in the layer map.
        const net = g.code.files.find((x) => x.path === 'Network.c')!.content.split('\n');
        for (const l of g.code.layers) {
          expect(l.ranges.length, l.node).toBeGreaterThan(0);
          for (const rg of l.ranges) expect(net.slice(rg.from - 1, rg.to).join('\n')).toContain(l.node);
        }
      }
    }, 600_000);
  }
});

describe.skipIf(missing(CLANG_19))('tiled Siracusa code compiles for RV32 (-Wall -Werror -ffreestanding)', () => {
  for (const { dir, name } of folders) {
    it(name, async () => {
      const g = await generated(siracusa(dir), { l1: 8000, doubleBuffer: true, cores: 8, profileTiling: 'L2' });
      if (!g) return;
      crossCompile(g.code, RV32_FLAGS.rv32imc);
      crossCompile(g.code, RV32_FLAGS.xpulp);
    }, 600_000);
  }
});

const byName = (n: string) => folders.find((x) => x.name === n)!;

describe.skipIf(missing(HOST_CC, SHARED_TESTS))('tile loops', () => {
  it.each([['Kernels/Integer/Conv/Regular_2D_RQ'], ['Kernels/Integer/Add/Large'], ['Kernels/Integer/Attention']])(
    '--profileTiling L2 prints Input DMA, Kernel and Output DMA once per tile of every layer: %s', async (name) => {
      for (const doubleBuffer of [false, true]) {
        const g = (await generated(siracusa(byName(name).dir), { l1: 8000, doubleBuffer, cores: 8, profileTiling: 'L2' }))!;
        const out = errorsOf(g.code).stdout;
        expect(out).toMatch(/^Errors: 0 /m);
        const mode = doubleBuffer ? 'DB' : 'SB';
        for (const t of g.plan.tilings) {
          for (const what of ['Input DMA', 'Kernel', 'Output DMA']) {
            const re = new RegExp(`^\\[${t.node}_L2\\]\\[${mode}\\]\\[\\d+ ops\\]\\[Tile (\\d+)\\] ${what} took \\d+ cycles$`, 'gm');
            const tiles = [...out.matchAll(re)].map((m) => Number(m[1]));
            expect(tiles, `${t.node} ${what}`).toEqual(Array.from({ length: t.tiles }, (_, i) => i));
          }
        }
        expect(g.plan.tilings.some((t) => t.tiles > 1)).toBe(true);
      }
    }, 600_000);

  it('a missing DMA wait breaks the result under the deferred DMA (and only there)', async () => {
    const g = (await generated(siracusa(byName('Kernels/Integer/Conv/Regular_2D_RQ').dir), { l1: 8000, doubleBuffer: true, cores: 8 }))!;
    expect(errorsOf(g.code).errors).toBe(0);
    const drop = (pattern: RegExp, by = ''): CodegenResult => {
      const files = g.code.files.map((f) => (f.path === 'Network.c' ? { ...f, content: f.content.replace(pattern, by) } : f));
      expect(files.find((f) => f.path === 'Network.c')!.content).not.toEqual(g.code.files.find((f) => f.path === 'Network.c')!.content);
      return { ...g.code, files };
    };
    // Without the wait for the prefetched inputs, the kernel reads the copy before it arrives.
    const noInputWait = drop(/dpg_dma_wait\(in\);/g, '(void)in;');
    expect(errorsOf(noInputWait).errors).toBeGreaterThan(0);
    expect(errorsOf(noInputWait, []).errors).toBe(0);
    // Without the final output wait, the last tile never reaches L2.
    const noOutputWait = drop(/dpg_dma_wait\(out\[\d\]\); \/\* the last output[^\n]*/g);
    expect(errorsOf(noOutputWait).errors).toBeGreaterThan(0);
  }, 600_000);

  it.each([['Models/miniMobileNetv2'], ['models/transformer-block'], ['Models/microLlama/INT8/microLlama1']])(
    'home level L3: every layer staged through L2, tiled and untiled: %s', async (name) => {
      const f = siracusa(byName(name).dir);
      for (const c of [{ tiled: true, l1: 8000, doubleBuffer: true, cores: 8 }, { tiled: false, cores: 1 }] as Partial<Config>[]) {
        const g = (await generated(f, { ...c, defaultMemLevel: 'L3', profileTiling: 'L3' }))!;
        expect(g.plan.homeLevel).toBe('L3');
        const net = g.code.files.find((x) => x.path === 'Network.c')!.content;
        expect(net).toContain('hal_l3_read(');
        const out = errorsOf(g.code).stdout;
        expect(out, JSON.stringify(c)).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        const layers = g.plan.layers.filter((l) => l.count > 0).length;
        expect(out.match(/^\[\w+_L3\]\[SB\]\[\d+ ops\]\[Tile 0\] Kernel took \d+ cycles$/gm)?.length).toBe(layers);
      }
    }, 600_000);

  it('a configuration that does not fit L1 is the plan\'s does-not-fit error, not code', async () => {
    expect(await generated(siracusa(byName('Models/miniMobileNetv2').dir), { l1: 1024, doubleBuffer: true })).toBeNull();
  }, 600_000);

  it('the untiled configuration runs in place at the planned addresses', async () => {
    const g = (await generated(siracusa(byName('Models/miniMobileNetv2').dir), { tiled: false, cores: 8 }))!;
    expect(g.plan.tiled).toBe(false);
    const net = g.code.files.find((x) => x.path === 'Network.c')!.content;
    expect(net).not.toContain('dpg_dma_box');
    expect(net).toMatch(/hal_fork\(8, L\d+_0, NULL\); \/\* Conv_0 \*\//);
    expect(errorsOf(g.code).errors).toBe(0);
  }, 600_000);
});
