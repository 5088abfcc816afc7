// The tiler's cost model against the simulator (issue 19): the fit recovers known costs, and the
// tiler's estimate of every layer of microLlama64_parallel and miniMobileNetv2, at L1 8000 and
// 64000 on 8 cores, is within 20 % of the cycles the simulator measures for it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import { nodeMachine } from '../sim/node';
import { loadTestCase, SHARED_TESTS } from '../testing/corpus';
import { missing, SHARED_TESTS as NEED_SHARED } from '../testing/requires';
import { fitCommandCycles, fitKernel, sampleLayers, worstLayer, type LayerSample } from './cost-fit';

const sample = (tiles: number, coreWork: number, cycles: number, extra: Partial<LayerSample> = {}): LayerSample => ({
  node: `n${tiles}x${coreWork}`, op: 'Add', kernel: 'k', engine: 'cluster', tiles, coreWork, bytesMoved: 0, transfers: 0,
  measured: cycles, dma: 0, estimate: cycles, ...extra,
});

describe('fitting a kernel family', () => {
  it('recovers the cycles per tile and per unit of work that made the samples', () => {
    const s = [[1, 1000], [4, 1000], [16, 4000], [2, 64000], [64, 8000]].map(([t, u]) => sample(t, u, 300 * t + 1.5 * u));
    expect(fitKernel(s, 0)).toEqual({ perTile: 300, perWork: 1.5, samples: 5 });
  });

  it('takes the DMA model out first: bytes at 8 per cycle and the fitted cycles per command', () => {
    const s = [[1, 1000, 4096, 2], [8, 9000, 40960, 24], [3, 500, 1000, 6]].map(([t, u, b, c]) =>
      sample(t, u, 200 * t + 2 * u + b / 8 + 50 * c, { bytesMoved: b, transfers: c, dma: b / 8 + 50 * c }));
    expect(fitCommandCycles(s)).toBeCloseTo(50, 6);
    expect(fitKernel(s, 50)).toEqual({ perTile: 200, perWork: 2, samples: 3 });
  });

  it('never returns a negative cost: a family whose best line has one keeps the better single term', () => {
    const s = [sample(1, 100, 1000), sample(1, 1000, 900), sample(10, 5000, 4000)];
    const f = fitKernel(s, 0);
    expect(f.perTile).toBeGreaterThanOrEqual(0);
    expect(f.perWork).toBeGreaterThanOrEqual(0);
  });

  it('names the layer whose measured / estimated cycles are furthest from 1, either way', () => {
    const w = worstLayer([sample(1, 1, 100, { estimate: 90 }), sample(2, 1, 100, { estimate: 160 }), sample(3, 1, 100, { estimate: 100 })]);
    expect(w!.sample.tiles).toBe(2);
    expect(w!.ratio).toBeCloseTo(100 / 160, 9);
  });
});

const NETWORKS = ['Models/microLlama/INT8/microLlama64_parallel', 'Models/miniMobileNetv2'];
const AIM = 0.2;

describe.skipIf(missing(NEED_SHARED))('the tiler\'s estimates against the simulator', () => {
  for (const net of NETWORKS) {
    for (const l1 of [8000, 64000]) {
      it(`${net}, L1 ${l1}, 8 cores: every layer's estimate within 20 % of its measured cycles`, async () => {
        const t = loadTestCase(join(fileURLToPath(SHARED_TESTS), net));
        const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', cores: 8, tiled: true, l1 };
        const machine = await nodeMachine();
        const samples = await sampleLayers({ model: t.onnx, modelName: `${net}/network.onnx`, inputs: t.inputs, outputs: t.outputs }, config, async () => machine);
        expect(samples.length).toBeGreaterThan(5);
        const w = worstLayer(samples)!;
        console.log(`${net} L1 ${l1}: ${samples.length} layers; worst: ${w.sample.node} (${w.sample.kernel}, ${w.sample.tiles} tiles) ` +
          `measured ${w.sample.measured} cycles, estimated ${w.sample.estimate} (${w.ratio.toFixed(2)}x)`);
        const off = samples.filter((s) => Math.abs(s.estimate - s.measured) > AIM * s.measured)
          .map((s) => `${s.node} (${s.kernel}): measured ${s.measured}, estimated ${s.estimate}`);
        expect(off).toEqual([]);
      }, 600_000);
    }
  }
});
