// Requantization, the step every Deeploy integer op ends in: multiply, add, arithmetic shift
// right with rounding half up, clip to the output's levels. Shared by RequantShift and all the
// fused Requantized* ops so they cannot drift apart.
import { fail } from '../../../common/errors';
import { clamp, fits, log2Exact, shiftRight, shiftRightBig, toExact } from './exact';
import { broadcastShapes, broadcastTo, maxAbs, numel, sameShape, shapeStr, type IntTensor } from './tensor';

/** The clip range of n_levels levels: signed [-n/2, (n-1)/2] (floored), unsigned [0, n-1]. */
export function levelsRange(nLevels: number, signed: boolean, where: string): [number, number] {
  if (!Number.isInteger(nLevels) || nLevels < 2) fail('bad-graph', `n_levels must be an integer >= 2, got ${nLevels}`, where);
  return signed ? [-Math.floor(nLevels / 2), Math.floor((nLevels - 1) / 2)] : [0, nLevels - 1];
}

/** s with div = 2^s, or a 'bad-graph' error: Deeploy implements div as a shift. */
export function shiftOfDiv(div: number, where: string, what = 'div'): number {
  const s = log2Exact(div);
  if (s === undefined) fail('bad-graph', `${what} = ${div} is not a power of two`, where, 'Deeploy implements the division as a right shift');
  return s;
}

/**
 * How a requant parameter (mul, add) of shape `p` lines up with a result of shape `x`:
 * - 'broadcast': numpy broadcasting, when it does not grow x (scalars, [C,1,1] after a 2-D
 *   conv, [N] per column or [M,1] per row of a Gemm, [1,C,1,1], ...);
 * - 'channel': otherwise one value per channel of axis 1 (e.g. [C,1,1] after a 1-D conv,
 *   which numpy would broadcast to a bigger tensor; the golden outputs are per channel).
 */
export function paramLayout(p: readonly number[], x: readonly number[], what: string, where: string): 'broadcast' | 'channel' {
  const n = numel(p);
  if (n === 1) return 'broadcast';
  let grows = false;
  try {
    grows = !sameShape(broadcastShapes([x, p], where), x);
  } catch {
    grows = true;
  }
  if (!grows) return 'broadcast';
  if (x.length >= 2 && n === x[1] && p.filter((d) => d !== 1).length <= 1) return 'channel';
  return fail('shape-mismatch', `${what} ${shapeStr(p)} fits neither the result ${shapeStr(x)} nor its ${x[1] ?? 0} channels`, where);
}

/** A requant parameter laid out over a result of shape `x` (flat, one value per element). */
export function alignParam(p: IntTensor, x: readonly number[], what: string, where: string): Float64Array {
  if (paramLayout(p.shape, x, what, where) === 'broadcast') return broadcastTo(p, x);
  const out = new Float64Array(numel(x));
  const C = x[1], inner = numel(x.slice(2));
  for (let i = 0; i < out.length; i++) out[i] = p.data[Math.floor(i / inner) % C];
  return out;
}

export interface Requant {
  mul: IntTensor;
  add: IntTensor;
  /** Right shift s (division by 2^s, flooring). */
  shift: number;
  /** Add 2^(s-1) before shifting (round half up). False when the add already includes it. */
  round: boolean;
  lo: number;
  hi: number;
}

/** y = clip(floor((x*mul + add [+ 2^(s-1)]) / 2^s), lo, hi), mul/add laid out by paramLayout. */
export function requantize(x: IntTensor, rq: Requant, where: string): IntTensor {
  const shape = x.shape;
  const xs = x.data, ms = alignParam(rq.mul, shape, 'mul', where), as = alignParam(rq.add, shape, 'add', where);
  const half = rq.round && rq.shift > 0 ? 2 ** (rq.shift - 1) : 0;
  const n = xs.length;
  const out = new Float64Array(n);
  const { lo, hi, shift } = rq;
  if (fits(maxAbs(x) * maxAbs(rq.mul) + maxAbs(rq.add) + half)) {
    const d = 2 ** shift;
    for (let i = 0; i < n; i++) {
      const v = Math.floor((xs[i] * ms[i] + as[i] + half) / d);
      out[i] = v < lo ? lo : v > hi ? hi : v;
    }
  } else {
    const h = BigInt(half);
    for (let i = 0; i < n; i++) {
      const v = shiftRightBig(BigInt(xs[i]) * BigInt(ms[i]) + BigInt(as[i]) + h, shift);
      const c = v < BigInt(lo) ? lo : v > BigInt(hi) ? hi : toExact(v, where);
      out[i] = c;
    }
  }
  return { shape, data: out };
}

/** Scalar form, for ops that requantize one value at a time (RequantizedAdd). */
export function requantScalar(x: number, mul: number, add: number, shift: number, lo: number, hi: number,
  where: string): number {
  const p = x * mul;
  if (fits(Math.abs(p) + Math.abs(add))) return clamp(shiftRight(p + add, shift), lo, hi);
  const v = shiftRightBig(BigInt(x) * BigInt(mul) + BigInt(add), shift);
  return v < BigInt(lo) ? lo : v > BigInt(hi) ? hi : toExact(v, where);
}
