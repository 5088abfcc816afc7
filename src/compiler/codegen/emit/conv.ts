// Convolutions and pooling: Conv / DWConv (int32 result, any layout), the cluster's
// requantized HWC convs (dense im2col, pointwise, depthwise) and MaxPool.
import { fail } from '../../../common/errors';
import { convDims } from '../../ops/conv';
import { levelsRange } from '../../ops/core/requant';
import { windowGeometry, type Window, type WindowAttrs } from '../../ops/core/window';
import { IM2COL_KERNEL, kernelScratch } from '../../kernels/scratch';
import { shiftOf } from '../../ops/requantized';
import { paramInit } from '../layout';
import { constInput, input, need8, offArg, signedFlag, tag } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';

interface Geom {
  N: number; C: number; M: number; group: number; channelsFirst: boolean; win: Window;
}

function geomDecl(l: LayerSpec, g: Geom): string {
  const { win } = g;
  if (win.rank > 2) fail('not-implemented', `${win.rank} spatial dimensions; the kernels take 1-D and 2-D windows`, l.where);
  if (win.dil.some((d, i) => d !== 1 && win.k[i] !== 1)) fail('not-implemented', `dilations ${win.dil.slice(3 - win.rank).join('x')}; the kernels need dilation 1`, l.where);
  const [, H, W] = win.inS, [, KH, KW] = win.k, [, OH, OW] = win.outS, [, sh, sw] = win.strides, [, pt, pl] = win.padBegin;
  return `static const dpg_conv_geom_t ${l.id}_geom = {` +
    `.N = ${g.N}, .C = ${g.C}, .H = ${H}, .W = ${W}, .M = ${g.M}, .KH = ${KH}, .KW = ${KW}, .OH = ${OH}, .OW = ${OW}, ` +
    `.group = ${g.group}, .stride_h = ${sh}, .stride_w = ${sw}, .pad_top = ${pt}, .pad_left = ${pl}};`;
}

function convGeom(l: LayerSpec): Geom {
  const x = input(l, 0, 'input'), w = input(l, 1, 'weights');
  return convDims(x.shape, w.shape, l.attrs as never, l.where).dims;
}

const layoutOf = (g: Geom) => (g.channelsFirst ? 'DPG_CHW' : 'DPG_HWC');

/** int8 weights: the tensor's own buffer when it is stored as int8 (tiled: its L1 tile), else an int8 copy. */
function weights(l: LayerSpec, out: EmitSink): string {
  const w = constInput(l, 1, 'weights');
  return w.type === 'int8' ? `(const int8_t *)${out.data(w)}` : out.constant(w.values, 'int8', w.name, l.where);
}

const conv: Emitter = {
  family: /^(DW)?Conv[12]d_(CHW|HWC)_/,
  offsets: 'absorb',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0], g = convGeom(l);
    need8(l, x, 'input');
    const b = l.ins[2];
    const bias = b ? out.constant(constInput(l, 2, 'bias').values, 'int32', b.name, l.where) : 'NULL';
    out.decl(geomDecl(l, g));
    out.step(`dpg_conv(${out.data(x)}, ${tag(x)}, ${offArg(x)}, ${weights(l, out)}, ${bias}, ${out.data(y)}, ${tag(y)}, &${l.id}_geom, ${layoutOf(g)});`);
  },
};

/** The requantization arguments shared by the RequantizedConv kernels: mul, add, shift, lo, hi. */
function rqArgs(l: LayerSpec, out: EmitSink): string {
  const y = l.outs[0];
  const mul = paramInit(out, input(l, 2, 'mul'), y.shape, 'mul', l.where);
  const add = paramInit(out, input(l, 3, 'add'), y.shape, 'add', l.where);
  const sh = l.ins[4];
  const shift = shiftOf(l.attrs as never, sh?.values ? { shape: sh.shape, data: sh.values } : undefined, l.where);
  const [lo, hi] = levelsRange(l.attrs.n_levels as number, !!l.attrs.signed, l.where);
  return `(dpg_param_t)${mul}, (dpg_param_t)${add}, ${shift}, ${lo}, ${hi}`;
}

