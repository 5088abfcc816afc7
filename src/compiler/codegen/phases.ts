// What a line of the generated Network.c does for its layer, read from the code's own idioms
// (tiled-layer.ts, network.ts): issuing input transfers, waiting for one, running the kernel,
// issuing the output transfers, or the tile loop's bookkeeping. The profiler (src/sim/profile)
// attributes the controller's cycles on each line to that phase.

export type LinePhase = 'dma-in' | 'dma-wait' | 'kernel' | 'dma-out' | 'control';

/** The phase of one line of Network.c inside a layer's range. */
export function phaseOfLine(text: string): LinePhase {
  const t = text.replace(/\/\*.*?\*\//g, '').trim();
  if (/\bhal_l3_read\(/.test(t)) return 'dma-in';
  if (/\bhal_l3_write\(/.test(t)) return 'dma-out';
  // dpg_dma_box(..., dir): 1 writes the output home, 0 loads an input.
  if (/\bdpg_dma_box\(/.test(t)) return /,\s*1\)\)?;?$/.test(t) ? 'dma-out' : 'dma-in';
  // A box that is one command: hal_dma_in / _in_2d load, hal_dma_out / _out_2d write home.
  if (/\bhal_dma_out(_2d)?\(/.test(t)) return 'dma-out';
  if (/\bhal_dma_in(_2d)?\(/.test(t)) return 'dma-in';
  if (/\bL\d+_load\(/.test(t)) return 'dma-in';
  if (/\bhal_fork\(|\bL\d+_kernel\(|\bhal_neureka_|\bneureka_|\bdpg_[a-z0-9_]+\(/.test(t) && !/\bdpg_dma_wait\(/.test(t)) return 'kernel';
  if (/\bdpg_dma_wait\(/.test(t)) return 'dma-wait';
  return 'control';
}
