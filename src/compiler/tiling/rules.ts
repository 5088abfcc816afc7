// Operator tiling constraints: which dimensions of a layer's output may be cut into tiles, and
// which part of each input a given output tile needs (conv rows with their halo, a GEMM's
// whole reduction dimension, a softmax's whole last axis, ...). One rule per op family; op
// registry entries point at theirs (OpEntry.tiling). Target constraints (kernel-friendly
// multiples, NPU subtiles) come from the kernel catalogue, and a kernel's scratch from
// kernels/scratch.ts, not from here.
import type { Node } from '../ir/graph';
import { windowGeometry, type WindowAttrs } from '../ops/core/window';
import { simplify } from '../codegen/layout';
import { stridesOf } from '../ops/core/tensor';
import { clip, whole, type Region } from './region';

/** What a rule sees of a node: its parsed attributes and static shapes. */
export interface TileView {
  node: Node;
  where: string;
  attrs: Record<string, unknown>;
  /** Input shapes; undefined for an omitted optional input. */
  inputs: (number[] | undefined)[];
  /** Shape of output 0 (the only output a tiled layer has). */
  output: number[];
  /** Integer values of a constant input (axes, pads), or undefined. */
  constant(i: number): number[] | undefined;
}

/** Which rule a layer was tiled by, as plain data (the plan carries it to codegen). */
export type RuleKind = 'elementwise' | 'rows' | 'whole' | 'conv' | 'pool' | 'gemm' | 'transpose' | 'concat' | 'pad' | 'reduce';

