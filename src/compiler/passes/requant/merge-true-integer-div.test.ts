import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder, opsOf, at } from '../testing';
import { mergeTrueIntegerDiv } from './merge-true-integer-div';

describe('merge-true-integer-div', () => {
  it("folds TrueIntegerDiv's multiplier into the next requant's mul; the division disappears", () => {
    const b = new GraphBuilder();
    const x = b.input('x', [16]);
    const d = b.node('TrueIntegerDiv', [x], { Delta: at.int(16384), eps: at.int(1), eta: at.int(200000), y: at.int(2) });
    b.output(b.requant(d, 16, { mul: [1, 8], add: [0, 0] }));
    const { after } = checkPass(mergeTrueIntegerDiv, b.build(), { lo: -20000, hi: 20000 });
    expect(opsOf(after)).toEqual(['RequantShift']);
    expect(after.nodes[0].inputs[0]).toBe('x');
    const coeff = Math.floor((16384 * 200000) / (2 * 200000 + 1)); // 8191, as in microLlama
    expect(coeff).toBe(8191);
    const mul = Number(after.initializers[after.nodes[0].inputs[1]].data[0]);
    expect(mul % coeff).toBe(0);
  });
});
