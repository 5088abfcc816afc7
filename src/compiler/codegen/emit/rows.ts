// Row-wise layers over the last axis (iRMSNorm, iLayerNorm, iSoftmax, ITAMax, ITAPartialMax),
// iNoNorm, and reductions.
import { fail } from '../../../common/errors';
import { levelsRange, shiftOfDiv } from '../../ops/core/requant';
import { stridesOf } from '../../ops/core/tensor';
import { reducedAxes } from '../../ops/reduce';
import { paramInit, walkDecl } from '../layout';
import { constInput, input, int32Attr, need8, noOffsets, numelOf, signedFlag, tag } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';

/** x (8-bit), y (8-bit), the row length L and the row count. */
function rows(l: LayerSpec) {
  noOffsets(l);
  const x = input(l, 0, 'input'), y = l.outs[0];
  need8(l, x, 'input');
  need8(l, y, 'output');
  const L = x.shape[x.shape.length - 1] ?? 1;
  return { x, y, L, rows: numelOf(x.shape) / Math.max(1, L) };
}

const u8 = (out: EmitSink, t: { name: string } & Parameters<EmitSink['data']>[0], cast = 'const uint8_t *') => `(${cast})${out.data(t)}`;

/** A per-column row parameter as an int32 constant and its length (1 or L). */
function rowParam(l: LayerSpec, out: EmitSink, i: number, what: string): string {
  const t = constInput(l, i, what);
  return `${out.constant(t.values, 'int32', t.name, l.where)}, ${t.values.length}`;
}

const a = (l: LayerSpec) => l.attrs as Record<string, number>;

const rmsNorm: Emitter = {
  family: /^iRMSNorm_/,
  offsets: 'none',
  emit(l, out) {
    const r = rows(l);
    const [lo, hi] = levelsRange(a(l).n_levels, true, l.where);
    out.step(`dpg_irmsnorm(${u8(out, r.x)}, ${signedFlag(r.x)}, ${rowParam(l, out, 1, 'weight')}, ${u8(out, r.y, 'uint8_t *')}, ` +
      `${r.rows}, ${r.L}, ${shiftOfDiv(a(l).D, l.where, 'D')}, ${lo}, ${hi});`);
  },
};

const layerNorm: Emitter = {
  family: /^iLayerNorm_/,
  offsets: 'none',
  emit(l, out) {
    const r = rows(l);
    const [lo, hi] = levelsRange(a(l).n_levels, true, l.where);
    out.step(`dpg_ilayernorm(${u8(out, r.x)}, ${signedFlag(r.x)}, ${rowParam(l, out, 1, 'weight')}, ${rowParam(l, out, 2, 'bias')}, ` +
      `${u8(out, r.y, 'uint8_t *')}, ${r.rows}, ${r.L}, ${int32Attr(l, 'D')}, ${lo}, ${hi});`);
  },
};

const noNorm: Emitter = {
  family: /^iNoNorm_/,
  offsets: 'none',
  emit(l, out) {
    const r = rows(l);
    const [lo, hi] = levelsRange(a(l).n_levels, true, l.where);
    const w = paramInit(out, input(l, 1, 'weights'), r.x.shape, 'weights', l.where);
    const b = paramInit(out, input(l, 2, 'bias'), r.x.shape, 'bias', l.where);
    out.step(`dpg_inonorm(${u8(out, r.x)}, ${signedFlag(r.x)}, (dpg_param_t)${w}, (dpg_param_t)${b}, ${int32Attr(l, 'mul')}, ` +
      `${shiftOfDiv(a(l).D, l.where, 'D')}, ${u8(out, r.y, 'uint8_t *')}, ${numelOf(r.x.shape)}, ${lo}, ${hi});`);
  },
};

const softmax: Emitter = {
  family: /^iSoftmax_/,
  offsets: 'none',
  emit(l, out) {
    const r = rows(l);
    out.step(`dpg_isoftmax(${u8(out, r.x)}, ${signedFlag(r.x)}, ${u8(out, r.y, 'uint8_t *')}, ${r.rows}, ${r.L}, ` +
      `${['coeffA', 'coeffB', 'coeffC', 'log2', 'n_levels'].map((k) => int32Attr(l, k)).join(', ')});`);
  },
};

const itaMax: Emitter = {
  family: /^ITA(Partial)?Max_/,
  offsets: 'none',
  emit(l, out) {
    const r = rows(l), partial = l.node.op === 'ITAPartialMax';
    const gw = partial ? int32Attr(l, 'group_width') : r.L;
    out.step(`dpg_itamax(${u8(out, r.x)}, ${signedFlag(r.x)}, ${u8(out, r.y, 'uint8_t *')}, ${r.rows}, ${r.L}, ${gw}, ${int32Attr(l, 'n_levels')}, ${partial ? 1 : 0});`);
  },
};

const reduce: Emitter = {
  family: /^(ReduceMean_|ReduceSum_)/,
  offsets: 'none',
  emit(l, out) {
    noOffsets(l);
    const x = input(l, 0, 'input'), y = l.outs[0];
    const axesIn = l.ins[1]?.values ? Array.from(l.ins[1].values) : undefined;
    if (l.ins[1] && !axesIn) fail('not-implemented', 'its axes are not a constant', l.where);
    const axes = reducedAxes(x.shape.length, l.attrs as never, axesIn, l.where);
    const st = stridesOf(x.shape);
    const dims = x.shape.map((_, i) => i);
    const kept = dims.filter((i) => !axes.includes(i)), red = dims.filter((i) => axes.includes(i));
    out.decl(walkDecl(`${l.id}_kept`, { shape: kept.map((i) => x.shape[i]), strides: [kept.map((i) => st[i])] }, l.where));
    out.decl(walkDecl(`${l.id}_red`, { shape: red.map((i) => x.shape[i]), strides: [red.map((i) => st[i])] }, l.where));
    const mean = l.node.op === 'ReduceSum' ? 0 : 1;
    out.step(`dpg_reduce(${out.data(x)}, ${tag(x)}, ${out.data(y)}, ${tag(y)}, &${l.id}_kept, &${l.id}_red, ${mean});`);
  },
};

export const rowEmitters: Emitter[] = [rmsNorm, layerNorm, noNorm, softmax, itaMax, reduce];
