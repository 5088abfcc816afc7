// The building blocks the generators share: int8 weights, calibrated RequantShifts, linear and
// convolution layers, normalisations and activations, with the integer attributes of Deeploy's
// ops derived from the calibrated ranges (what a quantiser such as QuantLib computes).
import type { IntTensor } from '../../src/compiler/ops/core/tensor';
import type { ActKind, GraphBuilder } from './builder';
import type { Rng } from './prng';
import { absQuantile, stdOf } from './stats';

/** Where calibration puts the 99.9th percentile of |x|: near the top of int8, few values clipped. */
export const TARGET = 120;
const QUANTILE = 0.999;
/** RequantShift multipliers are kept to 8 bits (128..255 for the largest): int32-safe products. */
const MUL_MAX = 255;

/** Math.round without -0, so constants serialise the same whatever their sign of zero. */
const round = (v: number): number => Math.round(v) + 0;

export function tensor(shape: number[], data: ArrayLike<number>): IntTensor {
  return { shape, data: Float64Array.from(data) };
}

/** n int8 weights, roughly Gaussian, scaled so the largest magnitude is `peak`. */
export function int8Weights(rng: Rng, n: number, peak = 127): number[] {
  const g = Array.from({ length: n }, () => rng.normal());
  let m = 0;
  for (const v of g) m = Math.max(m, Math.abs(v));
  return g.map((v) => round((v / (m || 1)) * peak));
}

// ---------------------------------------------------------------------------------------------
// RequantShift

/** The shift s (div = 2^s, s >= 1) and multipliers that approximate each ratio with 8-bit muls. */
export function pickMulShift(ratios: number[]): { shift: number; muls: number[] } {
  const top = Math.max(...ratios);
  let s = 1;
  while (s < 30 && Math.round(top * 2 ** (s + 1)) <= MUL_MAX) s++;
  return { shift: s, muls: ratios.map((r) => Math.max(1, round(r * 2 ** s))) };
}

export interface RequantOptions {
  /** Value the 99.9th percentile of |x| maps to (default TARGET). */
  target?: number;
  /** One multiplier per channel of axis 1 (a convolution's output), parameters shaped [C,1,1]. */
  perChannel?: boolean;
  /** Per-channel offset added after scaling, in output units (a folded batch-norm shift). */
  offset?: number[];
  kind?: ActKind;
  out?: string;
}

/** Per-channel (axis 1) slices of a tensor's values. */
function channels(v: IntTensor): number[][] {
  const C = v.shape[1], inner = v.shape.slice(2).reduce((a, b) => a * b, 1), outer = v.shape[0];
  const out: number[][] = Array.from({ length: C }, () => []);
  for (let n = 0; n < outer; n++)
    for (let c = 0; c < C; c++)
      for (let i = 0; i < inner; i++) out[c].push(v.data[(n * C + c) * inner + i]);
  return out;
}

/** A RequantShift to int8 whose mul and shift are calibrated on the tensor's actual values. */
export function requant(b: GraphBuilder, name: string, x: string, o: RequantOptions = {}): string {
  const v = b.value(x);
  const target = o.target ?? TARGET;
  const ratio = (d: ArrayLike<number>) => {
    const q = absQuantile(d, QUANTILE);
    return q > 0 ? target / q : 1;
  };
  const { shift, muls, adds } = b.calibrate(name, () => {
    const { shift, muls } = pickMulShift(o.perChannel ? channels(v).map(ratio) : [ratio(v.data)]);
    return { shift, muls, adds: o.offset ? o.offset.map((off) => round(off * 2 ** shift)) : muls.map(() => 0) };
  });
  return rqNode(b, name, x, muls, adds, shift, o.perChannel ? [muls.length, 1, 1] : [], o);
}

/** A RequantShift with given parameters (mul / 2^shift), scalar. */
export function fixedRequant(b: GraphBuilder, name: string, x: string, mul: number, shift: number,
  o: { kind?: ActKind; out?: string } = {}): string {
  return rqNode(b, name, x, [mul], [0], shift, [], o);
}

/** mul = div: Deeploy's exporter puts these after Transposes and Concats; Siracusa drops them. */
export function unityRequant(b: GraphBuilder, name: string, x: string, o: { kind?: ActKind; out?: string } = {}): string {
  return fixedRequant(b, name, x, 2 ** 16, 16, { kind: 'unity', ...o });
}

