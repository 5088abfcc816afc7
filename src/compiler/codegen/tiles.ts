// The tiles of a tiled layer as the kernels see them. Tile i reads the regions the plan lists
// for it (LayerTiling.regions, from the op's tiling rule); the kernel runs on
// tile-local shapes: constants sliced to their region, and a window's (conv, pool, pad) halo
// rows and columns that fall outside the input become the tile's own padding. Tiles whose
// kernel call is the same (same shapes, pads and constant slices) share one "class": one set
// of fork bodies serves them all, so the code grows with the classes, not the tiles.
import { fail } from '../../common/errors';
import { numel, stridesOf } from '../ops/core/tensor';
import { windowGeometry, type WindowAttrs } from '../ops/core/window';
import { opFor } from '../ops';
import { padSpec, type PadAttrs } from '../ops/shape-ops';
import type { LayerTiling, Region } from '../tiling/types';
import type { LayerSpec } from './emit/types';
import type { TensorInfo } from './tensors';

export interface TileClass {
  /** The tile-local layer: shapes, sliced constants, per-tile pads. */
  spec: LayerSpec;
  /** Position in the tiling's tensors of each tile-local TensorInfo (inputs and output). */
  tensorOf: Map<TensorInfo, number>;
  /** Work of one tile of this class (MACs or elements), for --profileTiling. */
  ops: number;
  /** For the comment above its code, e.g. "out [1,4,8,32], pads t1 b0 l1 r0". */
  label: string;
}

export interface LayerTiles {
  /** Per tile: the region of every tensor of the tiling (outputs: the output tile) and its class. */
  tiles: { regions: Region[]; cls: number }[];
  classes: TileClass[];
}

export function layerTiles(p: LayerTiling, full: LayerSpec): LayerTiles {
  const tiles: LayerTiles['tiles'] = [];
  const classes: TileClass[] = [];
  const keys = new Map<string, number>();
  const kOut = p.tensors.findIndex((x) => x.role === 'output');
  for (const regions of p.regions) {
    const o = regions[kOut];
    const local = tileSpec(p, full, regions, o, classes.length);
    const key = JSON.stringify([regions.map((r, k) => (isConst(full, p, k) ? r : r.size)), local.pads]);
    let cls = keys.get(key);
    if (cls === undefined) {
      cls = classes.length;
      keys.set(key, cls);
      classes.push(local.cls);
    }
    tiles.push({ regions, cls });
  }
  return { tiles, classes };
}

const isConst = (full: LayerSpec, p: LayerTiling, k: number) => {
  const t = p.tensors[k];
  return t.role !== 'output' && !!full.ins[t.index]?.constant;
};

const whole = (r: Region, shape: readonly number[]) => r.start.every((s) => s === 0) && r.size.every((n, d) => n === shape[d]);

/** The values of a row-major box of a tensor. */
export function sliceBox(values: ArrayLike<number>, shape: readonly number[], r: Region): Float64Array {
  const out = new Float64Array(numel(r.size));
  const st = stridesOf(shape);
  const rank = shape.length;
  const idx = new Array<number>(rank).fill(0);
  for (let i = 0; i < out.length; i++) {
    let off = 0;
    for (let d = 0; d < rank; d++) off += (r.start[d] + idx[d]) * st[d];
    out[i] = values[off];
    for (let d = rank - 1; d >= 0 && ++idx[d] === r.size[d]; d--) idx[d] = 0;
  }
  return out;
}

function tileSpec(p: LayerTiling, full: LayerSpec, regions: Region[], o: Region, n: number): { cls: TileClass; pads: number[] | null } {
  const tensorOf = new Map<TensorInfo, number>();
  const local = (t: TensorInfo, k: number): TensorInfo => {
    const r = regions[k];
    const info: TensorInfo = whole(r, t.shape) ? { ...t } : {
      ...t, shape: [...r.size],
      // A sliced constant is a constant of its own (the name keys the weights file).
      ...(t.constant && t.values ? { values: sliceBox(t.values, t.shape, r), name: `${t.name}_${r.start.join('_')}_${r.size.join('x')}` } : {}),
    };
    tensorOf.set(info, k);
    return info;
  };
  const ins = full.ins.map((t, j) => {
    const k = p.tensors.findIndex((x) => x.role !== 'output' && x.index === j);
    return t && k >= 0 ? local(t, k) : t;
  });
  const kOut = p.tensors.findIndex((x) => x.role === 'output');
  const outs = [local(full.outs[0], kOut)];
  let attrs = full.attrs, pads: number[] | null = null;
  const win = windowPads(p, full, regions, o);
  if (win) {
    pads = win.pads;
    attrs = { ...attrs, pads, auto_pad: 'NOTSET', ceil_mode: 0, ...(win.group ? { group: win.group } : {}) };
  } else if (p.ruleKind === 'pad') {
    pads = padPads(p, full, regions, o);
    attrs = { ...attrs, pads };
    ins[1] = undefined; // the tile's pads replace the pads and axes inputs
    ins[3] = undefined;
  }
  const spec: LayerSpec = { ...full, id: `${full.id}_c${n}`, attrs, ins, outs };
  const entry = opFor(full.node);
  const ops = entry.work?.({ inputs: ins.map((t) => (t ? { dtype: 'int8', shape: t.shape } : undefined)), outputs: [{ dtype: 'int8', shape: outs[0].shape }], attrs: attrs as never })
    ?? numel(outs[0].shape);
  const label = `out [${o.size.join(',')}]${pads && pads.some((x) => x !== 0) ? `, pads ${pads.join(',')}` : ''}`;
  return { cls: { spec, tensorOf, ops, label }, pads };
}

