// Sliding-window geometry shared by Conv, RequantizedConv and MaxPool: 1 to 3 spatial
// dimensions, channels first (ONNX) or channels last (after Deeploy's NHWC lowering).
import { fail } from '../../../common/errors';
import { shapeStr } from './tensor';

export interface WindowAttrs {
  auto_pad: string;
  dilations?: number[];
  strides?: number[];
  pads?: number[];
  kernel_shape?: number[];
  ceil_mode?: number;
}

export interface Window {
  /** Spatial input, kernel and output sizes, padded on the left to 3 dims with 1s. */
  inS: number[];
  k: number[];
  outS: number[];
  strides: number[];
  dil: number[];
  padBegin: number[];
  /** Number of real spatial dims (1..3). */
  rank: number;
}

const pad3 = (v: number[], fill: number) => [...new Array<number>(3 - v.length).fill(fill), ...v];

/** Output sizes and begin pads for input spatial sizes `inS` and kernel `k`. */
export function windowGeometry(inS: number[], k: number[], a: WindowAttrs, where: string): Window {
  const r = inS.length;
  if (r < 1 || r > 3) fail('not-implemented', `${r} spatial dimensions; 1 to 3 are supported`, where);
  if (k.length !== r) fail('shape-mismatch', `kernel ${shapeStr(k)} does not match ${r} spatial dimensions`, where);
  const strides = a.strides ?? new Array<number>(r).fill(1);
  const dil = a.dilations ?? new Array<number>(r).fill(1);
  if (strides.length !== r || dil.length !== r) fail('bad-graph', `strides/dilations must have ${r} values`, where);
  if (strides.some((s) => s < 1) || dil.some((d) => d < 1)) fail('bad-graph', 'strides and dilations must be >= 1', where);
  let pads = a.pads ?? new Array<number>(2 * r).fill(0);
  const autoPad = a.auto_pad || 'NOTSET';
  if (autoPad === 'VALID') pads = new Array<number>(2 * r).fill(0);
  else if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
    pads = new Array<number>(2 * r).fill(0);
    for (let i = 0; i < r; i++) {
      const out = Math.ceil(inS[i] / strides[i]);
      const total = Math.max(0, (out - 1) * strides[i] + (k[i] - 1) * dil[i] + 1 - inS[i]);
      const small = Math.floor(total / 2);
      pads[i] = autoPad === 'SAME_UPPER' ? small : total - small;
      pads[i + r] = total - pads[i];
    }
  } else if (autoPad !== 'NOTSET') fail('bad-graph', `unknown auto_pad '${autoPad}'`, where);
  if (pads.length !== 2 * r) fail('bad-graph', `pads has ${pads.length} values; ${r} spatial dimensions need ${2 * r}`, where);
  if (pads.some((p) => p < 0)) fail('bad-graph', 'negative pads', where);
  const outS = inS.map((n, i) => {
    const span = n + pads[i] + pads[i + r] - dil[i] * (k[i] - 1) - 1;
    if (span < 0) fail('shape-mismatch', `the kernel ${shapeStr(k)} does not fit the padded input ${shapeStr(inS)}`, where);
    let o = (a.ceil_mode ? Math.ceil(span / strides[i]) : Math.floor(span / strides[i])) + 1;
    // With ceil_mode the last window must start inside the input or the begin padding.
    if (a.ceil_mode && (o - 1) * strides[i] >= n + pads[i]) o--;
    return o;
  });
  return {
    inS: pad3(inS, 1), k: pad3(k, 1), outS: pad3(outS, 1), strides: pad3(strides, 1), dil: pad3(dil, 1),
    padBegin: pad3(pads.slice(0, r), 0), rank: r,
  };
}

/** The real (unpadded) output spatial sizes. */
export function outSpatial(w: Window): number[] {
  return w.outS.slice(3 - w.rank);
}
