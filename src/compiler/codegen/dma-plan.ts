// The cluster DMA commands that move one tile box, computed at compile time. dpg_dma_box
// (kernels/tile.c) finds the same commands at run time from the tensor's dims and the box, with
// tables the controller reads from L2 at 15 cycles a word; a box that is one command (a
// contiguous run, or rows of equal runs at a fixed stride) is emitted as that command itself.

/** tile.c's DPG_DMA_MAX_BYTES: one command moves at most this many bytes per row group. */
export const DMA_MAX_BYTES = 65536;

/** One 2-D command: `rows` runs of `run` bytes, `stride` bytes apart at home from byte `home`; back to back in L1 from byte `l1`. */
export interface DmaCommand {
  home: number;
  l1: number;
  rows: number;
  run: number;
  stride: number;
}

/**
 * The commands dpg_dma_box issues for the box [start, start + size) of a row-major tensor of
 * `shape` with `elem`-byte elements, in its order (an empty box: none). The run is the dims
 * after the outermost cut one, the rows its dim before, and the dims further out a loop.
 */
export function boxCommands(shape: readonly number[], elem: number, start: readonly number[], size: readonly number[]): DmaCommand[] {
  const r = shape.length;
  if (r === 0) return [{ home: 0, l1: 0, rows: 1, run: elem, stride: elem }];
  let d = r - 1;
  while (d > 0 && size[d] === shape[d]) d--;
  const pitch: number[] = new Array(r);
  let p = elem;
  for (let k = r - 1; k >= 0; k--) { pitch[k] = p; p *= shape[k]; }
  let run = elem;
  for (let k = d; k < r; k++) run *= size[k];
  if (run === 0) return [];
  const rowDim = d - 1;
  const rows = rowDim >= 0 ? size[rowDim] : 1, stride = rowDim >= 0 ? pitch[rowDim] : run;
  if (rows === 0 || size.slice(0, Math.max(rowDim, 0)).some((s) => s === 0)) return [];
  let base = 0;
  for (let k = 0; k < r; k++) base += start[k] * pitch[k];
  const out: DmaCommand[] = [];
  const idx = new Array(Math.max(rowDim, 0)).fill(0);
  let l1 = 0;
  for (;;) {
    let off = base;
    for (let k = 0; k < rowDim; k++) off += idx[k] * pitch[k];
    if (run > DMA_MAX_BYTES) {
      for (let row = 0; row < rows; row++)
        for (let b = 0; b < run; b += DMA_MAX_BYTES) {
          const n = Math.min(run - b, DMA_MAX_BYTES);
          out.push({ home: off + row * stride + b, l1: l1 + row * run + b, rows: 1, run: n, stride: n });
        }
    } else {
      const per = Math.floor(DMA_MAX_BYTES / run);
      for (let row = 0; row < rows; row += per)
        out.push({ home: off + row * stride, l1: l1 + row * run, rows: Math.min(rows - row, per), run, stride });
    }
    l1 += rows * run;
    let k = rowDim - 1;
    while (k >= 0 && ++idx[k] === size[k]) idx[k--] = 0;
    if (k < 0) break;
  }
  return out;
}

/** How many commands boxCommands gives for a box of `size` (counted, not listed: the tiler's cost model). */
export function commandCount(shape: readonly number[], elem: number, size: readonly number[]): number {
  const r = shape.length;
  if (r === 0) return 1;
  let d = r - 1;
  while (d > 0 && size[d] === shape[d]) d--;
  let run = elem;
  for (let k = d; k < r; k++) run *= size[k];
  if (run === 0 || size.some((s) => s === 0)) return 0;
  const rows = d > 0 ? size[d - 1] : 1;
  let outer = 1;
  for (let k = 0; k < d - 1; k++) outer *= size[k];
  return outer * (run > DMA_MAX_BYTES ? rows * Math.ceil(run / DMA_MAX_BYTES) : Math.ceil(rows / Math.floor(DMA_MAX_BYTES / run)));
}

/** A single command as one run when its rows are back to back at home too (a 1-D transfer). */
export function asOneRun(c: DmaCommand): DmaCommand {
  return c.rows > 1 && c.stride === c.run && c.rows * c.run <= DMA_MAX_BYTES ? { ...c, rows: 1, run: c.rows * c.run, stride: c.rows * c.run } : c;
}
