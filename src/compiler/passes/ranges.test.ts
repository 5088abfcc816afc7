import { describe, expect, it } from 'vitest';
import { at, GraphBuilder } from './testing';
import { intTypeOf, valueRanges } from './ranges';

describe('value ranges', () => {
  it('bounds requant outputs by their levels, keeps ranges through data movement, widens through arithmetic', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2, 4], 'int8'), cache = b.input('cache', [2, 0], 'int16');
    const u = b.requant(b.input('f', [2, 4]), 8, { signed: false });
    const t = b.node('Transpose', [x], { perm: at.ints([1, 0]) });
    const c = b.node('Concat', [cache, x], { axis: at.int(1) });
    const s = b.node('Add', [x, u]);
    const m = b.node('MatMul', [x, b.init('w', [4, 3], [-2, 5])]);
    const p = b.node('iSoftmax', [x], { coeffA: at.int(1), coeffB: at.int(64), coeffC: at.int(2136), log2: at.int(47), n_levels: at.int(256) });
    for (const o of [t, c, s, m, p]) b.output(o);
    const r = valueRanges(b.build());
    expect(r.get(u)).toEqual([0, 255]);
    expect(r.get(t)).toEqual([-128, 127]);
    expect(r.get(c)).toEqual([-128, 127]); // the empty int16 cache contributes nothing
    expect(r.get(s)).toEqual([-128, 382]);
    expect(r.get(m)).toEqual([-(128 * 5 * 4), 128 * 5 * 4]);
    expect(r.get(p)).toEqual([0, 255]);
    expect(r.get('f')).toEqual([-Infinity, Infinity]); // a FLOAT input: unknown
    expect([intTypeOf([-128, 127]), intTypeOf([0, 255]), intTypeOf([-128, 382]), intTypeOf([0, 2 ** 40])]).toEqual(['int8', 'uint8', 'int16', undefined]);
  });
});
