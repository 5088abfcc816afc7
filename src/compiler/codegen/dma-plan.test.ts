import { describe, expect, it } from 'vitest';
import { asOneRun, boxCommands, commandCount, DMA_MAX_BYTES, type DmaCommand } from './dma-plan';

/** A deterministic generator (xorshift). */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (lo: number, hi: number) => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return lo + (s % (hi - lo + 1));
  };
}

/** L1 after the commands move a tile out of `home` (byte i of home holds i & 255, plus one). */
function apply(cmds: DmaCommand[], homeBytes: number, l1Bytes: number): Uint8Array {
  const home = Uint8Array.from({ length: homeBytes }, (_, i) => (i & 255) + 1);
  const l1 = new Uint8Array(l1Bytes);
  for (const c of cmds)
    for (let r = 0; r < c.rows; r++) l1.set(home.subarray(c.home + r * c.stride, c.home + r * c.stride + c.run), c.l1 + r * c.run);
  return l1;
}

/** The box's bytes in row-major order, read element by element. */
function expected(shape: number[], elem: number, start: number[], size: number[]): Uint8Array {
  const out: number[] = [];
  const idx = size.map(() => 0);
  const total = size.reduce((a, b) => a * b, 1);
  for (let n = 0; n < total; n++) {
    let off = 0;
    for (let k = 0; k < shape.length; k++) off = off * shape[k] + start[k] + idx[k];
    for (let b = 0; b < elem; b++) out.push(((off * elem + b) & 255) + 1);
    for (let k = shape.length - 1; k >= 0 && ++idx[k] === size[k]; k--) idx[k] = 0;
  }
  return Uint8Array.from(out);
}

/** A random tensor (rank up to maxRank, dims up to maxDim, 1- 2- or 4-byte elements) and a box in it. */
function randomBox(r: ReturnType<typeof rng>, maxRank: number, maxDim: number) {
  const rank = r(1, maxRank), elem = [1, 2, 4][r(0, 2)];
  const shape = Array.from({ length: rank }, () => r(1, maxDim));
  const start = shape.map((d) => r(0, d - 1));
  const size = shape.map((d, k) => r(1, d - start[k]));
  return { shape, elem, start, size };
}

describe('DMA commands of a tile box (dpg_dma_box at compile time)', () => {
  it('move exactly the box, back to back in L1, for random tensors and boxes', () => {
    const r = rng(7);
    for (let it = 0; it < 2000; it++) {
      const { shape, elem, start, size } = randomBox(r, 4, 9);
      const cmds = boxCommands(shape, elem, start, size);
      const want = expected(shape, elem, start, size);
      expect(apply(cmds, shape.reduce((a, b) => a * b, elem), want.length), `${shape} ${start} ${size}`).toEqual(want);
      for (const c of cmds) expect(apply([asOneRun(c)], shape.reduce((a, b) => a * b, elem), want.length)).toEqual(apply([c], shape.reduce((a, b) => a * b, elem), want.length));
    }
  });

  it('a whole tensor or a cut of whole rows is one command; a box cut twice inside the rows is a loop', () => {
    expect(boxCommands([1, 64, 64], 1, [0, 0, 0], [1, 64, 64])).toEqual([{ home: 0, l1: 0, rows: 1, run: 4096, stride: 4096 }]);
    // Rows 8..15 of a [32, 40] int16 matrix: one contiguous run.
    expect(boxCommands([32, 40], 2, [8, 0], [8, 40])).toEqual([{ home: 640, l1: 0, rows: 1, run: 640, stride: 640 }]);
    // Columns 4..9 of every row: rows of 6 bytes at the row pitch.
    expect(boxCommands([5, 20], 1, [0, 4], [5, 6])).toEqual([{ home: 4, l1: 0, rows: 5, run: 6, stride: 20 }]);
    // A [2, 3, 4] box out of [4, 6, 8]: cut in the last two dims, so a 2-D command per outer index.
    expect(boxCommands([4, 6, 8], 1, [1, 2, 2], [2, 3, 4]).length).toBe(2);
    // Back-to-back rows are one run.
    expect(asOneRun({ home: 0, l1: 0, rows: 4, run: 16, stride: 16 })).toEqual({ home: 0, l1: 0, rows: 1, run: 64, stride: 64 });
  });

  it('splits rows beyond the command size limit like tile.c', () => {
    const cmds = boxCommands([3, DMA_MAX_BYTES + 100], 1, [0, 0], [3, DMA_MAX_BYTES + 100]);
    // One run of 3 * (64 KiB + 100) bytes is longer than a command: pieces of at most 64 KiB.
    expect(cmds.every((c) => c.rows * c.run <= DMA_MAX_BYTES)).toBe(true);
    expect(cmds.reduce((a, c) => a + c.rows * c.run, 0)).toBe(3 * (DMA_MAX_BYTES + 100));
  });

  it('counts the commands of a box as boxCommands lists them (the tiler\'s cost model counts, codegen lists)', () => {
    const r = rng(7);
    for (let i = 0; i < 500; i++) {
      const { shape, elem, start, size } = randomBox(r, 5, 12);
      expect(commandCount(shape, elem, size), `${shape} ${size}`).toBe(boxCommands(shape, elem, start, size).length);
    }
    expect(commandCount([3, DMA_MAX_BYTES + 100], 1, [3, DMA_MAX_BYTES + 100])).toBe(boxCommands([3, DMA_MAX_BYTES + 100], 1, [0, 0], [3, DMA_MAX_BYTES + 100]).length);
    expect(commandCount([20000, 16], 1, [20000, 8])).toBe(boxCommands([20000, 16], 1, [0, 0], [20000, 8]).length);
  });
});
