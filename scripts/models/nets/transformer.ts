// transformer-block: one int8 pre-norm encoder block (iLayerNorm, 4-head self-attention,
// iGELU MLP, residual sums), the way QuantLib exports a quantized transformer for Deeploy.
import { GraphBuilder } from '../builder';
import { embeddings } from '../data';
import { gelu, layerNorm, linear, requant, residual } from '../layers';
import { reshape, scaledSoftmax } from './attention';

export const ENCODER = { seq: 16, dim: 64, heads: 4, mlp: 256 };

export function transformerBlock(seed: number): GraphBuilder {
  const { seq: S, dim: D, heads: H, mlp } = ENCODER, Dh = D / H;
  const b = new GraphBuilder('transformer-block', seed);
  const x = b.input('x', embeddings(b.rng('input/x'), S, D));

  // Self-attention: project, split into heads [1, H, S, Dh] (keys transposed to [1, H, Dh, S]).
  const h = layerNorm(b, 'attn_norm', x);
  const heads = (name: string, perm: number[]) => {
    const t = linear(b, `attn/${name}_proj`, h, D, { bias: 'random' });
    return b.node('Transpose', `attn/${name}_heads`, [reshape(b, `attn/${name}_split`, t, [1, S, H, Dh])], { perm });
  };
  const q = heads('q', [0, 2, 1, 3]), k = heads('k', [0, 2, 3, 1]), v = heads('v', [0, 2, 1, 3]);
  const probs = scaledSoftmax(b, 'attn', b.node('MatMul', 'attn/scores', [q, k]), Dh);
  const ctx = requant(b, 'attn/context/requant', b.node('MatMul', 'attn/context', [probs, v]));
  const merged = reshape(b, 'attn/merge', b.node('Transpose', 'attn/merge_heads', [ctx], { perm: [0, 2, 1, 3] }), [1, S, D]);
  const attnOut = linear(b, 'attn/o_proj', merged, D, { bias: 'random', target: 60 });
  const x1 = residual(b, 'attn/residual', x, attnOut);

  // MLP: fc1 -> iGELU -> fc2.
  const h2 = layerNorm(b, 'mlp_norm', x1);
  const f1 = linear(b, 'mlp/fc1', h2, mlp, { bias: 'random' });
  const act = requant(b, 'mlp/gelu/requant', gelu(b, 'mlp/gelu', f1));
  const f2 = linear(b, 'mlp/fc2', act, D, { bias: 'random', target: 60 });
  const y = residual(b, 'mlp/residual', x1, f2, { out: 'y' });
  b.output(y);
  return b;
}
