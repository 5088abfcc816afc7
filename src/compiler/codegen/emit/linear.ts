// Matrix products: Gemm / MatMul with an int32 result, and the cluster's RequantizedGemm /
// RequantizedMatMul (A [.., M, K] times B [.., N, K]).
import { fail } from '../../../common/errors';
import { levelsRange } from '../../ops/core/requant';
import { broadcastIndex, numel, sameShape } from '../../ops/core/tensor';
import { matmulPlan } from '../../ops/matmul';
import { shiftOf } from '../../ops/requantized';
import { paramInit } from '../layout';
import { input, need8, offArg, signedFlag, tag } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';

/** The dpg_gemm_geom_t of a (batched, broadcast) product, with batch offset tables when operands broadcast. */
function gemmGeom(l: LayerSpec, out: EmitSink, transA: boolean, transB: boolean): void {
  const a = input(l, 0, 'A'), b = input(l, 1, 'B');
  const p = matmulPlan(a.shape, b.shape, transA, transB, l.where);
  const nb = numel(p.batch);
  const offsets = (own: number[], size: number, name: string) => {
    if (sameShape(own, p.batch)) return 'NULL';
    const idx = Array.from(broadcastIndex(own, p.batch), (i) => i * size);
    return out.constant(idx, 'uint32', `${l.id}_${name}_batch`, l.where);
  };
  const aOff = offsets(p.aBatch, p.M * p.K, 'a'), bOff = offsets(p.bBatch, p.K * p.N, 'b');
  out.decl(`static const dpg_gemm_geom_t ${l.id}_geom = {.batch = ${nb}, .M = ${p.M}, .K = ${p.K}, .N = ${p.N}, ` +
    `.trans_a = ${transA ? 1 : 0}, .trans_b = ${transB ? 1 : 0}, .a_off = ${aOff}, .b_off = ${bOff}};`);
}

const gemm: Emitter = {
  family: /^(Gemm|MatMul)_/,
  offsets: 'absorb',
  emit(l, out) {
    const a = input(l, 0, 'A'), b = input(l, 1, 'B'), y = l.outs[0];
    const isGemm = l.node.op === 'Gemm';
    const alpha = isGemm ? (l.attrs.alpha as number) : 1, beta = isGemm ? (l.attrs.beta as number) : 0;
    if (!Number.isInteger(alpha) || !Number.isInteger(beta)) fail('not-implemented', `alpha = ${alpha}, beta = ${beta}; the kernel takes integers`, l.where);
    gemmGeom(l, out, isGemm && !!l.attrs.transA, isGemm && !!l.attrs.transB);
    const c = isGemm ? l.ins[2] : undefined;
    const bias = c && beta !== 0 ? `(dpg_param_t)${paramInit(out, c, y.shape, 'bias C', l.where)}` : '(dpg_param_t){NULL, 1, 1}';
    out.step(`dpg_gemm(${out.data(a)}, ${tag(a)}, ${offArg(a)}, ${out.data(b)}, ${tag(b)}, ${offArg(b)}, ${bias}, ${alpha}, ${beta}, ` +
      `${out.data(y)}, ${tag(y)}, &${l.id}_geom);`);
  },
};

const rqGemm: Emitter = {
  family: /^Requantized(Gemm|MatMul)_/,
  offsets: 'none',
  emit(l, out) {
    const a = input(l, 0, 'A'), b = input(l, 1, 'B'), y = l.outs[0];
    need8(l, a, 'input A');
    need8(l, b, 'input B');
    need8(l, y, 'output');
    if (l.attrs.transA || !l.attrs.transB) fail('internal', 'RequantizedGemm must be normalised to transA = 0, transB = 1', l.where);
    gemmGeom(l, out, false, true);
    const mul = paramInit(out, input(l, 3, 'mul'), y.shape, 'mul', l.where);
    const add = paramInit(out, input(l, 2, 'bias C'), y.shape, 'bias C', l.where);
    const shift = shiftOf(l.attrs as never, undefined, l.where);
    const [lo, hi] = levelsRange(l.attrs.n_levels as number, !!l.attrs.signed, l.where);
    out.step(`dpg_rq_gemm((const uint8_t *)${out.data(a)}, ${signedFlag(a)}, (const uint8_t *)${out.data(b)}, ${signedFlag(b)}, ` +
      `(dpg_param_t)${mul}, (dpg_param_t)${add}, ${shift}, ${lo}, ${hi}, (uint8_t *)${out.data(y)}, &${l.id}_geom);`);
  },
};

export const linearEmitters: Emitter[] = [rqGemm, gemm];
