// The phase of each generated Network.c line (what the profiler charges the controller's cycles
// on that line to): the idioms of tiled-layer.ts and network.ts, and every tiled layer of a real
// program has its input transfers, its kernel and its output transfer.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../config';
import { nodeMilp } from '../../pipeline/node/milp';
import { runPipeline } from '../../pipeline/run';
import type { CodegenResult } from './types';
import { phaseOfLine } from './phases';

describe('phaseOfLine', () => {
  it('reads the generated idioms', () => {
    expect(phaseOfLine('    dpg_dma_wait(L3_load(i, b));')).toBe('dma-in');
    expect(phaseOfLine('    if (i + 1 < 4) in = L3_load(i + 1, b ^ 1);  /* prefetch tile i + 1 while tile i computes */')).toBe('dma-in');
    expect(phaseOfLine('  id = dpg_dma_box(L0_input0_l1[b], DPG_AT(dpg_l2, 8), &L0_input0_dims, L0_input0_box[i][0], L0_input0_box[i][1], 0);')).toBe('dma-in');
    expect(phaseOfLine('    dpg_dma_wait(dpg_dma_box(L0_output2_l1[b], DPG_AT(dpg_l2, 6), &L0_output2_dims, L0_output2_box[i][0], L0_output2_box[i][1], 1));')).toBe('dma-out');
    expect(phaseOfLine('    out[b] = dpg_dma_box(L0_o_l1[b], DPG_AT(dpg_l2, 86), &L0_o_dims, L0_o_box[i][0], L0_o_box[i][1], 1);  /* leaves during tile i + 1\'s kernel */')).toBe('dma-out');
    // Boxes that are one command, constant or from a per-tile table.
    expect(phaseOfLine('  once = hal_dma_in(L0_input0_l1[0], DPG_AT(dpg_l2, 686048), 4096);')).toBe('dma-in');
    expect(phaseOfLine('  id = hal_dma_in_2d(L3_input0_l1[b], (uint8_t *)DPG_AT(dpg_l2, 8) + L3_input0_dma[i][0], L3_input0_dma[i][1], L3_input0_dma[i][2], L3_input0_dma[i][3]);')).toBe('dma-in');
    expect(phaseOfLine('    dpg_dma_wait(hal_dma_out(DPG_AT(dpg_l2, 677856), L0_output2_l1[b], 4096));')).toBe('dma-out');
    expect(phaseOfLine('    out[b] = hal_dma_out_2d((uint8_t *)DPG_AT(dpg_l2, 6) + L0_o_dma[i][0], L0_o_l1[b], L0_o_dma[i][1], L0_o_dma[i][2], L0_o_dma[i][3]);')).toBe('dma-out');
    expect(phaseOfLine('    dpg_dma_wait(in);                                /* tile i\'s inputs are in copy b */')).toBe('dma-wait');
    expect(phaseOfLine('    L0_kernel(cls);')).toBe('kernel');
    expect(phaseOfLine('    case 0: hal_fork(8, L0_c0_0, NULL); break;')).toBe('kernel');
    expect(phaseOfLine('  hal_fork(8, L5_0, NULL); /* conv */')).toBe('kernel');
    expect(phaseOfLine('  hal_l3_read(DPG_AT(dpg_l2, 0), DPG_AT(dpg_l3, 64), 128);')).toBe('dma-in');
    expect(phaseOfLine('  hal_l3_write(DPG_AT(dpg_l3, 64), DPG_AT(dpg_l2, 0), 128);')).toBe('dma-out');
    expect(phaseOfLine('  for (uint32_t i = 0; i < 4; i++) {')).toBe('control');
    expect(phaseOfLine('    L0_use(i, b);')).toBe('control');
  });

  for (const db of [false, true]) {
    it(`every tiled layer of mini-mobilenetv2 (L1 8000${db ? ', double-buffered' : ''}) has DMA in, kernel and DMA out lines`, async () => {
      const dir = new URL('../../../public/models/mini-mobilenetv2/', import.meta.url);
      const f = (n: string) => new Uint8Array(readFileSync(new URL(n, dir)));
      const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa', tiled: true, l1: 8000, doubleBuffer: db };
      let code: CodegenResult | undefined;
      await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config,
        (e) => { if (e.type === 'stage' && e.stage === 'codegen') code = e.result; }, { milp: nodeMilp, until: 'codegen' });
      const net = code!.files.find((x) => x.path === 'Network.c')!.content.split('\n');
      for (const l of code!.layers.filter((x) => x.estimate !== undefined)) {
        const phases = new Set(l.ranges.flatMap((r) => net.slice(r.from - 1, r.to).map(phaseOfLine)));
        for (const p of ['dma-in', 'kernel', 'dma-out'] as const) expect(phases, `${l.node}: ${p}`).toContain(p);
        if (db) expect(phases, l.node).toContain('dma-wait');
      }
    });
  }
});
