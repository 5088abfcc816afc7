// Conv (1-3 spatial dims, groups incl. depthwise, strides, pads, dilations, bias) and MaxPool.
import { fail } from '../../common/errors';
import type { TensorType } from '../ir/graph';
import { convolve, type ConvDims } from './core/conv';
import { numeric, promote } from './core/dtypes';
import { numel, shapeStr, type IntTensor } from './core/tensor';
import { outSpatial, windowGeometry, type WindowAttrs } from './core/window';
import { defineOp, int, ints, ONNX_DOMAINS, str, type AttrValues } from './types';
import { convRule, poolRule } from '../tiling/rules';

export const convAttrs = {
  auto_pad: str('NOTSET'),
  dilations: ints(),
  group: int(1),
  kernel_shape: ints(),
  pads: ints(),
  strides: ints(),
  /** Deeploy's layout flag: 0 after the NHWC lowering (x[N,*S,C], W[M,*K,C/g], y[N,*O,M]). */
  channels_first: int(1),
};
type ConvAttrs = AttrValues<typeof convAttrs>;

/** Checks x and W against each other; returns the dims and the output shape. */
export function convDims(x: number[], w: number[], a: ConvAttrs, where: string): { dims: ConvDims; shape: number[] } {
  const cf = a.channels_first !== 0;
  const r = x.length - 2;
  if (r < 1) fail('shape-mismatch', `Conv input ${shapeStr(x)} needs at least one spatial dimension`, where);
  if (w.length !== x.length) fail('shape-mismatch', `weights ${shapeStr(w)} and input ${shapeStr(x)} have different ranks`, where);
  const N = x[0], C = cf ? x[1] : x[x.length - 1], M = w[0];
  const inS = cf ? x.slice(2) : x.slice(1, -1);
  const k = cf ? w.slice(2) : w.slice(1, -1);
  const wC = cf ? w[1] : w[w.length - 1];
  const g = a.group;
  if (g < 1 || C % g !== 0 || M % g !== 0)
    fail('shape-mismatch', `group = ${g} does not divide ${C} input and ${M} output channels`, where);
  if (wC !== C / g)
    fail('shape-mismatch', `weights ${shapeStr(w)} expect ${wC * g} input channels, the input ${shapeStr(x)} has ${C}`, where);
  if (a.kernel_shape && shapeStr(a.kernel_shape) !== shapeStr(k))
    fail('shape-mismatch', `kernel_shape ${shapeStr(a.kernel_shape)} does not match weights ${shapeStr(w)}`, where);
  const win = windowGeometry(inS, k, a as WindowAttrs, where);
  const o = outSpatial(win);
  return { dims: { N, C, M, group: g, channelsFirst: cf, win }, shape: cf ? [N, M, ...o] : [N, ...o, M] };
}

export function inferConv(inputs: (TensorType | undefined)[], attrs: ConvAttrs, where: string, biasIndex: number | null): TensorType {
  const x = numeric(inputs[0]!, 'the input', where), w = numeric(inputs[1]!, 'the weights', where);
  const { dims, shape } = convDims(x.shape, w.shape, attrs, where);
  const b = biasIndex === null ? undefined : inputs[biasIndex];
  if (b && (b.shape.length !== 1 || b.shape[0] !== dims.M))
    fail('shape-mismatch', `bias ${shapeStr(b.shape)} must be [${dims.M}]`, where);
  return { dtype: promote([x.dtype, w.dtype]), shape };
}

export function evalConv(x: IntTensor, w: IntTensor, b: IntTensor | undefined, attrs: ConvAttrs, where: string): IntTensor {
  const { dims, shape } = convDims(x.shape, w.shape, attrs, where);
  return convolve(x, w, b, dims, shape, where);
}

export const Conv = defineOp({
  ops: ['Conv'],
  tiling: convRule,
  domains: ONNX_DOMAINS,
  summary: 'y = conv(x, W) + B, exact integer accumulation (int32 in Deeploy kernels)',
  inputs: [{ name: 'X' }, { name: 'W' }, { name: 'B', optional: true }],
  outputs: ['Y'],
  attrs: convAttrs,
  infer: ({ inputs, attrs, where }) => [inferConv(inputs, attrs, where, 2)],
  eval: ({ inputs: [x, w, b], attrs, where }) => [evalConv(x!, w!, b, attrs, where)],
  work: convWork,
});

