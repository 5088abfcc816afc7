// microLlama: the int8 Llama decoder of Deeploy's tutorial (microLlama64 / microLlama1), in two
// forms of one network: prefill (all tokens in parallel, empty KV caches in, caches out) and
// decode (one token, the caches of the tokens before it in, the caches grown by one out).
//
// Per layer, as QuantLib exports it: iRMSNorm; q/k/v projections (MatMul + Add + RequantShift);
// heads split with Reshape and Transpose; RoPE as a MatMul with per-position 4x4 matrices; keys
// and values appended to the caches with Concat (with the exporter's unity RequantShifts around
// it); scores scaled by TrueIntegerDiv; the mask added; iSoftmax; output projection; residual;
// iRMSNorm; a gated MLP (iHardswish standing in for SiLU, Mul of gate and up projections);
// residual. A final iRMSNorm gives the hidden state.
import type { IntTensor } from '../../../src/compiler/ops/core/tensor';
import { GraphBuilder } from '../builder';
import { causalMask, embeddings, rope } from '../data';
import { hardswish, linear, requant, residual, rmsNorm, tensor, unityRequant } from '../layers';
import { reshape, scaledSoftmax } from './attention';

/** The sizes of microLlama64_parallel: 8 layers, width 64, 16 heads of 4, MLP 256, 64 tokens. */
export const LLAMA = { layers: 8, dim: 64, heads: 16, headDim: 4, mlp: 256, seq: 64 };

export interface LlamaForm {
  /** Tokens processed by this graph. */
  tokens: number;
  /** Tokens already in the KV caches. */
  past: number;
}

/** The seeded token embeddings of the whole sequence (prefill and decode draw the same). */
function sequence(b: GraphBuilder): IntTensor {
  return embeddings(b.rng('input/embeddings'), LLAMA.seq, LLAMA.dim);
}

function rows(t: IntTensor, from: number, to: number): IntTensor {
  const [, , D] = t.shape;
  return tensor([1, to - from, D], t.data.subarray(from * D, to * D));
}

/** caches[:, :, :n, :] of a [1, H, T, Dh] cache. */
function firstPositions(t: IntTensor, n: number): IntTensor {
  const [, H, T, Dh] = t.shape;
  const out = new Float64Array(H * n * Dh);
  for (let h = 0; h < H; h++) out.set(t.data.subarray(h * T * Dh, (h * T + n) * Dh), h * n * Dh);
  return tensor([1, H, n, Dh], out);
}

/**
 * Builds one form. `calibration` and `caches` come from the prefill when building decode: the
 * same requant parameters, and the first `past` positions of the prefill's caches.
 */
export function microLlama(id: string, seed: number, form: LlamaForm,
  from?: { calibration: Map<string, unknown>; caches: IntTensor[] }): GraphBuilder {
  const { layers, dim: D, heads: H, headDim: Dh, mlp } = LLAMA;
  const S = form.tokens, T = form.past + form.tokens;
  const b = new GraphBuilder(id, seed, { calibration: from?.calibration });

  // Inputs, in the order of Deeploy's microLlama: hidden state, mask, RoPE, caches (k, v per layer).
  let h = b.input('embeddings', rows(sequence(b), form.past, T));
  const mask = b.input('mask', form.past === 0 ? causalMask(S)
    : tensor([T], new Float64Array(T))); // one query sees every cached key: all zeros, like microLlama1
  const ropeIn = b.input('rope', rope(Array.from({ length: S }, (_, i) => form.past + i), Dh));
  const cacheIn: string[] = [];
  for (let l = 0; l < layers; l++)
    for (const kv of ['k', 'v']) {
      const value = from ? firstPositions(from.caches[cacheIn.length], form.past) : tensor([1, H, 0, Dh], []);
      cacheIn.push(b.input(`layer${l}/${kv}_cache`, value));
    }

  const cacheOut: string[] = [];
  for (let l = 0; l < layers; l++) {
    const p = `layer${l}`;
    const x = rmsNorm(b, `${p}/attn_norm`, h);
    const split = (name: string) => reshape(b, `${p}/attn/${name}_split`, linear(b, `${p}/attn/${name}_proj`, x, D), [1, S, H, Dh]);
    const rotate = (name: string, t: string) =>
      requant(b, `${p}/attn/${name}_rope/requant`, b.node('MatMul', `${p}/attn/${name}_rope`, [t, ropeIn]));
    const toHeads = (name: string, t: string) => b.node('Transpose', `${p}/attn/${name}_heads`, [t], { perm: [0, 2, 1, 3] });
    /** Appends this step's keys or values [1, H, S, Dh] to the cache: [1, H, T, Dh], a graph output. */
    const append = (kv: 'k' | 'v', t: string, cache: string) => {
      const c = b.node('Concat', `${p}/attn/${kv}_cache_concat`, [cache, unityRequant(b, `${p}/attn/${kv}_new/requant`, t)], { axis: 2 });
      const out = unityRequant(b, `${p}/attn/${kv}_cache/requant`, c, { out: `${p}/${kv}_cache_out` });
      cacheOut.push(out);
      return out;
    };

    const q = toHeads('q', rotate('q', split('q')));
    const k = append('k', toHeads('k', rotate('k', split('k'))), cacheIn[2 * l]);
    const kT = b.node('Transpose', `${p}/attn/k_transpose`, [k], { perm: [0, 1, 3, 2] });
    const probs = scaledSoftmax(b, `${p}/attn`, b.node('MatMul', `${p}/attn/scores`, [q, kT]), Dh, mask);
    const v = append('v', toHeads('v', split('v')), cacheIn[2 * l + 1]);
    const ctx = requant(b, `${p}/attn/context/requant`, b.node('MatMul', `${p}/attn/context`, [probs, v]));
    const merged = reshape(b, `${p}/attn/merge`, b.node('Transpose', `${p}/attn/merge_heads`, [ctx], { perm: [0, 2, 1, 3] }), [1, S, D]);
    h = residual(b, `${p}/attn/residual`, h, linear(b, `${p}/attn/o_proj`, merged, D, { target: 60 }));

    const y = rmsNorm(b, `${p}/mlp_norm`, h);
    const gate = requant(b, `${p}/mlp/act/requant`, hardswish(b, `${p}/mlp/act`, linear(b, `${p}/mlp/gate_proj`, y, mlp)));
    const up = linear(b, `${p}/mlp/up_proj`, y, mlp);
    const gated = requant(b, `${p}/mlp/gate_mul/requant`, b.node('Mul', `${p}/mlp/gate_mul`, [gate, up]));
    h = residual(b, `${p}/mlp/residual`, h, linear(b, `${p}/mlp/down_proj`, gated, D, { target: 60 }));
  }
  b.output(rmsNorm(b, 'final_norm', h, { out: 'hidden' }));
  for (const c of cacheOut) b.output(c);
  return b;
}

export const PREFILL: LlamaForm = { tokens: LLAMA.seq, past: 0 };
/** The last token of the prefill's sequence, with the 63 before it cached. */
export const DECODE: LlamaForm = { tokens: 1, past: LLAMA.seq - 1 };
