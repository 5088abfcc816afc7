// Pieces of int8 multi-head attention shared by the transformer block and microLlama.
import type { GraphBuilder } from '../builder';
import { fixedRequant, requant, softmax } from '../layers';

export function reshape(b: GraphBuilder, name: string, x: string, shape: number[]): string {
  return b.node('Reshape', name, [x, b.int64(`${name}/shape`, shape)]);
}

/** TrueIntegerDiv's constants as QuantLib exports them; only y (sqrt of the head size) varies. */
const DIV = { Delta: 2 ** 14, eps: 1, eta: 200000 };

/**
 * scores (int32) -> int8 -> divided by sqrt(head size) -> [+ mask] -> iSoftmax -> int8
 * probabilities. TrueIntegerDiv multiplies by floor(Delta/y) and the RequantShift after it
 * divides by Delta (mul 4, div 2^16), so together they divide by y, exactly as QuantLib
 * writes it (and as Siracusa folds it into one requant).
 */
export function scaledSoftmax(b: GraphBuilder, p: string, scores: string, headDim: number, mask?: string): string {
  const s8 = requant(b, `${p}/scores/requant`, scores);
  const y = Math.round(Math.sqrt(headDim));
  if (y * y !== headDim) throw new Error(`${p}: head size ${headDim} is not a square`);
  const div = b.node('TrueIntegerDiv', `${p}/scale`, [s8], { ...DIV, y });
  let x = fixedRequant(b, `${p}/scale/requant`, div, 2 ** 16 / DIV.Delta, 16);
  if (mask) {
    const m = fixedRequant(b, `${p}/mask/requant`, mask, 2 ** 16, 16, { kind: 'mask' });
    const sum = b.node('Add', `${p}/mask_add`, [x, m]);
    x = fixedRequant(b, `${p}/mask_add/requant`, sum, 2 ** 16, 16, { kind: 'mask' });
  }
  const probs = softmax(b, `${p}/softmax`, x);
  return requant(b, `${p}/softmax/requant`, probs);
}
