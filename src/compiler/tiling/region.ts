// A rectangular part of a tensor: a start and a size per dimension. Tiles are regions of a
// layer's output; the tiling rules map an output region to the input regions it needs.

export interface Region {
  start: number[];
  size: number[];
}

export const whole = (shape: readonly number[]): Region => ({ start: shape.map(() => 0), size: [...shape] });

export const regionElems = (r: Region): number => r.size.reduce((a, b) => a * b, 1);

/** The tiles of `shape` cut in pieces of `tile` (the last piece of a dim may be smaller), in row-major order. */
export function tileCounts(shape: readonly number[], tile: readonly number[]): number[] {
  return shape.map((d, i) => Math.ceil(d / tile[i]));
}

/** Output region of tile number `index` (row-major over tileCounts). */
export function tileRegion(shape: readonly number[], tile: readonly number[], index: number): Region {
  const counts = tileCounts(shape, tile);
  const start: number[] = new Array(shape.length);
  const size: number[] = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    const i = index % counts[d];
    index = Math.floor(index / counts[d]);
    start[d] = i * tile[d];
    size[d] = Math.min(tile[d], shape[d] - start[d]);
  }
  return { start, size };
}

/** Clips [start, start+size) to [0, limit). */
export function clip(start: number, size: number, limit: number): [number, number] {
  const s = Math.max(0, start), e = Math.min(limit, start + size);
  return [s, Math.max(0, e - s)];
}