function rqOperands(l: LayerSpec) {
  const x = input(l, 0, 'input'), y = l.outs[0], g = convGeom(l);
  need8(l, x, 'input');
  need8(l, y, 'output');
  if (g.channelsFirst) fail('internal', 'the requantized conv kernels take HWC data', l.where);
  return { x, y, g };
}

/** Dense requantized conv: an im2col row of KH*KW*C bytes per busy core (kernels/scratch.ts). */
function emitIm2col(l: LayerSpec, out: EmitSink): void {
  const { x, y, g } = rqOperands(l);
  if (g.group !== 1) fail('internal', `a dense conv kernel got group ${g.group}`, l.where);
  const col = out.scratch(kernelScratch(l.binding.kernel, { inputs: l.ins.map((t) => t?.shape), output: y.shape }, l.cores));
  out.decl(geomDecl(l, g));
  out.step(`dpg_rq_conv_hwc((const uint8_t *)${out.data(x)}, ${signedFlag(x)}, ${weights(l, out)}, ${rqArgs(l, out)}, (uint8_t *)${out.data(y)}, &${l.id}_geom, ${col});`);
}

const rqConv: Emitter = { family: IM2COL_KERNEL, offsets: 'none', emit: emitIm2col };

const rqPwConv: Emitter = {
  family: /^RequantizedPwConv[12]d_HWC_/,
  offsets: 'none',
  emit(l, out) {
    const { x, y, g } = rqOperands(l);
    const w = g.win;
    // The binding takes only unstrided, unpadded 1x1 convs (a GEMM over pixels); a tile cut from one is too.
    if (w.outS.join() !== w.inS.join()) fail('internal', `a pointwise conv kernel got ${w.inS.join('x')} -> ${w.outS.join('x')}`, l.where);
    const pixels = g.N * w.inS[0] * w.inS[1] * w.inS[2];
    out.step(`dpg_rq_pwconv_hwc((const uint8_t *)${out.data(x)}, ${signedFlag(x)}, ${weights(l, out)}, ${rqArgs(l, out)}, (uint8_t *)${out.data(y)}, ${pixels}, ${g.C}, ${g.M});`);
  },
};

const rqDwConv: Emitter = {
  family: /^RequantizedDWConv[12]d_HWC_/,
  offsets: 'none',
  emit(l, out) {
    const { x, y, g } = rqOperands(l);
    out.decl(geomDecl(l, g));
    out.step(`dpg_rq_dwconv_hwc((const uint8_t *)${out.data(x)}, ${signedFlag(x)}, ${weights(l, out)}, ${rqArgs(l, out)}, (uint8_t *)${out.data(y)}, &${l.id}_geom);`);
  },
};

const maxPool: Emitter = {
  family: /^MaxPool[12]d_(CHW|HWC)_/,
  offsets: 'passthrough',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    if (x.type !== y.type) fail('internal', `MaxPool input ${x.type} and output ${y.type} differ`, l.where);
    const cf = (l.attrs.channels_first as number) !== 0;
    const s = x.shape;
    const win = windowGeometry(cf ? s.slice(2) : s.slice(1, -1), l.attrs.kernel_shape as number[], l.attrs as unknown as WindowAttrs, l.where);
    const C = cf ? s[1] : s[s.length - 1];
    const g: Geom = { N: s[0], C, M: C, group: C, channelsFirst: cf, win };
    out.decl(geomDecl(l, g));
    out.step(`dpg_maxpool(${out.data(x)}, ${tag(x)}, ${out.data(y)}, &${l.id}_geom, ${layoutOf(g)});`);
  },
};

export const convEmitters: Emitter[] = [conv, rqConv, rqPwConv, rqDwConv, maxPool];
