// The tiler's cost model against the simulator (issue 19): the fit recovers known costs, and the
// tiler's estimates of microLlama64_parallel's and miniMobileNetv2's layers, at L1 8000 and 64000
// on 8 cores, against the cycles the simulator measures for them (see AIM below).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import { nodeMachine } from '../sim/node';
import { loadTestCase, SHARED_TESTS } from '../testing/corpus';
import { missing, SHARED_TESTS as NEED_SHARED } from '../testing/requires';
import { fitCommandCycles, fitKernel, sampleLayers, worstLayer, type LayerSample } from './cost-fit';

const sample = (tiles: number, coreWork: number, cycles: number, extra: Partial<LayerSample> = {}): LayerSample => ({
  node: `n${tiles}x${coreWork}`, op: 'Add', kernel: 'k', engine: 'cluster', tiles, coreWork, coreOutputs: coreWork, coreRows: 0, firstUse: false, bytesMoved: 0, transfers: 0,
  measured: cycles, dma: 0, estimate: cycles, ...extra,
});

describe('fitting a kernel family', () => {
  it('recovers the cycles per layer, per tile, per unit of work and per output that made the samples', () => {
    const s = [[1, 1000, 10], [4, 1000, 100], [16, 4000, 30], [2, 64000, 1000], [64, 8000, 64]].map(([t, u, o]) =>
      sample(t, u, 300 * t + 1.5 * u + 12 * o, { coreOutputs: o }));
    const withLayer = [[1, 1000, 10], [4, 1000, 100], [16, 4000, 30], [2, 64000, 1000], [64, 8000, 64], [3, 7, 900]].map(([t, u, o]) =>
      sample(t, u, 1000 + 300 * t + 1.5 * u + 12 * o, { coreOutputs: o }));
    expect(fitKernel(withLayer, 0)).toEqual({ perLayer: 1000, perTile: 300, perWork: 1.5, perOutput: 12, perRow: 0, perFirstUse: 0, samples: 6, outliers: 0 });
    expect(fitKernel(s, 0)).toEqual({ perLayer: 0, perTile: 300, perWork: 1.5, perOutput: 12, perRow: 0, perFirstUse: 0, samples: 5, outliers: 0 });
  });

  it('keeps to fewer terms when the samples cannot tell them apart (work = outputs, one shape)', () => {
    const s = [[1, 512], [2, 4096], [8, 64]].map(([t, u]) => sample(t, u, 200 * t + 3 * u));
    expect(fitKernel(s, 0)).toMatchObject({ perTile: 200 });
    const f = fitKernel(s, 0);
    expect(f.perWork === 0 || f.perOutput === 0).toBe(true);
    expect(f.perWork + f.perOutput).toBeCloseTo(3, 4);
    const one = fitKernel([sample(2, 100, 900), sample(2, 100, 900)], 0);
    expect([one.perLayer, one.perTile, one.perWork, one.perOutput, one.perRow, one.perFirstUse].filter((v) => v > 0)).toHaveLength(1);
  });

  it('takes the DMA model out first: bytes at 8 per cycle and the fitted cycles per command', () => {
    const s = [[1, 1000, 4096, 2], [8, 9000, 40960, 24], [3, 500, 1000, 6]].map(([t, u, b, c]) =>
      sample(t, u, 200 * t + 2 * u + b / 8 + 50 * c, { bytesMoved: b, transfers: c, dma: b / 8 + 50 * c }));
    expect(fitCommandCycles(s)).toBeCloseTo(50, 6);
    expect(fitKernel(s, 50)).toEqual({ perLayer: 0, perTile: 200, perWork: 2, perOutput: 0, perRow: 0, perFirstUse: 0, samples: 3, outliers: 0 });
  });

  it('leaves out a layer on another kernel path (off by more than 1.5x) and says so', () => {
    const s = [[1, 1000], [4, 1000], [16, 4000], [2, 64000], [64, 8000]].map(([t, u]) => sample(t, u, 300 * t + 1.5 * u));
    const slow = sample(3, 2000, 10 * (300 * 3 + 1.5 * 2000));
    expect(fitKernel([...s, slow], 0)).toEqual({ perLayer: 0, perTile: 300, perWork: 1.5, perOutput: 0, perRow: 0, perFirstUse: 0, samples: 5, outliers: 1 });
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
/** The aim: every layer's estimate within 20 % of its measured cycles. */
const AIM = 0.2;

describe.skipIf(missing(NEED_SHARED))('the tiler\'s estimates against the simulator', () => {
  for (const net of NETWORKS) {
    for (const l1 of [8000, 64000]) {
      it(`${net}, L1 ${l1}, 8 cores: the layers' estimates against their measured cycles`, async () => {
        const t = loadTestCase(join(fileURLToPath(SHARED_TESTS), net));
        const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', cores: 8, tiled: true, l1 };
        const machine = await nodeMachine();
        const samples = await sampleLayers({ model: t.onnx, modelName: `${net}/network.onnx`, inputs: t.inputs, outputs: t.outputs }, config, async () => machine);
        expect(samples.length).toBeGreaterThan(5);
        const w = worstLayer(samples)!;
        const off = samples.filter((s) => Math.abs(s.estimate - s.measured) > AIM * s.measured);
        console.log(`${net} L1 ${l1}: ${samples.length - off.length} of ${samples.length} layers within 20 %; worst: ${w.sample.node} ` +
          `(${w.sample.kernel}, ${w.sample.tiles} tiles) measured ${w.sample.measured} cycles, estimated ${w.sample.estimate} (${w.ratio.toFixed(2)}x)`);
        expect(off.map((s) => `${s.node} (${s.kernel}): measured ${s.measured}, estimated ${s.estimate}`)).toEqual([]);
      }, 600_000);
    }
  }
});
