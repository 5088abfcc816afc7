// Property test of the lowering: seeded random conv and GEMM networks (ranks, strides, pads,
// dilations, groups, biases, per-channel / per-row / scalar requants, transposed operands,
// residual Adds) go through every platform's pipeline; every snapshot must compute exactly
// what the input graph computes, and binding either succeeds or names what is missing.
import { describe, expect, it } from 'vitest';
import type { Graph } from '../ir/graph';
import { int, mulberry32, pick, type Rng } from '../fuzz/prng';
import { at, GraphBuilder, randomInputs } from '../passes/testing';
import { DEFAULT_CONFIG, PLATFORMS } from '../config';
import { lowerGraph } from './lower';

function convNet(rng: Rng): Graph {
  const b = new GraphBuilder();
  const oneD = rng() < 0.3;
  const C = pick(rng, [2, 3, 4, 8]);
  let S = oneD ? [int(rng, 6, 12)] : [int(rng, 5, 9), int(rng, 5, 9)];
  let x = b.input('x', [1, C, ...S]);
  let ch = C;
  const layers = int(rng, 1, 3);
  for (let l = 0; l < layers; l++) {
    const dw = rng() < 0.4;
    const M = dw ? ch : pick(rng, [2, 4, 8]);
    const k = pick(rng, [1, 3]);
    let stride = rng() < 0.3 ? 2 : 1, dil = rng() < 0.15 ? 2 : 1, pad = k === 3 && rng() < 0.7 ? 1 : 0;
    if (S.some((d) => d + 2 * pad < dil * (k - 1) + 1)) [stride, dil, pad] = [1, 1, (k - 1) / 2];
    const ks = S.map(() => k);
    const inputs = [x, b.rand(`w${l}`, [M, dw ? 1 : ch, ...ks], -20, 20)];
    if (rng() < 0.4) inputs.push(b.rand(`b${l}`, [M], -500, 500));
    const conv = b.node('Conv', inputs, {
      kernel_shape: at.ints(ks), strides: at.ints(S.map(() => stride)), dilations: at.ints(S.map(() => dil)),
      pads: at.ints([...S, ...S].map(() => pad)), group: at.int(dw ? ch : 1),
    });
    const perChannel = rng() < 0.6;
    const y = b.requant(conv, int(rng, 6, 12), { mulShape: perChannel ? [M, ...S.map(() => 1)] : [], signed: rng() < 0.8 });
    if (rng() < 0.3 && M === ch && stride === 1 && pad * 2 === (k - 1) * dil) {
      // A residual: both branches requantized, then the sum requantized.
      x = b.requant(b.node('Add', [b.requant(y, 4, { mul: [8, 20] }), b.requant(x, 4, { mul: [8, 20] })]), 5, { mul: [10, 30] });
    } else x = y;
    ch = M;
    S = S.map((d) => Math.floor((d + 2 * pad - dil * (k - 1) - 1) / stride) + 1);
    if (rng() < 0.25 && S.every((d) => d >= 2)) {
      x = b.node('MaxPool', [x], { kernel_shape: at.ints(S.map(() => 2)), strides: at.ints(S.map(() => 1)) });
      S = S.map((d) => d - 1);
    }
  }
  if (rng() < 0.5) {
    const f = b.node('Flatten', [x], { axis: at.int(1) });
    const n = pick(rng, [3, 5]);
    const g = b.node('Gemm', [f, b.rand('wf', [n, b.build().types[f].shape[1]], -10, 10), b.rand('bf', [n], -100, 100)], { transB: at.int(1) });
    x = b.requant(g, 10);
  }
  b.output(x);
  return b.build();
}

function gemmNet(rng: Rng): Graph {
  const b = new GraphBuilder();
  const batch = rng() < 0.4 ? [int(rng, 1, 3)] : [];
  const M = int(rng, 1, 5), K = int(rng, 2, 9), N = int(rng, 2, 7);
  const transA = batch.length === 0 && rng() < 0.3, transB = rng() < 0.5;
  const a = b.input('a', [...batch, ...(transA ? [K, M] : [M, K])]);
  const constW = rng() < 0.7;
  const wBatch = constW ? [] : batch;
  const w = constW ? b.rand('w', transB ? [N, K] : [K, N], -30, 30) : b.input('w', [...wBatch, ...(transB ? [N, K] : [K, N])]);
  let y: string;
  if (batch.length === 0 && rng() < 0.5) {
    const cshape = pick(rng, [[N], [M, N], [1, N], []]);
    const inputs = [a, w];
    if (rng() < 0.7) inputs.push(b.rand('c', cshape, -300, 300));
    y = b.node('Gemm', inputs, { transA: at.int(transA ? 1 : 0), transB: at.int(transB ? 1 : 0), alpha: at.float(pick(rng, [1, 2])), beta: at.float(pick(rng, [1, 3])) });
  } else {
    const swap = (t: string, lead: number[]) => b.node('Transpose', [t], { perm: at.ints([...lead.map((_, i) => i), lead.length + 1, lead.length]) });
    y = b.node('MatMul', [transA ? swap(a, batch) : a, transB ? swap(w, wBatch) : w]);
    if (rng() < 0.5) y = b.node('Add', [y, b.rand('bias', [N], -200, 200)]);
  }
  const params = pick(rng, [[], [N], [M, 1]]);
  b.output(b.requant(y, int(rng, 6, 11), { mulShape: params, signed: rng() < 0.8 }));
  return b.build();
}

describe('lowering random networks', () => {
  for (const [kind, make] of [['conv', convNet], ['gemm', gemmNet]] as const) {
    it.each(Array.from({ length: 40 }, (_, i) => i + 1))(`${kind} network %i: exact on every platform`, (seed) => {
      const g = make(mulberry32(seed * 7919 + (kind === 'conv' ? 1 : 2)));
      const inputs = randomInputs(g, seed);
      for (const platform of PLATFORMS) {
        const r = lowerGraph(g, { ...DEFAULT_CONFIG, platform }, { inputs });
        for (const c of r.checks) expect({ platform, pass: r.snapshots[c.snapshot].pass, errors: c.errors, error: c.error })
          .toEqual({ platform, pass: r.snapshots[c.snapshot].pass, errors: 0, error: undefined });
        for (const f of r.failures) expect(f.reason).toMatch(/kernel/);
      }
    });
  }
});
