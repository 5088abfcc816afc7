// Exact integer arithmetic on doubles: the helpers that make "never silently wrong" cheap.
//
// Rule of thumb used by every op: compute a bound on the magnitude of every intermediate from
// maxAbs() of the operands; if bound <= MAX_EXACT the plain double loop is exact, otherwise
// the op runs its BigInt path. Results must fit MAX_EXACT to be stored at all (toExact).
import { fail } from '../../../common/errors';
import { MAX_EXACT } from './tensor';

export function fits(bound: number): boolean {
  return bound <= MAX_EXACT;
}

/** A BigInt result back into the representation, or a 'limit' error naming `where`. */
export function toExact(v: bigint, where: string): number {
  if (v > BigInt(MAX_EXACT) || v < -BigInt(MAX_EXACT))
    fail('limit', `an integer result (${v}) exceeds 2^53, the largest value the reference interpreter holds exactly`, where,
      'the network computes values far outside any int32 accumulator; check its weights and requantization');
  return Number(v);
}

/** Checks a double result of a loop whose bound was not proven (e.g. a sum of exact values). */
export function checkExact(v: number, where: string): number {
  if (!(v <= MAX_EXACT && v >= -MAX_EXACT))
    fail('limit', `an integer result (${v}) exceeds 2^53, the largest value the reference interpreter holds exactly`, where);
  return v;
}

/** floor(a / 2^s) for an exact integer a and s >= 0 (division by a power of two is exact). */
export function shiftRight(a: number, s: number): number {
  return s === 0 ? a : Math.floor(a / 2 ** s);
}

export function shiftRightBig(a: bigint, s: number): bigint {
  return a >> BigInt(s); // BigInt >> is an arithmetic (flooring) shift
}

/** floor(a / b) exactly, for exact integers a, b (b != 0). */
export function floorDiv(a: number, b: number): number {
  if (Math.abs(a) + Math.abs(b) < 2 ** 52) {
    let q = Math.floor(a / b);
    // The rounded quotient can land on the wrong side of an integer; fix it with the remainder.
    const r = a - q * b;
    if (b > 0 ? r < 0 : r > 0) q -= 1;
    else if (b > 0 ? r >= b : r <= b) q += 1;
    return q;
  }
  return Number(floorDivBig(BigInt(a), BigInt(b)));
}

/** trunc(a / b): C's integer division, rounding toward zero. */
export function truncDiv(a: number, b: number): number {
  const q = floorDiv(Math.abs(a), Math.abs(b));
  return (a < 0) !== (b < 0) && q !== 0 ? -q : q;
}

export function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b; // truncates
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function truncDivBig(a: bigint, b: bigint): bigint {
  return a / b;
}

/** Largest r with r*r <= n, for an exact integer n >= 0. */
export function isqrt(n: number): number {
  if (n < 0) throw new Error(`isqrt of a negative number (${n})`);
  let r = Math.floor(Math.sqrt(n));
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Integer log2 of a power of two, or undefined. */
export function log2Exact(v: number): number | undefined {
  if (!(v >= 1) || !Number.isInteger(v)) return undefined;
  const s = Math.round(Math.log2(v));
  return 2 ** s === v ? s : undefined;
}