function rqNode(b: GraphBuilder, name: string, x: string, muls: number[], adds: number[], shift: number,
  paramShape: number[], o: { kind?: ActKind; out?: string }): string {
  // The kernels compute x*mul + add + 2^(s-1) in int32: make sure the calibration keeps to it.
  const v = b.value(x);
  let peak = 0;
  for (let i = 0; i < v.data.length; i++) peak = Math.max(peak, Math.abs(v.data[i]));
  const worst = peak * Math.max(...muls) + Math.max(...adds.map(Math.abs)) + 2 ** (shift - 1);
  if (worst >= 2 ** 31) throw new Error(`${b.name}: ${name}: x*mul + add reaches ${worst}, beyond int32`);
  const mul = b.weight(`${name}/mul`, paramShape, muls);
  const add = b.weight(`${name}/add`, paramShape, adds);
  return b.node('RequantShift', name, [x, mul, add], { div: 2 ** shift, n_levels_out: 256, signed: 1 }, o);
}

// ---------------------------------------------------------------------------------------------
// Layers

export interface LinearOptions extends RequantOptions {
  /** 'zero': an all-zero bias (Llama has none, the exporter still writes the Add); 'random': a real one. */
  bias?: 'zero' | 'random';
}

/**
 * A linear layer as Deeploy's test networks have it: MatMul with int8 weights [in, out], Add
 * of the int32 bias, RequantShift back to int8. Node names: <name>/matmul, /bias, /requant.
 */
export function linear(b: GraphBuilder, name: string, x: string, outF: number, o: LinearOptions = {}): string {
  const inF = b.shape(x).at(-1)!;
  const w = b.weight(`${name}/weight`, [inF, outF], int8Weights(b.rng(`${name}/weight`), inF * outF));
  const mm = b.node('MatMul', `${name}/matmul`, [x, w]);
  const bias = b.calibrate(`${name}/bias`, () => {
    // A real bias is a fraction of the accumulator's spread (it lives in the accumulator's units).
    const rng = b.rng(`${name}/bias`), spread = stdOf(b.value(mm).data);
    return Array.from({ length: outF }, () => (o.bias === 'random' ? round(rng.normal() * 0.3 * spread) : 0));
  });
  const biased = b.node('Add', `${name}/bias`, [mm, b.weight(`${name}/bias/value`, [outF], bias)]);
  return requant(b, `${name}/requant`, biased, o);
}

export interface ConvOptions {
  kernel: number;
  stride?: number;
  /** group = channels: depthwise. */
  depthwise?: boolean;
  target?: number;
}

/**
 * Conv (NCHW, 'same' padding, per-output-channel int8 weights) + per-channel RequantShift
 * carrying a folded batch-norm offset. Node names: <name>/conv, <name>/requant.
 */
export function conv(b: GraphBuilder, name: string, x: string, cout: number, o: ConvOptions): string {
  const cin = b.shape(x)[1];
  const k = o.kernel, pad = (k - 1) >> 1, group = o.depthwise ? cin : 1;
  if (o.depthwise && cout !== cin) throw new Error(`${name}: a depthwise conv keeps the channel count`);
  const perOut = (cin / group) * k * k;
  const rng = b.rng(`${name}/weight`);
  const wdata: number[] = [];
  for (let m = 0; m < cout; m++) wdata.push(...int8Weights(rng, perOut, round(127 * rng.range(0.6, 1))));
  const w = b.weight(`${name}/weight`, [cout, cin / group, k, k], wdata);
  const y = b.node('Conv', `${name}/conv`, [x, w], {
    dilations: [1, 1], group, kernel_shape: [k, k], pads: [pad, pad, pad, pad], strides: [o.stride ?? 1, o.stride ?? 1],
  });
  const brng = b.rng(`${name}/bn`);
  const offset = Array.from({ length: cout }, () => round(brng.normal() * 6));
  return requant(b, `${name}/requant`, y, { perChannel: true, offset, target: o.target });
}

/**
 * A residual sum as Deeploy's exporter writes it: each branch requantized to the common scale
 * (the skip weighted more than the update), an Add, and a RequantShift of the sum.
 */
/**
 * A CNN's classifier: Gemm to `classes` logits on the flattened features (int8 weights, a bias
 * calibrated on the features), requantized to the graph output `logits`.
 */
