// Strided convolutions as ResNets have them: a 1x1 stride-2 shortcut and a 3x3 stride-2 conv
// with padding 1, each one RequantizedConv on Siracusa, at channel counts that are not
// multiples of 4. Tiled (L1 sizes that cut them into tiles of few pixels) and untiled, on 1
// and 8 cores, the code must build and give Errors 0 on the host (DMA deferred to the wait)
// and on the simulator: the tiler plans exactly the im2col scratch the kernel uses.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { GraphBuilder } from '../../../scripts/models/builder';
import { int64Npz } from '../../../scripts/models/generate';
import { conv } from '../../../scripts/models/layers';
import { writeOnnx } from '../onnx/write';
import { DEFAULT_CONFIG, type Config } from '../config';
import { buildAndRunHost } from '../../sim/run/host';
import { runOnSimulator } from '../../sim/run/simulate';
import { loadFolder, planAndGenerate } from '../../testing/tiled-harness';
import { HOST_CC, SIRACUSA_TOOLCHAIN, missing } from '../../testing/requires';

/** A test folder holding one strided conv (+ its RequantShift) on a C x H x W int8 picture. */
function stridedConv(kernel: number, C: number, M: number, H: number, W: number): string {
  const b = new GraphBuilder(`conv${kernel}x${kernel}s2_c${C}`, 7);
  const rng = b.rng('x');
  const x = b.input('x', { shape: [1, C, H, W], data: Float64Array.from({ length: C * H * W }, () => rng.int(-128, 127)) });
  b.output(conv(b, 'layer', x, M, { kernel, stride: 2 }));
  const dir = join(tmpdir(), 'dpg-strided-conv', `${b.name}_m${M}_${H}x${W}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'network.onnx'), writeOnnx(b.graph()));
  writeFileSync(join(dir, 'inputs.npz'), int64Npz([{ name: 'x', value: b.inputValues[0] }]));
  writeFileSync(join(dir, 'outputs.npz'), int64Npz(b.outputs.map((o, i) => ({ name: o.name, value: b.outputValues()[i] }))));
  return dir;
}

const CASES: [kernel: number, C: number, M: number, H: number, W: number][] = [
  [1, 3, 8, 17, 17], [1, 6, 12, 12, 12], [1, 16, 32, 8, 8], [1, 18, 20, 7, 10],
  [3, 3, 8, 17, 17], [3, 6, 12, 12, 12], [3, 16, 32, 8, 8], [3, 18, 20, 7, 10],
];
/** [tiled, l1, cores, double buffering] */
const CONFIGS: [boolean, number, number, boolean][] = [
  [false, 64000, 1, false], [false, 64000, 8, false],
  [true, 400, 8, false], [true, 700, 8, true], [true, 1000, 1, false], [true, 1500, 8, false], [true, 2500, 8, true], [true, 64000, 8, false],
];


/** The program for a configuration, or null when the plan says the layer does not fit that L1. */
async function generate(dir: string, [tiled, l1, cores, doubleBuffer]: (typeof CONFIGS)[number]) {
  const f = loadFolder(dir, { ...DEFAULT_CONFIG, platform: 'siracusa' });
  const c: Partial<Config> = { platform: 'siracusa', tiled, l1, cores, doubleBuffer };
  try {
    return { f, ...(await planAndGenerate(f, c)) };
  } catch (e) {
    if (e instanceof PlaygroundError && e.data.code === 'does-not-fit') return null;
    throw e;
  }
}

describe.skipIf(missing(HOST_CC))('strided RequantizedConv on the host', () => {
  for (const cs of CASES) {
    it(`${cs[0]}x${cs[0]} stride 2, C ${cs[1]}, M ${cs[2]}, ${cs[3]}x${cs[4]}`, async () => {
      const dir = stridedConv(...cs);
      let tiledRuns = 0;
      for (const config of CONFIGS) {
        const g = await generate(dir, config);
        if (!g) continue;
        const { f, plan, code } = g;
        expect(Object.values(f.lower.bindings).map((b) => b.kernel).filter((k) => k.includes('Conv'))).toEqual(['RequantizedConv2d_HWC_s8_s8']);
        if (plan.tilings.some((t) => t.tiles > 1)) tiledRuns++;
        const r = buildAndRunHost(code, { defines: ['HAL_HOST_DEFERRED_DMA'] });
        expect(r.stdout, config.join(' ')).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      }
      expect(tiledRuns).toBeGreaterThanOrEqual(3);
    }, 600_000);
  }
});

describe.skipIf(missing(SIRACUSA_TOOLCHAIN))('strided RequantizedConv on the simulator', () => {
  for (const cs of CASES.filter((_, i) => i % 2 === 1)) {
    it(`${cs[0]}x${cs[0]} stride 2, C ${cs[1]}, M ${cs[2]}, ${cs[3]}x${cs[4]}`, async () => {
      const dir = stridedConv(...cs);
      for (const config of CONFIGS.filter((c) => c[0] && c[2] === 8)) {
        const g = await generate(dir, config);
        if (!g) continue;
        const { code, config: full } = g;
        const r = await runOnSimulator(code, full);
        expect(r.stdout, config.join(' ')).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      }
    }, 600_000);
  }
});
