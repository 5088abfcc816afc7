// Names that are also Object.prototype's members ('constructor', 'toString', 'hasOwnProperty',
// '__proto__') are ordinary names everywhere a model or a user op's string becomes a key: the
// op registry, attributes, the semantics' environment, bindings, initializers and types. They
// used to read JavaScript's built-ins (an attribute "kind undefined", NaN from the semantics).
import { afterEach, describe, expect, it } from 'vitest';
import { installUserOps } from '..';
import { own, put } from '../../../common/own';
import type { Node } from '../../ir/graph';
import { int, readAttrs } from '../types';
import { checkUserOp } from './entry';
import { ExprError, parseExpr } from './expr';
import { CLEAN, compileModel, hostOp, modelBytes, tokenStreams, type ModelNames } from '../../../testing/hostile-names';

afterEach(() => installUserOps([]));

const PROTO = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'];

describe('own and put', () => {
  it('read and write own properties only', () => {
    const r: Record<string, number> = {};
    for (const k of PROTO) expect(own(r, k)).toBeUndefined();
    for (const [i, k] of PROTO.entries()) put(r, k, i);
    for (const [i, k] of PROTO.entries()) expect(own(r, k)).toBe(i);
    expect(Object.keys(r)).toEqual(PROTO);
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
  });
});

describe('attributes named like Object.prototype members', () => {
  const node = (attrs: Node['attrs']): Node => ({ name: 'n', op: 'X', domain: '', inputs: [], outputs: [], attrs });
  it.each(PROTO)('a spec attribute %s takes its default when the node lacks it, and the node\'s value when it has it', (name) => {
    const specs: Record<string, ReturnType<typeof int>> = {};
    put(specs, name, int(5));
    expect(own(readAttrs(node({}), specs, 'n') as Record<string, unknown>, name)).toBe(5);
    const attrs: Node['attrs'] = {};
    put(attrs, name, { kind: 'int', value: 7 });
    const got = readAttrs(node(attrs), specs, 'n') as Record<string, unknown>;
    expect(own(got, name)).toBe(7);
    expect(Object.keys(got)).toEqual([name]);
  });

  it('a function named like one is an unknown function, not a crash', () => {
    for (const f of PROTO) expect(() => parseExpr(`${f}(1)`)).toThrow(ExprError);
    expect(() => parseExpr('toString(1)')).toThrow(/unknown function 'toString' \(there are min, max, clip, abs\)/);
  });
});

const ADD_NAMES: ModelNames = { ...CLEAN, nodes: ['constructor', '__proto__'], tensors: { a: 'toString', b: 'hasOwnProperty', t: '__proto__', y: 'valueOf' },
  attrName: 'constructor' };

describe('a model and a user op named like Object.prototype members', () => {
  it.each(['generic', 'siracusa'] as const)('compile on %s to the program of ordinary names', async (platform) => {
    const config = { platform, cores: 8, tiled: platform === 'siracusa' };
    // A user op named 'constructor' with an attribute 'hasOwnProperty' (the op's 'shift') and one '__proto__' it does not use.
    const op = hostOp('lab.test', 'constructor', 'hasOwnProperty');
    op.spec.attrs.push({ name: '__proto__', kind: 'int', default: 3, min: 0, max: 9 });
    // The semantics read it (3 - 3: the same values); a prototype's member there was NaN.
    op.spec.semantics = `(${op.spec.semantics}) + __proto__ - 3`;
    expect(checkUserOp(op.spec)).toEqual([]);
    const proto = await compileModel(modelBytes(ADD_NAMES, 'hasOwnProperty', 'constructor'), [op], config);
    expect(proto.error).toBeUndefined();
    const plain = await compileModel(modelBytes({ ...ADD_NAMES, nodes: ['c0', 'a0'], tensors: { a: 't2', b: 'h1', t: 'a0', y: 'v3' }, attrName: 'note' }, 'hasOwnProperty', 'constructor'),
      [op], config);
    expect(plain.error).toBeUndefined();
    const code = proto.code!;
    // The kernel is called with the node's attribute value (2) and the unused one's default (3).
    const net = code.files.find((f) => f.path === 'Network.c')!.content;
    expect(net).toMatch(/constructor_s8_s8\([^;]*, 1, 2, 3\);/);
    expect(code.files.map((f) => f.path)).toContain('constructor.c');
    // The same program but for the tensor names (in identifiers such as c_toString, and in literals; the node names are in comments
    // only), with plain names in the same order (the memory plan breaks ties by name).
    const plainOf = new Map([['toString', 't2'], ['hasOwnProperty', 'h1'], ['__proto__', 'a0'], ['valueOf', 'v3']]);
    // The op's own parameter names (its attributes 'hasOwnProperty' and '__proto__') are whole tokens; tensor names never are.
    const rename = (t: string) => (t === 'hasOwnProperty' || t === '__proto__' ? t : t.replace(/toString|hasOwnProperty|__proto__|valueOf/g, (m) => plainOf.get(m)!));
    const a = tokenStreams(code), b = tokenStreams(plain.code!);
    for (const [p, toks] of b) if (p !== 'constructor.c') expect(a.get(p)!.map(rename), p).toEqual(toks);
  }, 120_000);
});
