// Axis permutations: the NCHW <-> NHWC pair, composition, and applying them to constants.
import type { Node } from '../../ir/graph';
import { transposeData, type IntTensor } from '../../ops/core/tensor';
import type { Editor } from '../editor';
import { intsAttr, squeezeLeading } from '../params';

/** [N, C, *S] -> [N, *S, C]: [0, 2, ..., r-1, 1]. */
export function toChannelsLast(rank: number): number[] {
  return [0, ...Array.from({ length: rank - 2 }, (_, i) => i + 2), 1];
}

/** [N, *S, C] -> [N, C, *S]: [0, r-1, 1, ..., r-2]. */
export function toChannelsFirst(rank: number): number[] {
  return [0, rank - 1, ...Array.from({ length: rank - 2 }, (_, i) => i + 1)];
}

/** Swaps the last two axes (a matrix transpose, batched). */
export function swapLastTwo(rank: number): number[] {
  const p = Array.from({ length: rank }, (_, i) => i);
  [p[rank - 2], p[rank - 1]] = [p[rank - 1], p[rank - 2]];
  return p;
}

/** T2(T1(x)) = T(x) with perm compose(p1, p2): output axis i is x's axis p1[p2[i]]. */
export function compose(p1: readonly number[], p2: readonly number[]): number[] {
  return p2.map((i) => p1[i]);
}

export function isIdentity(p: readonly number[]): boolean {
  return p.every((v, i) => v === i);
}

/** True when the permutation keeps the order of the axes larger than 1 (the data does not move). */
export function movesNoData(shape: readonly number[], p: readonly number[]): boolean {
  const big = p.filter((a) => shape[a] !== 1);
  return big.every((a, i) => i === 0 || a > big[i - 1]);
}

export function permOf(n: Node, rank: number): number[] {
  const a = n.attrs.perm;
  if (a?.kind === 'ints') return a.value;
  if (a?.kind === 'tensor') return Array.from(a.value.data as ArrayLike<number | bigint>, Number);
  return Array.from({ length: rank }, (_, i) => rank - 1 - i);
}

/** A requant parameter laid out for a result, permuted like the result (rank-padded with leading 1s). */
export function permuteParam(p: IntTensor, rank: number, perm: readonly number[]): IntTensor {
  if (p.data.length === 1) return { shape: [], data: p.data };
  const full = { shape: [...new Array<number>(rank - p.shape.length).fill(1), ...p.shape], data: p.data };
  return squeezeLeading(transposeData(full, perm));
}

/**
 * x permuted by `perm`: a new constant when x is constant, else a new Transpose node inserted
 * before `ref` (made from `ref`). Returns the tensor name.
 */
export function transposed(ed: Editor, x: string, perm: number[], ref: Node, base = `${x}_T`): string {
  const c = ed.constant(x);
  if (c) return ed.addConst(base, transposeData(c, perm), ed.dtype(x));
  const t = ed.type(x)!;
  const out = ed.tensor(base, { dtype: t.dtype, shape: perm.map((i) => t.shape[i]) });
  ed.insert(transposeNode(ed, x, out, perm), [ref], ref);
  return out;
}

export function transposeNode(ed: Editor, x: string, out: string, perm: number[]): Node {
  return { name: ed.ctx.fresh(`Transpose_${out}`), op: 'Transpose', domain: '', inputs: [x], outputs: [out], attrs: { perm: intsAttr(perm) } };
}
