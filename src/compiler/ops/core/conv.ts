// Convolution as im2col + the shared matmul kernel, so it inherits the exact/BigInt paths.
// Layouts: channels first x[N, C, *S], W[M, C/g, *K], y[N, M, *O];
//          channels last  x[N, *S, C], W[M, *K, C/g], y[N, *O, M] (Deeploy's NHWC lowering).
import { checkExact } from './exact';
import { accumulationFits, matmulInto, view } from './linear';
import { maxAbs, numel, type IntTensor } from './tensor';
import type { Window } from './window';

export interface ConvDims {
  N: number;
  C: number;
  M: number;
  group: number;
  channelsFirst: boolean;
  win: Window;
}

/** y = conv(x, w) + bias, exactly. */
export function convolve(x: IntTensor, w: IntTensor, bias: IntTensor | undefined, d: ConvDims, outShape: number[],
  where: string): IntTensor {
  const { N, C, M, group, channelsFirst: cf, win } = d;
  const Cg = C / group, Mg = M / group;
  const [D, H, W] = win.inS, [KD, KH, KW] = win.k, [OD, OH, OW] = win.outS;
  const [sd, sh, sw] = win.strides, [dd, dh, dw] = win.dil, [pd, ph, pw] = win.padBegin;
  const S = D * H * W, Kp = KD * KH * KW, OP = OD * OH * OW, Kt = Cg * Kp;
  const out = new Float64Array(numel(outShape));
  const exact = accumulationFits(Kt, maxAbs(x), maxAbs(w));
  const pointwise = Kp === 1 && sd * sh * sw === 1 && pd + ph + pw === 0 && OP === S;
  const col = pointwise ? null : new Float64Array(Kt * OP);
  const X = x.data;
  for (let n = 0; n < N; n++) {
    for (let g = 0; g < group; g++) {
      let B;
      if (pointwise) {
        B = cf ? view(X, (n * C + g * Cg) * S, S, 1) : view(X, n * S * C + g * Cg, 1, C);
      } else {
        const cl = col!;
        for (let c = 0; c < Cg; c++) {
          const ca = g * Cg + c;
          for (let kd = 0; kd < KD; kd++) for (let kh = 0; kh < KH; kh++) for (let kw = 0; kw < KW; kw++) {
            const kidx = (kd * KH + kh) * KW + kw;
            const row = (cf ? c * Kp + kidx : kidx * Cg + c) * OP;
            let p = 0;
            for (let od = 0; od < OD; od++) {
              const id = od * sd - pd + kd * dd;
              for (let oh = 0; oh < OH; oh++) {
                const ih = oh * sh - ph + kh * dh;
                for (let ow = 0; ow < OW; ow++, p++) {
                  const iw = ow * sw - pw + kw * dw;
                  if (id < 0 || id >= D || ih < 0 || ih >= H || iw < 0 || iw >= W) { cl[row + p] = 0; continue; }
                  const s = (id * H + ih) * W + iw;
                  cl[row + p] = cf ? X[(n * C + ca) * S + s] : X[(n * S + s) * C + ca];
                }
              }
            }
          }
        }
        B = view(cl, 0, OP, 1);
      }
      const A = view(w.data, g * Mg * Kt, Kt, 1);
      const O = cf ? view(out, (n * M + g * Mg) * OP, OP, 1) : view(out, n * OP * M + g * Mg, 1, M);
      matmulInto(O, A, B, Mg, Kt, OP, exact, where);
    }
  }
  if (bias) {
    const b = bias.data;
    const check = !accumulationFits(Kt, maxAbs(x), maxAbs(w), maxAbs(bias));
    for (let n = 0; n < N; n++)
      for (let m = 0; m < M; m++)
        for (let p = 0; p < OP; p++) {
          const i = cf ? (n * M + m) * OP + p : (n * OP + p) * M + m;
          out[i] += b[m];
          if (check) checkExact(out[i], where);
        }
  }
  return { shape: outShape, data: out };
}
