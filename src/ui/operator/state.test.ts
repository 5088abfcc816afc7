// The Operator pane's pure rules: applying an op into the session's list, the test maker's
// fields, and reading ops back from a link or storage (every malformed field named).
import { describe, expect, it } from 'vitest';
import type { UserOp } from '../../compiler/ops/user/spec';
import { BadOp, readOps } from './read';
import { EMPTY_SPEC, parseAttrValue, parseShape, testOptions, unapplied, withApplied } from './state';

const op = (name: string, kernel = ''): UserOp => ({ spec: { ...EMPTY_SPEC, op: name, semantics: 'x' }, kernel });

describe('applying ops', () => {
  it('adds a new op, replaces the one it was opened from (even renamed), and keeps the order', () => {
    const a = op('A'), b = op('B');
    expect(withApplied([], a, null)).toEqual([a]);
    expect(withApplied([a, b], op('A', 'k'), 'A')).toEqual([op('A', 'k'), b]);
    expect(withApplied([a, b], op('C'), 'A')).toEqual([op('C'), b]);
    // A new op with the type of an applied one replaces it.
    expect(withApplied([a, b], op('B', 'k'), null)).toEqual([a, op('B', 'k')]);
  });

  it('says when the draft differs from what is applied', () => {
    const a = op('A');
    expect(unapplied([a], { draft: a, editing: 'A', test: { shapes: [], attrs: {}, seed: '1' } })).toBe(false);
    expect(unapplied([a], { draft: op('A', 'x'), editing: 'A', test: { shapes: [], attrs: {}, seed: '1' } })).toBe(true);
    expect(unapplied([a], { draft: a, editing: null, test: { shapes: [], attrs: {}, seed: '1' } })).toBe(true);
  });
});

describe('the test maker\'s fields', () => {
  it('reads shapes, attribute values and the seed', () => {
    expect(parseShape('1x16x64x64')).toEqual([1, 16, 64, 64]);
    expect(parseShape(' 1, 16 ,64 ')).toEqual([1, 16, 64]);
    for (const bad of ['', '1x0', 'x', '1xx2', '-1', '1.5']) expect(parseShape(bad), bad).toBeNull();
    expect(parseAttrValue('3', 'int')).toBe(3);
    expect(parseAttrValue('-3', 'int')).toBe(-3);
    expect(parseAttrValue('1, 2', 'ints')).toEqual([1, 2]);
    expect(parseAttrValue('[1,2]', 'ints')).toEqual([1, 2]);
    expect(parseAttrValue('1,2', 'int')).toBeNull();
    expect(parseAttrValue('a', 'int')).toBeNull();
  });

  it('names the field that does not parse', () => {
    const spec = { ...EMPTY_SPEC, op: 'L', attrs: [{ name: 'shift', kind: 'int' as const }] };
    expect(testOptions(spec, { shapes: ['1x4'], attrs: { shift: '3' }, seed: '7' })).toEqual({ ok: true, shapes: [[1, 4]], attrs: { shift: 3 }, seed: 7 });
    expect(testOptions(spec, { shapes: ['1x'], attrs: {}, seed: '7' })).toMatchObject({ ok: false, field: 'shape.0' });
    expect(testOptions(spec, { shapes: ['1x4'], attrs: { shift: 'three' }, seed: '7' })).toMatchObject({ ok: false, field: 'attr.shift' });
    expect(testOptions(spec, { shapes: ['1x4'], attrs: {}, seed: 'x' })).toMatchObject({ ok: false, field: 'seed' });
    // An attribute left empty is left out (its default applies).
    expect(testOptions(spec, { shapes: ['1x4'], attrs: { shift: ' ' }, seed: '1' })).toMatchObject({ ok: true, attrs: {} });
  });
});

describe('reading ops back', () => {
  const leaky: UserOp = {
    spec: {
      op: 'iLeakyReLU', domain: '', attrs: [{ name: 'mul', kind: 'int', default: 1, min: 1, max: 1 }, { name: 'shift', kind: 'int', min: 0, max: 7 }],
      inputs: [{ name: 'x', dtype: 'int8' }], output: { name: 'y', dtype: 'int8' }, shape: 'unary',
      semantics: 'x >= 0 ? x : (mul * x) >> shift', tiling: [{ axis: -1, multiple: 16 }],
    },
    kernel: 'void f(void) {}\n',
  };
  const field = (v: unknown): string => {
    try { readOps(v, 'ops'); } catch (e) { if (e instanceof BadOp) return e.field; throw e; }
    return 'accepted';
  };
  it('keeps a well-formed op as it is', () => {
    expect(readOps(JSON.parse(JSON.stringify([leaky])), 'ops')).toEqual([leaky]);
  });
  it('names the first malformed field', () => {
    const w = (f: (o: any) => void) => { const c = structuredClone(leaky) as any; f(c); return [c]; }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(field('x')).toBe('ops');
    expect(field(w((o) => { o.spec.op = 3; }))).toBe('ops.0.spec.op');
    expect(field(w((o) => { o.spec.attrs[1].max = 'seven'; }))).toBe('ops.0.spec.attrs.1.max');
    expect(field(w((o) => { o.spec.inputs[0].dtype = 'float'; }))).toBe('ops.0.spec.inputs.0.dtype');
    expect(field(w((o) => { o.spec.shape = 'conv'; }))).toBe('ops.0.spec.shape');
    expect(field(w((o) => { o.spec.tiling[0].multiple = 1.5; }))).toBe('ops.0.spec.tiling.0.multiple');
    expect(field(w((o) => { o.spec.evil = '<script>'; }))).toBe('ops.0.spec');
    expect(field(w((o) => { o.kernel = 'x'.repeat(70_000); }))).toBe('ops.0.kernel');
    expect(field([leaky, leaky])).toBe('ops.1.spec.op');
    expect(field(Array.from({ length: 17 }, (_, i) => ({ ...leaky, spec: { ...leaky.spec, op: `o${i}` } })))).toBe('ops');
  });
});
