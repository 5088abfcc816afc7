// The scratch memory a library kernel touches, by the kernel a layer is bound to: the one
// source for it. The tiler reserves it in L1 for a layer's tiles (tiling/layer.ts), the
// emitters pass it to the kernel (codegen/emit/conv.ts), so the two cannot disagree.

/** dpg_rq_conv_hwc: the dense requantized conv that gathers each output pixel's window (im2col). */
export const IM2COL_KERNEL = /^RequantizedConv[12]d_HWC_/;

/** The shapes one kernel call sees: its inputs (undefined when omitted) and its output. */
export interface CallShapes {
  inputs: readonly (readonly number[] | undefined)[];
  output: readonly number[];
}

/**
 * Cores that get work when dpg_chunk splits n items over `cores` (ceil(n / cores) items each,
 * from core 0 up): cores 0 .. busyCores - 1. Not monotone in n: 9 items on 8 cores busy 5.
 */
export function busyCores(n: number, cores: number): number {
  if (n <= 0) return 0;
  return Math.ceil(n / Math.ceil(n / cores));
}

/** One im2col row in dpg_rq_conv_hwc: the window of KH*KW*C bytes, rounded up to a word. */
export const im2colRowBytes = (window: number) => (window + 3) & ~3;

/** Rows of at most this many bytes come up to IM2COL_ROWS at a time (dpg_rq_conv_hwc's CONV_SLOT_ROW, CONV_ROWS). */
export const IM2COL_SLOT_ROW = 128;
export const IM2COL_ROWS = 3;

/**
 * Rows per core in dpg_rq_conv_hwc: pixels up to three at a time (a 3 x 4 register block) when
 * the row is short, as many as a core's share of the pixels has (there the per-block set-up and
 * requant weigh most, and the extra rows cost little L1); one otherwise.
 */
export const im2colRowsPerCore = (pixels: number, cores: number, rowBytes: number) =>
  (rowBytes > IM2COL_SLOT_ROW ? 1 : Math.min(IM2COL_ROWS, Math.ceil(pixels / cores)));

/** dpg_rq_conv_hwc's windows of output channels (CONV_CHANNELS) and the groups in them the cores share (CONV_GROUP). */
export const IM2COL_CHANNELS = 64;
export const IM2COL_GROUP = 16;

/**
 * Cores dpg_rq_conv_hwc keeps busy: within each window of IM2COL_CHANNELS output channels, the
 * cores split (slot, group of IM2COL_GROUP channels) units with dpg_chunk, a slot being
 * rowsPerCore pixels; parameters laid out otherwise than per channel split the pixels
 * themselves. The most of those, since the scratch must serve every one.
 */
export function im2colBusyCores(pixels: number, channels: number, cores: number, rowsPerCore: number): number {
  const slots = Math.ceil(pixels / rowsPerCore);
  let busy = busyCores(pixels, cores);
  for (const window of new Set([Math.min(channels, IM2COL_CHANNELS), channels % IM2COL_CHANNELS || IM2COL_CHANNELS])) {
    if (window > channels) continue;
    busy = Math.max(busy, busyCores(slots * Math.ceil(window / IM2COL_GROUP), cores));
  }
  return busy;
}

/**
 * Bytes of scratch `kernel` touches in one call on `cores` cores; 0 for kernels that need none.
 * In dpg_rq_conv_hwc core i uses rows [i * r, (i + 1) * r) of the scratch (r =
 * im2colRowsPerCore), so a call needs r rows per busy core. Weights are [M, *k, C].
 */
export function kernelScratch(kernel: string, call: CallShapes, cores: number): number {
  if (!IM2COL_KERNEL.test(kernel)) return 0;
  const window = call.inputs[1]!.slice(1).reduce((a, b) => a * b, 1);
  const pixels = call.output.slice(0, -1).reduce((a, b) => a * b, 1);
  const channels = call.output[call.output.length - 1];
  const row = im2colRowBytes(window);
  const rows = im2colRowsPerCore(pixels, cores, row);
  return row * rows * im2colBusyCores(pixels, channels, cores, rows);
}

/**
 * The scratch of a layer whose output `call.output` is cut into tiles of `tile`: the most any
 * tile needs, the full ones and those cut short at the end of a dim (a kernel that splits a
 * tile's pixels over the cores may keep more cores busy in a smaller tile).
 */
export function tiledScratch(kernel: string, call: CallShapes, tile: readonly number[], cores: number): number {
  let shapes: number[][] = [[]];
  call.output.forEach((d, i) => {
    const full = Math.min(d, tile[i]);
    shapes = shapes.flatMap((s) => [...new Set([full, d % full || full])].map((n) => [...s, n]));
  });
  return Math.max(...shapes.map((output) => kernelScratch(kernel, { inputs: call.inputs, output }, cores)));
}
