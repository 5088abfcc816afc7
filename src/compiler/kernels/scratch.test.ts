import { describe, expect, it } from 'vitest';
import { busyCores, kernelScratch, tiledScratch } from './scratch';

/** dpg_chunk (dpg_kernels.h) run for every core: the highest core with items, plus one. */
function chunkedRows(n: number, cores: number): number {
  let rows = 0;
  for (let id = 0; id < cores; id++) {
    const per = Math.ceil(n / cores), lo = Math.min(id * per, n), hi = Math.min(lo + per, n);
    if (hi > lo) rows = id + 1;
  }
  return rows;
}

const IM2COL = 'RequantizedConv2d_HWC_s8_s8';

describe('kernel scratch', () => {
  it('busy cores are the rows dpg_chunk hands out, for every n and core count', () => {
    for (let cores = 1; cores <= 8; cores++)
      for (let n = 0; n <= 100; n++) expect(busyCores(n, cores), `${n} on ${cores}`).toBe(chunkedRows(n, cores));
  });

  it('im2col: word-rounded rows of KH*KW*C bytes, up to three per busy core (as many pixels as its share has) when rows are short, busy cores counted over (slot, channel group) units; other kernels none', () => {
    // 3x3 over 3 channels: rows of 28 B; 4 pixels keep 4 of 8 cores busy, one pixel each.
    expect(kernelScratch(IM2COL, { inputs: [[1, 9, 9, 3], [8, 3, 3, 3]], output: [1, 1, 4, 8] }, 8)).toBe(4 * 28);
    // A strided 1x1 shortcut over 18 channels: rows of 20 B; 9 pixels on 8 cores busy 5 with two each.
    expect(kernelScratch(IM2COL, { inputs: [[1, 6, 6, 18], [20, 1, 1, 18]], output: [1, 3, 3, 20] }, 8)).toBe(5 * 2 * 20);
    // On one core all 9 are its share: three rows (a 3 x 4 register block).
    expect(kernelScratch(IM2COL, { inputs: [[1, 6, 6, 18], [20, 1, 1, 18]], output: [1, 3, 3, 20] }, 1)).toBe(3 * 20);
    expect(kernelScratch(IM2COL, { inputs: [[1, 6, 6, 18], [20, 1, 1, 18]], output: [1, 1, 1, 20] }, 1)).toBe(20);
    // 3x3 over 16 channels: rows of 144 B (over 128) stay single even with two pixels a core.
    expect(kernelScratch(IM2COL, { inputs: [[1, 9, 9, 16], [8, 3, 3, 16]], output: [1, 4, 4, 8] }, 8)).toBe(8 * 144);
    // KeywordSpotting's first conv: 100 pixels, 64 channels: 34 slots of three x 4 channel groups over 8 cores, three rows each.
    expect(kernelScratch(IM2COL, { inputs: [[1, 48, 12, 1], [64, 10, 4, 1]], output: [1, 20, 5, 64] }, 8)).toBe(8 * 3 * 40);
    // 3 pixels of 64 channels: 12 (pixel, group) units keep 6 cores busy, not 3.
    expect(kernelScratch(IM2COL, { inputs: [[1, 5, 7, 3], [64, 3, 3, 3]], output: [1, 1, 3, 64] }, 8)).toBe(6 * 28);
    // 25 pixels of 8 channels: 9 slots of three busy 5 cores, but parameters not per channel split the 25 pixels over 7.
    expect(kernelScratch(IM2COL, { inputs: [[1, 27, 3, 3], [8, 3, 3, 3]], output: [1, 25, 1, 8] }, 8)).toBe(7 * 3 * 28);
    expect(kernelScratch('RequantizedPwConv2d_HWC_s8_s8', { inputs: [[1, 6, 6, 16], [16, 1, 1, 16]], output: [1, 6, 6, 16] }, 8)).toBe(0);
    expect(kernelScratch('RequantizedDWConv2d_HWC_s8_s8', { inputs: [[1, 6, 6, 16], [16, 3, 3, 1]], output: [1, 6, 6, 16] }, 8)).toBe(0);
  });

  it('a tiled layer reserves the most any of its tiles needs, edge tiles included', () => {
    const call = { inputs: [[1, 34, 2, 4], [8, 3, 3, 4]], output: [1, 17, 1, 8] };
    // Tiles of 9 rows: the first keeps 5 cores busy with two pixels each, the last (8 rows) all 8 with one.
    expect(tiledScratch(IM2COL, call, [1, 9, 1, 8], 8)).toBe(5 * 2 * 36);
    expect(kernelScratch(IM2COL, { ...call, output: [1, 9, 1, 8] }, 8)).toBe(5 * 2 * 36);
    expect(kernelScratch(IM2COL, { ...call, output: [1, 8, 1, 8] }, 8)).toBe(8 * 36);
    // Tiles of 3 rows: 3 busy cores in every tile (the last has 2).
    expect(tiledScratch(IM2COL, call, [1, 3, 1, 8], 8)).toBe(3 * 36);
    expect(tiledScratch('RequantizedDWConv2d_HWC_s8_s8', call, [1, 3, 1, 8], 8)).toBe(0);
  });
});