export function classifier(b: GraphBuilder, flat: string, classes: number): string {
  const features = b.shape(flat)[1];
  const W = int8Weights(b.rng('classifier/fc/weight'), classes * features);
  const bias = b.calibrate('classifier/fc/bias', () => {
    const f = b.value(flat).data;
    const acc = Array.from({ length: classes }, (_, j) => f.reduce((s, v, i) => s + v * W[j * features + i], 0));
    const rng = b.rng('classifier/fc/bias');
    return acc.map(() => Math.round(rng.normal() * 0.3 * stdOf(acc)) + 0);
  });
  const logits = b.node('Gemm', 'classifier/fc', [
    flat, b.weight('classifier/fc/weight', [classes, features], W), b.weight('classifier/fc/bias', [classes], bias),
  ], { transB: 1 });
  return requant(b, 'classifier/requant', logits, { out: 'logits' });
}

export function residual(b: GraphBuilder, name: string, skip: string, update: string, o: { out?: string } = {}): string {
  const s = requant(b, `${name}/skip_requant`, skip, { target: 80 });
  const sum = b.node('Add', `${name}/add`, [s, update]);
  return requant(b, `${name}/requant`, sum, { out: o.out });
}

// ---------------------------------------------------------------------------------------------
// Normalisations and activations

/** iRMSNorm with per-channel gains around 1: output RMS about 30 (so +-4 sigma fills int8). */
export function rmsNorm(b: GraphBuilder, name: string, x: string, o: { out?: string } = {}): string {
  const L = b.shape(x).at(-1)!, D = 2 ** 16;
  const rng = b.rng(`${name}/weight`);
  const w = Array.from({ length: L }, () => round(rng.range(0.8, 1.2) * 30 * D));
  return b.node('iRMSNorm', name, [x, b.weight(`${name}/weight`, [L], w)], { D, n_levels: 256 }, o);
}

/** iLayerNorm with gains around 1 (output standard deviation about 30) and small shifts. */
export function layerNorm(b: GraphBuilder, name: string, x: string): string {
  const L = b.shape(x).at(-1)!, D = 2 ** 14;
  const rng = b.rng(`${name}/weight`);
  const w = Array.from({ length: L }, () => round(rng.range(0.8, 1.2) * 30 * D));
  const bias = Array.from({ length: L }, () => round(rng.normal() * 4 * D));
  return b.node('iLayerNorm', name, [x, b.weight(`${name}/weight`, [L], w), b.weight(`${name}/bias`, [L], bias)], { D, n_levels: 256 });
}

/**
 * iHardswish (Deeploy's integer stand-in for SiLU): its input's int8 range is read as +-5, so
 * three = 3/eps, six = 6/eps, and one_over_six = 2^8/6 (the output carries 2^8/eps^2).
 */
export function hardswish(b: GraphBuilder, name: string, x: string): string {
  const eps = 5 / TARGET;
  return b.node('iHardswish', name, [x], { one_over_six: Math.floor(256 / 6), six: round(6 / eps), three: round(3 / eps) });
}

/**
 * I-BERT's iGELU: erf(x/sqrt 2) ~ sign*(a*(min(|x|, -b) + b)^2 + 1) with a = -0.2888,
 * b = -1.769, on x/sqrt 2 in steps of eps/sqrt 2; the input's int8 range is read as +-4.
 */
export function gelu(b: GraphBuilder, name: string, x: string): string {
  const s = 4 / TARGET / Math.SQRT2;
  return b.node('iGELU', name, [x], { b: -round(1.769 / s), one: round(1 / (0.2888 * s * s)) });
}

/**
 * iSoftmax over the last axis, with coefficients as Deeploy's networks carry them
 * (coeffB = 1.353 log2, coeffC = 0.9595 log2^2: I-BERT's exp polynomial, one step of z per
 * log2 input units). log2 sets the temperature: here the logits' spread (std over entries the
 * mask leaves) is about 1.5 units of exp.
 */
export function softmax(b: GraphBuilder, name: string, x: string): string {
  const log2 = b.calibrate(name, () => {
    const sd = stdOf(b.value(x).data, (v) => v > -128);
    return Math.min(64, Math.max(4, round((sd * Math.LN2) / 2.5)));
  });
  return b.node('iSoftmax', name, [x], {
    coeffA: 1, coeffB: round(1.353 * log2), coeffC: round(0.9595 * log2 * log2), log2, n_levels: 256,
  });
}