/**
 * A channels-last conv or pool tile: the pads of its input tile (begin..., end... per spatial
 * dim, the op's attribute order), from the receptive field before clipping to the input; a
 * depthwise tile's group is its channel count.
 */
function windowPads(p: LayerTiling, full: LayerSpec, regions: Region[], o: Region): { pads: number[]; group?: number } | undefined {
  const pool = p.ruleKind === 'pool';
  if (!pool && p.ruleKind !== 'conv') return undefined;
  if ((full.attrs.channels_first ?? 1) !== 0) return undefined;
  const x = full.ins[0]!.shape, r = x.length - 2;
  const kShape = pool ? (full.attrs.kernel_shape as number[]) : full.ins[1]!.shape.slice(1, -1);
  const g = windowGeometry(x.slice(1, -1), kShape, full.attrs as unknown as WindowAttrs, full.where);
  const kx = p.tensors.findIndex((t) => t.role !== 'output' && t.index === 0);
  const inR = regions[kx];
  const begin: number[] = [], end: number[] = [];
  for (let d = 0; d < r; d++) {
    const j = 3 - r + d;
    const s = o.start[1 + d] * g.strides[j] - g.padBegin[j];
    const span = (o.size[1 + d] - 1) * g.strides[j] + (g.k[j] - 1) * g.dil[j] + 1;
    begin.push(inR.start[1 + d] - s);
    end.push(s + span - (inR.start[1 + d] + inR.size[1 + d]));
  }
  const pads = [...begin, ...end];
  // The tile-local geometry must give exactly the output tile.
  const tileWin = windowGeometry(inR.size.slice(1, -1), kShape, { ...(full.attrs as unknown as WindowAttrs), pads, auto_pad: 'NOTSET', ceil_mode: 0 }, full.where);
  if (tileWin.outS.slice(3 - r).join() !== o.size.slice(1, -1).join())
    fail('internal', `a tile's window geometry gives output ${tileWin.outS.slice(3 - r).join('x')}, not the tile's ${o.size.slice(1, -1).join('x')}`, full.where);
  if (pool) return { pads };
  const group = full.attrs.group as number, C = x[x.length - 1];
  if (group === 1) return { pads };
  if (group === C && C > 1) return { pads, group: inR.size[inR.size.length - 1] };
  if (o.size[o.size.length - 1] !== full.outs[0].shape[full.outs[0].shape.length - 1])
    fail('not-implemented', `a grouped conv (group ${group}) with its output channels cut into tiles`, full.where, 'the tiled kernels take dense or depthwise convs');
  return { pads };
}

/** A Pad tile: how much of the output tile lies before and after the input region it copies, in the attribute's order. */
function padPads(p: LayerTiling, full: LayerSpec, regions: Region[], o: Region): number[] {
  const x = full.ins[0]!;
  const rank = x.shape.length;
  const read = (i: number) => (full.ins[i]?.values ? Array.from(full.ins[i]!.values!) : undefined);
  const spec = padSpec(full.attrs as unknown as PadAttrs, rank, read, full.where);
  const kx = p.tensors.findIndex((t) => t.role !== 'output' && t.index === 0);
  const inR = regions[kx];
  const begin = inR.start.map((s, d) => s - (o.start[d] - spec.begin[d]));
  const end = inR.start.map((s, d) => o.start[d] - spec.begin[d] + o.size[d] - (s + inR.size[d]));
  if (!full.attrs.channels_first && rank >= 3) {
    // padSpec reads channels-last pads in [N, C, *S] order: put them back in that order.
    const order = [0, ...Array.from({ length: rank - 2 }, (_, i) => i + 2), 1];
    const b = new Array<number>(rank), e = new Array<number>(rank);
    order.forEach((a, j) => { b[a] = begin[j]; e[a] = end[j]; });
    return [...b, ...e];
  }
  return [...begin, ...end];
}