export interface TileRule {
  /** Name shown in the tiling table ("conv rows x channels", ...). */
  name: string;
  kind: RuleKind;
  /** Per output dimension: may it be cut? The others stay whole in every tile. */
  splittable(v: TileView): boolean[];
  /** The region of input `i` that the output region `out` needs. */
  inputRegion(v: TileView, i: number, out: Region): Region;
  /** Output dims the kernel spreads across the cores (their product bounds the useful cores). */
  parallel(v: TileView): number[];
  /** Per output dim, the multiple a cut tile size must be (a user op's constraint); 1 = any. */
  multiples?(v: TileView): number[];
  /** Per output dim, the smallest cut tile size (a user op's constraint); 1 = any. */
  minSizes?(v: TileView): number[];
  /** Output elements per row of the kernel's inner loop (the cost fit's rows); the output's last dim when absent. */
  rowElems?(v: TileView, tile: readonly number[]): number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** Two multiple-of constraints on a tile size hold together at their least common multiple. */
export const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

/** Numpy broadcasting from the right: a size-1 input dim reads element 0, others follow the output. */
function broadcastRegion(inShape: number[], out: Region): Region {
  const off = out.start.length - inShape.length;
  return {
    start: inShape.map((d, j) => (d === 1 ? 0 : out.start[j + off])),
    size: inShape.map((d, j) => (d === 1 ? 1 : out.size[j + off])),
  };
}

const allDims = (v: TileView) => v.output.map((_, i) => i);
const leading = (v: TileView) => v.output.map((_, i) => i).slice(0, -1);

/** Elementwise ops (Add, RequantShift, activations, ...): any tile; inputs broadcast. */
export const elementwiseRule: TileRule = {
  name: 'elementwise',
  kind: 'elementwise',
  splittable: (v) => v.output.map(() => true),
  inputRegion: (v, i, out) => broadcastRegion(v.inputs[i]!, out),
  parallel: allDims,
};

/** Normalisations over the last axis (softmax, RMSNorm, LayerNorm): rows may be cut, a row never. */
export const lastAxisRule: TileRule = {
  name: 'rows (last axis whole)',
  kind: 'rows',
  splittable: (v) => v.output.map((_, i) => i < v.output.length - 1),
  inputRegion: (v, i, out) => broadcastRegion(v.inputs[i]!, out),
  parallel: leading,
};

/** A layer that runs as one piece (no rule known for it, or ops whose inputs are irregular). */
export const wholeRule: TileRule = {
  name: 'whole',
  kind: 'whole',
  splittable: (v) => v.output.map(() => false),
  inputRegion: (v, i) => whole(v.inputs[i]!),
  parallel: allDims,
};

/**
 * Convolutions and pooling in channels-last layout (x[N, *S, C], y[N, *O, M]): output rows,
 * columns and channels may be cut; an input tile is the output tile's receptive field (with
 * halo, clipped at the border), all input channels (depthwise and pooling: the same channels).
 * Channels-first convolutions (Generic platform, never tiled) run whole.
 */
function windowRule(pool: boolean): TileRule {
  const geometry = (v: TileView) => {
    const x = v.inputs[0]!;
    const spatial = x.slice(1, -1);
    const k = pool ? (v.attrs.kernel_shape as number[]) : v.inputs[1]!.slice(1, -1);
    return windowGeometry(spatial, k, v.attrs as unknown as WindowAttrs, v.where);
  };
  const channelsFirst = (v: TileView) => (v.attrs.channels_first ?? 1) !== 0;
  const depthwise = (v: TileView) => pool || ((v.attrs.group as number) > 1 && v.attrs.group === v.inputs[0]![v.inputs[0]!.length - 1]);
  return {
    name: pool ? 'pool rows x cols x channels' : 'conv rows x cols x out-channels',
    kind: pool ? 'pool' : 'conv',
    splittable: (v) => (channelsFirst(v) ? v.output.map(() => false) : v.output.map((_, i) => i > 0)),
    inputRegion: (v, i, out) => {
      const shape = v.inputs[i]!;
      if (channelsFirst(v)) return whole(shape);
      const r = v.output.length - 2, M = r + 1;
      if (i === 0) {
        const g = geometry(v);
        const start = [out.start[0]], size = [out.size[0]];
        for (let d = 0; d < r; d++) {
          const j = 3 - r + d; // window dims are padded on the left to 3
          const s = out.start[1 + d] * g.strides[j] - g.padBegin[j];
          const n = (out.size[1 + d] - 1) * g.strides[j] + (g.k[j] - 1) * g.dil[j] + 1;
          const [cs, cn] = clip(s, n, shape[1 + d]);
          start.push(cs); size.push(cn);
        }
        if (depthwise(v)) { start.push(out.start[M]); size.push(out.size[M]); } else { start.push(0); size.push(shape[M]); }
        return { start, size };
      }
      // Weights [M, *k, C/g] and per-channel vectors [M] follow the output channels.
      if (shape.length >= 1 && shape[0] === v.output[M] && (i === 1 || shape.length === 1))
        return { start: [out.start[M], ...shape.slice(1).map(() => 0)], size: [out.size[M], ...shape.slice(1)] };
      return whole(shape);
    },
    parallel: (v) => (channelsFirst(v) ? [] : v.output.map((_, i) => i).slice(1, -1)),
  };
}
export const convRule = windowRule(false);
export const poolRule = windowRule(true);

/**
 * Gemm / MatMul / RequantizedGemm, batched: y[..., M, N] = A[..., M, K] B[..., K, N] (with
 * transA / transB). Batch, M and N may be cut; the reduction dimension K stays whole, so a
 * tile's accumulation is complete and requantisation happens once.
 */
export const gemmRule: TileRule = {
  name: 'gemm batch x M x N (K whole)',
  kind: 'gemm',
  splittable: (v) => v.output.map(() => true),
  inputRegion: (v, i, out) => {
    const shape = v.inputs[i]!;
    const r = out.start.length;
    if (i === 0 || i === 1) {
      if (shape.length === 1) return whole(shape); // a vector operand is all K
      const last = shape.length - 1;
      // A is [.., M, K] ([.., K, M] transposed); B is [.., K, N] ([.., N, K] transposed).
      const trans = !!(i === 0 ? v.attrs.transA : v.attrs.transB);
      const keptDim = i === 0 ? (trans ? last : last - 1) : (trans ? last - 1 : last);
      const kDim = keptDim === last ? last - 1 : last;
      const batch = broadcastRegion(shape.slice(0, -2), { start: out.start.slice(0, r - 2), size: out.size.slice(0, r - 2) });
      const start = [...batch.start, 0, 0], size = [...batch.size, 0, 0];
      const kept = i === 0 ? r - 2 : r - 1; // A follows the output's M, B its N
      start[keptDim] = out.start[kept]; size[keptDim] = out.size[kept];
      start[kDim] = 0; size[kDim] = shape[kDim];
      return { start, size };
    }
    return broadcastRegion(shape, out); // bias C, mul: broadcast against the output
  },
  parallel: (v) => v.output.map((_, i) => i).slice(0, -1),
};

/** Transpose: an output tile reads the permuted region of the input. */
export const transposeRule: TileRule = {
  name: 'transpose (permuted region)',
  kind: 'transpose',
  splittable: (v) => v.output.map(() => true),
  inputRegion: (v, i, out) => {
    if (i !== 0) return whole(v.inputs[i]!);
    const perm = (v.attrs.perm as number[] | undefined) ?? v.output.map((_, j) => v.output.length - 1 - j);
    const start = new Array<number>(perm.length), size = new Array<number>(perm.length);
    perm.forEach((p, j) => { start[p] = out.start[j]; size[p] = out.size[j]; });
    return { start, size };
  },
  parallel: allDims,
  // The copy kernel (dpg_copy_nd) takes a block of its walk's two innermost dims at a time, the
  // walk being the tile's dims with the two buffers' strides, size-1 and contiguous dims merged.
  rowElems: (v, tile) => {
    const perm = (v.attrs.perm as number[] | undefined) ?? tile.map((_, j) => tile.length - 1 - j);
    const inTile = new Array<number>(tile.length);
    perm.forEach((p, j) => { inTile[p] = tile[j]; });
    const src = stridesOf(inTile);
    const w = simplify({ shape: [...tile], strides: [stridesOf([...tile]), perm.map((p) => src[p])] });
    return w.shape.slice(-2).reduce((a, b) => a * b, 1);
  },
};

/** Concat: cut along every axis but the concatenation axis. */
export const concatRule: TileRule = {
  name: 'concat (axis whole)',
  kind: 'concat',
  splittable: (v) => {
    const r = v.output.length, a = v.attrs.axis as number;
    const axis = a < 0 ? a + r : a;
    return v.output.map((_, i) => i !== axis);
  },
  inputRegion: (v, i, out) => {
    const r = v.output.length, a = v.attrs.axis as number;
    const axis = a < 0 ? a + r : a;
    const shape = v.inputs[i]!;
    return { start: out.start.map((s, d) => (d === axis ? 0 : s)), size: out.size.map((s, d) => (d === axis ? shape[d] : s)) };
  },
  parallel: allDims,
};
