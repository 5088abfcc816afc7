// The fused ops must equal the compositions they replace, exactly: hand-computed cases plus
// seeded random inputs run through both the fused node and the unfused pair.
import { describe, expect, it } from 'vitest';
import type { Attr, Graph, Node } from '../ir/graph';
import { run } from '../interpret/interpret';
import { tensor, type IntTensor } from './core/tensor';
import { A, errorOf, evalData, evalOp, init, inp } from './testing';

/** A tiny deterministic PRNG (mulberry32). */
function rng(seed: number) {
  return (lo: number, hi: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(u * (hi - lo + 1));
  };
}

interface Spec { inputs: Record<string, number[]>; inits: Record<string, { shape: number[]; data: number[] }>; nodes: Node[]; output: string }

function graph(s: Spec): Graph {
  return {
    name: 't', nodes: s.nodes, opsets: [{ domain: '', version: 13 }], types: {},
    inputs: Object.entries(s.inputs).map(([name, shape]) => ({ name, dtype: 'float32', shape })),
    outputs: [{ name: s.output, dtype: 'float32', shape: [] }],
    initializers: Object.fromEntries(Object.entries(s.inits).map(([name, t]) =>
      [name, { name, dtype: 'int64' as const, shape: t.shape, data: BigInt64Array.from(t.data.map(BigInt)) }])),
  };
}

const node = (op: string, inputs: string[], output: string, attrs: Record<string, Attr> = {}): Node =>
  ({ name: `${op}_${output}`, op, domain: '', inputs, outputs: [output], attrs });

function out(g: Graph, values: IntTensor[]): number[] {
  return Array.from(run(g, values).outputs[0].data, (v) => v + 0);
}

const rqAttrs = (s: number, n = 256, signed = 1) => ({ div: A.int(2 ** s), n_levels_out: A.int(n), signed: A.int(signed) });
const outAttrs = (s: number, n = 256, signed = 1) => ({ shift: A.int(s), n_levels: A.int(n), signed: A.int(signed) });

describe('RequantizedConv', () => {
  it('is Conv then RequantShift with the rounding folded into add', () => {
    // conv([1,2,3], [1,1]) = [3, 5]; (3*3 + 0 + 2) >> 2 = 2, (15 + 2) >> 2 = 4
    expect(evalData('RequantizedConv', [inp([1, 1, 3], [1, 2, 3]), init([1, 1, 2], [1, 1]), init([1], [3]), init([1], [2])], outAttrs(2)))
      .toEqual([2, 4]);
  });
  it('matches the composition on random inputs (2-D, depthwise, strided, per-channel)', () => {
    const r = rng(1);
    for (let trial = 0; trial < 20; trial++) {
      const C = 4, H = 6, W = 5, s = r(4, 12);
      const dw = trial % 2 === 0;
      const M = dw ? C : 3, Cg = dw ? 1 : C;
      const x = Array.from({ length: C * H * W }, () => r(-128, 127));
      const w = Array.from({ length: M * Cg * 9 }, () => r(-128, 127));
      const mul = Array.from({ length: M }, () => r(-300, 300));
      const add = Array.from({ length: M }, () => r(-(2 ** 16), 2 ** 16));
      const conv = { pads: A.ints([1, 1, 1, 1]), strides: A.ints([1 + (trial % 3 === 0 ? 1 : 0), 1]), group: A.int(dw ? C : 1) };
      const inits = { w: { shape: [M, Cg, 3, 3], data: w }, mul: { shape: [M, 1, 1], data: mul }, add: { shape: [M, 1, 1], data: add },
        addR: { shape: [M, 1, 1], data: add.map((a) => a + 2 ** (s - 1)) } };
      const xs = [tensor([1, C, H, W], x)];
      const ref = out(graph({ inputs: { x: [1, C, H, W] }, inits, output: 'y',
        nodes: [node('Conv', ['x', 'w'], 'c', conv), node('RequantShift', ['c', 'mul', 'add'], 'y', rqAttrs(s))] }), xs);
      const fused = out(graph({ inputs: { x: [1, C, H, W] }, inits, output: 'y',
        nodes: [node('RequantizedConv', ['x', 'w', 'mul', 'addR'], 'y', { ...conv, ...outAttrs(s) })] }), xs);
      expect(fused).toEqual(ref);
    }
  });
  it('takes the shift from div or a shift input when there is no shift attribute', () => {
    const ins = [inp([1, 1, 3], [1, 2, 3]), init([1, 1, 2], [1, 1]), init([1], [3]), init([1], [2])];
    expect(evalData('RequantizedConv', ins, { div: A.int(4), n_levels: A.int(256), signed: A.int(1) })).toEqual([2, 4]);
    expect(evalData('RequantizedConv', [...ins, init([], [2])], { n_levels: A.int(256), signed: A.int(1) })).toEqual([2, 4]);
    expect(errorOf(() => evalOp('RequantizedConv', ins, { n_levels: A.int(256), signed: A.int(1) })).code).toBe('bad-graph');
  });
});

