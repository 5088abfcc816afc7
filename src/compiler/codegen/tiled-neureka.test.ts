// Tiled N-EUREKA code: for every shared test folder and built-in model, the siracusa-neureka
// program from the memory plan (NPU layers as one task per tile, run by the controller between
// the tile's DMA in and out) gives Errors 0 on the host, the DMA deferred to the wait, at L1
// 8000 double-buffered on 8 cores, 64000 single-buffered on 1, and 8000 with the weights read
// in place from the weight memory (--neureka-wmem: a slice pointer per tile); configurations
// the plan says do not fit are skipped. Some NPU layers must really be cut into several tiles.
import { describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { DEFAULT_CONFIG, type Config } from '../config';
import { buildAndRunHost, crossCompile, RV32_FLAGS } from '../../sim/run/host';
import { codegenTestFolders } from '../../testing/test-folders';
import { loadFolder, planAndGenerate, type Folder } from '../../testing/tiled-harness';
import { CLANG_19, HOST_CC, SHARED_TESTS, missing } from '../../testing/requires';

const CONFIGS: [number, boolean, number, boolean][] = [[8000, true, 8, false], [64000, false, 1, false], [8000, false, 1, true]];
let npuLayers = 0;
const multiTile = [0, 0]; // without, with the weight memory

async function generated(f: Folder, c: Partial<Config>) {
  try {
    return await planAndGenerate(f, { platform: 'siracusa-neureka', tiled: true, ...c });
  } catch (e) {
    if (!(e instanceof PlaygroundError) || e.data.code !== 'does-not-fit') throw e;
    return null;
  }
}

describe.skipIf(missing(HOST_CC))('tiled siracusa-neureka code on the host, DMA deferred to the wait', () => {
  for (const { dir, name } of codegenTestFolders()) {
    it(name, async () => {
      const f = loadFolder(dir, { ...DEFAULT_CONFIG, platform: 'siracusa-neureka' });
      for (const [l1, doubleBuffer, cores, neurekaWmem] of CONFIGS) {
        const g = await generated(f, { l1, doubleBuffer, cores, neurekaWmem });
        if (!g) continue;
        const r = buildAndRunHost(g.code, { defines: ['HAL_HOST_DEFERRED_DMA'] });
        expect(r.stdout, `L1 ${l1}, ${doubleBuffer ? 'DB' : 'SB'}, ${cores} cores${neurekaWmem ? ', WMEM' : ''}`).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        for (const l of g.code.layers.filter((x) => x.engine === 'neureka')) {
          npuLayers++;
          const t = g.plan.tilings.find((x) => x.node === l.node);
          if (t && t.tiles > 1) multiTile[neurekaWmem ? 1 : 0]++;
        }
      }
    }, 600_000);
  }
  it('ran NPU layers, some of them in several tiles, with and without the weight memory', () => {
    expect(npuLayers).toBeGreaterThan(10);
    expect(multiTile[0]).toBeGreaterThan(0);
    expect(multiTile[1]).toBeGreaterThan(0);
  });
});

describe.skipIf(missing(CLANG_19))('siracusa-neureka C for RV32', () => {
  const mnv2 = codegenTestFolders().find((f) => f.name === 'Models/miniMobileNetv2');
  it.skipIf(missing(SHARED_TESTS))('compiles warning-free, plain and Xpulp, untiled and tiled with the weight memory', async () => {
    const f = loadFolder(mnv2!.dir, { ...DEFAULT_CONFIG, platform: 'siracusa-neureka' });
    for (const c of [{ tiled: false }, { tiled: true, neurekaWmem: true, l1: 8000 }]) {
      const { code } = await planAndGenerate(f, { platform: 'siracusa-neureka', ...c });
      expect(code.files.find((x) => x.path === 'Network.c')!.content).toContain('hal_neureka_commit();');
      crossCompile(code, RV32_FLAGS.rv32imc);
      crossCompile(code, RV32_FLAGS.xpulp);
    }
  }, 300_000);
});
