// The one multiply-accumulate kernel behind MatMul, Gemm and Conv (via im2col), with an exact
// fast path and a BigInt path. Callers pass the bound they proved; see exact.ts.
import { fits, toExact } from './exact';
import { MAX_EXACT } from './tensor';

/** A strided matrix view: element (r, c) is data[off + r*rs + c*cs]. */
export interface MatView {
  data: Float64Array;
  off: number;
  rs: number;
  cs: number;
}

export function view(data: Float64Array, off: number, rs: number, cs: number): MatView {
  return { data, off, rs, cs };
}

/** True when K products of magnitude <= maxA*maxB, summed, stay exact in doubles. */
export function accumulationFits(K: number, maxA: number, maxB: number, extra = 0): boolean {
  if (maxA === 0 || maxB === 0) return fits(extra);
  return K * maxA * maxB + extra <= MAX_EXACT;
}

/**
 * out(i, j) = sum_k a(i, k) * b(k, j) for an M x K by K x N product. `exact` says the caller
 * proved every partial sum fits (accumulationFits); otherwise the sums run in BigInt and only
 * the results must fit. `where` names the node for a 'limit' error.
 */
export function matmulInto(out: MatView, a: MatView, b: MatView, M: number, K: number, N: number,
  exact: boolean, where: string): void {
  if (!exact) return matmulBig(out, a, b, M, K, N, where);
  const A = a.data, B = b.data, O = out.data;
  if (b.cs === 1 && out.cs === 1) {
    // i-k-j: the inner loop walks rows of B and of the output contiguously.
    for (let i = 0; i < M; i++) {
      const o = out.off + i * out.rs;
      for (let j = 0; j < N; j++) O[o + j] = 0;
      const aRow = a.off + i * a.rs;
      for (let k = 0; k < K; k++) {
        const av = A[aRow + k * a.cs];
        if (av === 0) continue;
        const bRow = b.off + k * b.rs;
        for (let j = 0; j < N; j++) O[o + j] += av * B[bRow + j];
      }
    }
    return;
  }
  // i-j-k: dot products (B transposed, or a strided output).
  for (let i = 0; i < M; i++) {
    const aRow = a.off + i * a.rs;
    for (let j = 0; j < N; j++) {
      let s = 0;
      const bCol = b.off + j * b.cs;
      for (let k = 0; k < K; k++) s += A[aRow + k * a.cs] * B[bCol + k * b.rs];
      O[out.off + i * out.rs + j * out.cs] = s;
    }
  }
}

function matmulBig(out: MatView, a: MatView, b: MatView, M: number, K: number, N: number, where: string): void {
  const A = a.data, B = b.data;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0n;
      for (let k = 0; k < K; k++) {
        const av = A[a.off + i * a.rs + k * a.cs];
        if (av !== 0) s += BigInt(av) * BigInt(B[b.off + k * b.rs + j * b.cs]);
      }
      out.data[out.off + i * out.rs + j * out.cs] = toExact(s, where);
    }
  }
}