describe('RequantizedGemm', () => {
  it("is Gemm then RequantShift with C' = bias*mul + add + 2^(s-1), transB = 1", () => {
    // A = [[1,2]], B^T rows [1,1] and [2,-1]: AB = [3, 0]; mul [2, 3]; bias [1, 1] -> C' = [2, 3] + 0 + 2
    expect(evalData('RequantizedGemm', [inp([1, 2], [1, 2]), init([2, 2], [1, 1, 2, -1]), init([2], [4, 5]), init([2], [2, 3])],
      { transB: A.int(1), ...outAttrs(2) })).toEqual([2, 1]); // (6+4)>>2 = 2, (0+5)>>2 = 1
  });
  it('matches Gemm + RequantShift and batched MatMul + RequantShift on random inputs', () => {
    const r = rng(2);
    for (let trial = 0; trial < 20; trial++) {
      const M = 3, K = 7, N = 5, s = r(6, 14);
      const a = Array.from({ length: M * K }, () => r(-128, 127)), b = Array.from({ length: N * K }, () => r(-128, 127));
      const bias = Array.from({ length: N }, () => r(-5000, 5000)), mul = Array.from({ length: N }, () => r(1, 400));
      const add = r(-1000, 1000);
      const inits = { b: { shape: [N, K], data: b }, bias: { shape: [N], data: bias }, mul: { shape: [N], data: mul },
        add: { shape: [], data: [add] }, c: { shape: [N], data: bias.map((v, j) => v * mul[j] + add + 2 ** (s - 1)) } };
      const xs = [tensor([M, K], a)];
      const ref = out(graph({ inputs: { a: [M, K] }, inits, output: 'y',
        nodes: [node('Gemm', ['a', 'b', 'bias'], 'g', { transB: A.int(1) }), node('RequantShift', ['g', 'mul', 'add'], 'y', rqAttrs(s))] }), xs);
      const fused = out(graph({ inputs: { a: [M, K] }, inits, output: 'y',
        nodes: [node('RequantizedGemm', ['a', 'b', 'c', 'mul'], 'y', { transB: A.int(1), ...outAttrs(s) })] }), xs);
      expect(fused).toEqual(ref);
    }
    // Batched, as MatMul + RequantShift becomes in microLlama: [1,2,3,4] x [1,2,4,2], scalar requant.
    const x = Array.from({ length: 24 }, () => r(-128, 127)), y = Array.from({ length: 16 }, () => r(-128, 127));
    const inits = { mul: { shape: [], data: [97] }, add: { shape: [], data: [0] }, c: { shape: [], data: [2 ** 15] } };
    const vals = [tensor([1, 2, 3, 4], x), tensor([1, 2, 4, 2], y)];
    const ref = out(graph({ inputs: { x: [1, 2, 3, 4], y: [1, 2, 4, 2] }, inits, output: 'o',
      nodes: [node('MatMul', ['x', 'y'], 'm'), node('RequantShift', ['m', 'mul', 'add'], 'o', rqAttrs(16))] }), vals);
    const fused = out(graph({ inputs: { x: [1, 2, 3, 4], y: [1, 2, 4, 2] }, inits, output: 'o',
      nodes: [node('RequantizedGemm', ['x', 'y', 'c', 'mul'], 'o', outAttrs(16))] }), vals);
    expect(fused).toEqual(ref);
  });
  it('rejects alpha/beta other than 1', () => {
    expect(errorOf(() => evalOp('RequantizedGemm', [inp([1, 1], [1]), init([1, 1], [1]), init([1], [0]), init([1], [1])],
      { alpha: A.float(2), ...outAttrs(1) })).code).toBe('not-implemented');
  });
});