/** Every output element takes one MAC per weight of its filter: Ci/groups x kernel. */
export function convWork({ inputs, outputs }: { inputs: (TensorType | undefined)[]; outputs: TensorType[] }): number {
  const w = inputs[1]!.shape;
  return numel(outputs[0].shape) * (numel(w) / Math.max(1, w[0]));
}

// ---------------------------------------------------------------------------------------------

const poolAttrs = {
  auto_pad: str('NOTSET'),
  ceil_mode: int(0),
  dilations: ints(),
  kernel_shape: ints(),
  pads: ints(),
  strides: ints(),
  storage_order: int(0),
  channels_first: int(1),
};

function poolGeometry(x: number[], a: AttrValues<typeof poolAttrs>, where: string) {
  if (!a.kernel_shape) fail('bad-graph', "MaxPool needs the attribute 'kernel_shape'", where);
  const cf = a.channels_first !== 0;
  const r = a.kernel_shape.length;
  if (x.length !== r + 2) fail('shape-mismatch', `input ${shapeStr(x)} does not have ${r} spatial dimensions (kernel ${shapeStr(a.kernel_shape)})`, where);
  const inS = cf ? x.slice(2) : x.slice(1, -1);
  const win = windowGeometry(inS, a.kernel_shape, a as WindowAttrs, where);
  const C = cf ? x[1] : x[x.length - 1];
  const o = outSpatial(win);
  return { win, cf, N: x[0], C, shape: cf ? [x[0], C, ...o] : [x[0], ...o, C] };
}

export const MaxPool = defineOp({
  ops: ['MaxPool'],
  tiling: poolRule,
  domains: ONNX_DOMAINS,
  summary: 'maximum over each window; padding never wins',
  inputs: [{ name: 'X' }],
  outputs: ['Y', 'Indices'],
  attrs: poolAttrs,
  infer: ({ node, inputs, attrs, where }) => {
    if (node.outputs.length > 1 && node.outputs[1]) fail('not-implemented', 'MaxPool Indices output is not supported', where);
    const x = numeric(inputs[0]!, 'the input', where);
    return [{ dtype: x.dtype, shape: poolGeometry(x.shape, attrs, where).shape }];
  },
  eval: ({ inputs: [x], attrs, where }) => {
    const { win, cf, N, C, shape } = poolGeometry(x!.shape, attrs, where);
    const [D, H, W] = win.inS, [KD, KH, KW] = win.k, [OD, OH, OW] = win.outS;
    const [sd, sh, sw] = win.strides, [dd, dh, dw] = win.dil, [pd, ph, pw] = win.padBegin;
    const S = D * H * W, OP = OD * OH * OW;
    const X = x!.data;
    const out = new Float64Array(N * C * OP);
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) {
      let p = 0;
      for (let od = 0; od < OD; od++) for (let oh = 0; oh < OH; oh++) for (let ow = 0; ow < OW; ow++, p++) {
        let m = -Infinity;
        for (let kd = 0; kd < KD; kd++) {
          const id = od * sd - pd + kd * dd;
          if (id < 0 || id >= D) continue;
          for (let kh = 0; kh < KH; kh++) {
            const ih = oh * sh - ph + kh * dh;
            if (ih < 0 || ih >= H) continue;
            for (let kw = 0; kw < KW; kw++) {
              const iw = ow * sw - pw + kw * dw;
              if (iw < 0 || iw >= W) continue;
              const s = (id * H + ih) * W + iw;
              const v = cf ? X[(n * C + c) * S + s] : X[(n * S + s) * C + c];
              if (v > m) m = v;
            }
          }
        }
        if (m === -Infinity) fail('bad-graph', 'a pooling window lies entirely in the padding', where);
        out[cf ? (n * C + c) * OP + p : (n * OP + p) * C + c] = m;
      }
    }
    return [{ shape, data: out }];
  },
});
