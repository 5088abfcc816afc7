// Input data for the built-in models: a small synthetic picture, token embeddings, the causal
// mask and the rotary position embedding (RoPE) matrices, all as exact integers.
import type { IntTensor } from '../../src/compiler/ops/core/tensor';
import type { Rng } from './prng';

const clip = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round = (v: number): number => Math.round(v) + 0;

/**
 * A 3-channel HxW picture with values 0..255: a colour gradient, a bright disc, a dark
 * rectangle and some sensor noise (so the convolutions see edges, flat areas and texture).
 */
export function syntheticImage(rng: Rng, H: number, W: number): IntTensor {
  const data = new Float64Array(3 * H * W);
  const cx = rng.range(0.3, 0.7) * W, cy = rng.range(0.3, 0.7) * H, r = rng.range(0.2, 0.3) * Math.min(H, W);
  const rx0 = rng.int(0, W >> 1), ry0 = rng.int(0, H >> 1), rw = rng.int(3, W >> 1), rh = rng.int(3, H >> 1);
  const disc = [rng.int(180, 255), rng.int(120, 255), rng.int(0, 120)];
  const base = [[rng.int(20, 80), rng.int(100, 160)], [rng.int(60, 120), rng.int(20, 80)], [rng.int(100, 200), rng.int(40, 100)]];
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        let v = base[c][0] + ((base[c][1] - base[c][0]) * (x + y)) / (H + W - 2);
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) v = disc[c];
        if (x >= rx0 && x < rx0 + rw && y >= ry0 && y < ry0 + rh) v = v * 0.25;
        data[(c * H + y) * W + x] = clip(round(v + rng.normal() * 6), 0, 255);
      }
  return { shape: [1, 3, H, W], data };
}

/** [1, S, D] int8 vectors: Gaussian with std ~30 and a random gain per row (token). */
export function embeddings(rng: Rng, S: number, D: number): IntTensor {
  const data = new Float64Array(S * D);
  for (let s = 0; s < S; s++) {
    const gain = rng.range(0.6, 1.4);
    for (let d = 0; d < D; d++) data[s * D + d] = clip(round(rng.normal() * 30 * gain), -128, 127);
  }
  return { shape: [1, S, D], data };
}

/** The causal attention mask of a prefill of S tokens: 0 where key j <= query i, -128 after. */
export function causalMask(S: number): IntTensor {
  const data = new Float64Array(S * S);
  for (let i = 0; i < S; i++) for (let j = i + 1; j < S; j++) data[i * S + j] = -128;
  return { shape: [1, S, S], data };
}

/** cos and sin of an angle, by their Taylor series (basic float arithmetic only: the same everywhere). */
function cosSin(angle: number): [number, number] {
  const t = angle - 2 * Math.PI * Math.round(angle / (2 * Math.PI)); // into [-pi, pi]
  let c = 0, s = 0, term = 1;
  for (let n = 0; n < 40; n++) {
    // term = t^n / n!
    if (n % 4 === 0) c += term;
    else if (n % 4 === 1) s += term;
    else if (n % 4 === 2) c -= term;
    else s -= term;
    term = (term * t) / (n + 1);
  }
  return [c, s];
}

/**
 * RoPE as the microLlama networks take it: one 4x4 int8 matrix per position (scaled by 127)
 * that a head's 4-vector multiplies from the left (q @ R), rotating the pairs (0, 2) and (1, 3)
 * by pos * theta_i with theta = 10000^(-2i/4) = 1 and 1/100. `positions` are absolute.
 */
export function rope(positions: number[], headDim = 4): IntTensor {
  if (headDim !== 4) throw new Error('rope: written for head dimension 4');
  const thetas = [1, 0.01];
  const data = new Float64Array(positions.length * 16);
  positions.forEach((pos, p) => {
    const R = data.subarray(p * 16, p * 16 + 16);
    thetas.forEach((theta, i) => {
      const [c, s] = cosSin(pos * theta);
      const a = i, b = i + 2; // the pair (a, b)
      R[a * 4 + a] = round(127 * c);
      R[b * 4 + b] = round(127 * c);
      R[a * 4 + b] = round(127 * s); // q'[b] = q[a] sin + q[b] cos
      R[b * 4 + a] = -round(127 * s) + 0; // q'[a] = q[a] cos - q[b] sin
    });
  });
  return { shape: [1, positions.length, 4, 4], data };
}