describe('RequantizedAdd', () => {
  it('y = RQout(clip(RQ1(a)) + clip(RQ2(b)))', () => {
    // RQ1: (a*3 + 2) >> 2; RQ2: identity; out: (v*1 + 1) >> 1
    // a = 10 -> 32 >> 2 = 8; b = 5 -> 8 + 5 = 13 -> 14 >> 1 = 7
    expect(evalData('RequantizedAdd', [inp([1], [10]), inp([1], [5])],
      { rqs1_mul: A.int(3), rqs1_add: A.int(2), rqs1_shift: A.int(2), rqsOut_mul: A.int(1), rqsOut_add: A.int(1), rqsOut_div: A.int(2) }))
      .toEqual([7]);
  });
  it('clips the requantized inputs before adding', () => {
    // RQ1 saturates at 127: 127 + 127 = 254 -> output clip 127 (signed 256 levels)
    expect(evalData('RequantizedAdd', [inp([1], [1000]), inp([1], [127])], { rqs1_mul: A.int(1) })).toEqual([127]);
    expect(evalData('RequantizedAdd', [inp([1], [1000]), inp([1], [127])], { rqsOut_n_levels: A.int(1024) })).toEqual([254]);
  });
  it('matches RequantShift x2 + Add + RequantShift on random inputs', () => {
    const r = rng(3);
    for (let trial = 0; trial < 20; trial++) {
      const n = 16, s1 = r(1, 16), s2 = r(1, 16), so = r(1, 16);
      const m1 = r(1, 2 ** 15), m2 = r(1, 2 ** 15), mo = r(1, 2 ** 15), a1 = r(-999, 999), a2 = r(-999, 999), ao = r(-999, 999);
      const a = Array.from({ length: n }, () => r(-2000, 2000)), b = Array.from({ length: n }, () => r(-2000, 2000));
      const inits = { m1: { shape: [], data: [m1] }, m2: { shape: [], data: [m2] }, mo: { shape: [], data: [mo] },
        a1: { shape: [], data: [a1] }, a2: { shape: [], data: [a2] }, ao: { shape: [], data: [ao] } };
      const vals = [tensor([n], a), tensor([n], b)];
      const ref = out(graph({ inputs: { a: [n], b: [n] }, inits, output: 'y', nodes: [
        node('RequantShift', ['a', 'm1', 'a1'], 'ra', rqAttrs(s1)), node('RequantShift', ['b', 'm2', 'a2'], 'rb', rqAttrs(s2)),
        node('Add', ['ra', 'rb'], 's'), node('RequantShift', ['s', 'mo', 'ao'], 'y', rqAttrs(so))] }), vals);
      const attrs = {
        rqs1_mul: A.int(m1), rqs1_add: A.int(a1 + 2 ** (s1 - 1)), rqs1_div: A.t([2 ** s1], []), rqs1_n_levels_out: A.t([256]), rqs1_signed: A.t([1]),
        rqs2_mul: A.int(m2), rqs2_add: A.int(a2 + 2 ** (s2 - 1)), rqs2_shift: A.int(s2),
        rqsOut_mul: A.int(mo), rqsOut_add: A.int(ao + 2 ** (so - 1)), rqsOut_shift: A.int(so),
      };
      const fused = out(graph({ inputs: { a: [n], b: [n] }, inits: {}, output: 'y', nodes: [node('RequantizedAdd', ['a', 'b'], 'y', attrs)] }), vals);
      expect(fused).toEqual(ref);
    }
  });
});

describe('RequantizediHardswish / RequantizediGELU / RQIntegerDiv', () => {
  it('each equals its op followed by RequantShift (random inputs)', () => {
    const r = rng(4);
    for (let trial = 0; trial < 10; trial++) {
      const n = 32, s = r(2, 14), mul = r(1, 500), add = r(-5000, 5000);
      const x = Array.from({ length: n }, () => r(-128, 127)), d = Array.from({ length: n }, () => r(1, 127));
      const inits = { mul: { shape: [], data: [mul] }, add: { shape: [], data: [add] }, sh: { shape: [], data: [s] } };
      const vals = [tensor([n], x)];
      const hs = { one_over_six: A.int(r(1, 60)), three: A.int(r(50, 800)), six: A.int(r(800, 1600)) };
      const refHs = out(graph({ inputs: { x: [n] }, inits, output: 'y',
        nodes: [node('iHardswish', ['x'], 'h', hs), node('RequantShift', ['h', 'mul', 'add'], 'y', rqAttrs(s))] }), vals);
      const fusedHs = out(graph({ inputs: { x: [n] }, inits: {}, output: 'y',
        nodes: [node('RequantizediHardswish', ['x'], 'y', { ...hs, mul: A.int(mul), add: A.int(add), ...outAttrs(s) })] }), vals);
      expect(fusedHs).toEqual(refHs);

      const gelu = { b: A.int(-r(10, 60)), one: A.int(r(200, 2000)) };
      const refG = out(graph({ inputs: { x: [n] }, inits, output: 'y',
        nodes: [node('iGELU', ['x'], 'h', gelu), node('RequantShift', ['h', 'mul', 'add'], 'y', rqAttrs(s))] }), vals);
      const fusedG = out(graph({ inputs: { x: [n] }, inits, output: 'y',
        nodes: [node('RequantizediGELU', ['x', 'mul', 'add', 'sh'], 'y', { ...gelu, n_levels: A.int(256), signed: A.int(1) })] }), vals);
      expect(fusedG).toEqual(refG);

      const div = { Delta: A.int(r(1, 2 ** 14)), eta: A.int(r(1, 1000)), eps: A.int(r(1, 10)) };
      const vals2 = [tensor([n], x), tensor([n], d)];
      const refD = out(graph({ inputs: { x: [n], d: [n] }, inits, output: 'y',
        nodes: [node('IntegerDiv', ['x', 'd'], 'h', div), node('RequantShift', ['h', 'mul', 'add'], 'y', rqAttrs(s))] }), vals2);
      const fusedD = out(graph({ inputs: { x: [n], d: [n] }, inits, output: 'y',
        nodes: [node('RQIntegerDiv', ['x', 'd', 'mul', 'add'], 'y', { ...div, ...outAttrs(s) })] }), vals2);
      expect(fusedD).toEqual(refD);
    }
  });
  it('hand-computed RequantizediHardswish', () => {
    // ihardswish(5) = 60 (see iHardswish test); (60*3 + 1 + 2) >> 2 = 45
    expect(evalData('RequantizediHardswish', [inp([1], [5])],
      { one_over_six: A.int(2), three: A.int(3), six: A.int(6), mul: A.int(3), add: A.int(1), ...outAttrs(2) })).toEqual([45]);
  });
});
