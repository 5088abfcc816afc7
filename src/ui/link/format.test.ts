// Share links: round trips, the size of a built-in model's link, the migration of the old
// ?model= address, and hostile links refused with a LinkError (never another exception, never a
// hang): scripts in fields, absurd sizes, deep nesting, wrong types, compression bombs, and a
// fuzz of mutated links.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import { DEFAULT_CONFIG } from '../../compiler/config';
import { diffLines } from './diff';
import { decodeLink, encodeLink, LinkError, toBase64Url, type LinkState } from './format';

const LAB = path.resolve(__dirname, '../../pipeline/lab');

const VIEW: LinkState = {
  model: { kind: 'builtin', id: 'microllama-prefill' },
  config: { platform: 'siracusa-neureka', cores: 1, l1: 8000, doubleBuffer: true, neurekaWmem: true, profileTiling: 'L2' },
  run: true,
  layout: 'run',
  graph: { left: 3, right: 12, node: { snapshot: 12, node: 'layer0_attn_q_proj_matmul' }, hide: true },
  code: { file: 'kernels/gemm.c', line: 186, asm: true },
  timeline: { t0: 631927, t1: 1058380 },
};

async function refused(search: string): Promise<string> {
  try {
    await decodeLink(search);
  } catch (e) {
    if (e instanceof LinkError) return e.what;
    throw e;
  }
  throw new Error(`accepted: ${search.slice(0, 80)}`);
}

async function deflated(text: string): Promise<string> {
  const s = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(s).arrayBuffer()));
}

describe('share links', () => {
  it('round-trips the configuration and the view, and stays short for a built-in model', async () => {
    const q = await encodeLink(VIEW);
    expect(q.length).toBeLessThan(300);
    expect(await decodeLink(q)).toEqual(VIEW);
    expect(await decodeLink(await encodeLink({ config: {} }))).toEqual({ config: {} });
    // Defaults are left out.
    expect(await encodeLink({ config: { ...DEFAULT_CONFIG } })).toBe('?v=1');
  });

  it('carries edits as diffs, an inline model, the baseline and tutorial progress', async () => {
    const base = Array.from({ length: 300 }, (_, i) => `int x${i} = ${i};`).join('\n');
    const edited = base.replace('int x7 = 7;', 'int x7 = 70; /* mine */');
    const state: LinkState = {
      model: { kind: 'inline', model: { name: 'net.onnx', bytes: new Uint8Array([8, 1, 2, 3]) }, inputs: { name: 'inputs.npz', bytes: new Uint8Array([1]) } },
      config: { cores: 4 },
      edits: { 'kernels/gemm.c': diffLines(base, edited) },
      baseline: { config: { ...DEFAULT_CONFIG, cores: 8 }, cycles: 9426482, model: 'microllama-prefill' },
      tutorial: { step: 'cores', passed: ['graph-add', 'generic-code'] },
    };
    const q = await encodeLink(state);
    expect(q.length).toBeLessThan(600);
    expect(await decodeLink(q)).toEqual(state);
  });

  it('carries user operators (spec and kernel), checked when opened', async () => {
    const spec = JSON.parse(readFileSync(path.join(LAB, 'ileakyrelu.json'), 'utf8')) as UserOpSpec;
    const op: UserOp = { spec: { ...spec, tiling: [{ axis: -1, multiple: 16 }] }, kernel: readFileSync(path.join(LAB, 'simd.c'), 'utf8') };
    const state: LinkState = { config: { cores: 1, tiled: false }, ops: [op] };
    const q = await encodeLink(state);
    expect(q.length).toBeLessThan(1500);
    expect(await decodeLink(q)).toEqual(state);
    // Well-formed but not a valid op: the compiler's check names the field.
    const bad = await encodeLink({ config: {}, ops: [{ ...op, spec: { ...op.spec, semantics: 'x >= 0 ? x :' } }] });
    expect(await refused(bad)).toMatch(/the link's operator 'iLeakyReLU' is not valid: semantics: .*col/);
    const range = await encodeLink({ config: {}, ops: [{ ...op, spec: { ...op.spec, attrs: [{ name: 'shift', kind: 'int', min: 7, max: 0 }] } }] });
    expect(await refused(range)).toMatch(/attrs\.0/);
    // Malformed: the first wrong field.
    expect(await refused(`?v=1&z=${await deflated(JSON.stringify({ ops: [{ spec: { ...op.spec, shape: 'conv' }, kernel: '' }] }))}`)).toContain('ops.0.spec.shape');
    expect(await refused(`?v=1&z=${await deflated(JSON.stringify({ ops: [op, op] }))}`)).toContain('a second time');
    expect(await refused(`?v=1&z=${await deflated(JSON.stringify({ ops: 'x' }))}`)).toContain('ops is not a list');
    // Links made before operators existed open as they did.
    expect(await decodeLink(await encodeLink(VIEW))).toEqual(VIEW);
  });

  it('opens the address of an older app (?model=<id>, no version) as a version 1 state', async () => {
    expect(await decodeLink('?model=adder')).toEqual({ config: {}, model: { kind: 'builtin', id: 'adder' } });
    expect(await decodeLink('')).toEqual({ config: {} });
    expect(await decodeLink('?model=adder&stall=100')).toEqual({ config: {}, model: { kind: 'builtin', id: 'adder' } });
    expect(await refused('?model=adder&cores=2')).toContain("unknown parameter 'cores'");
  });

  it('refuses hostile and broken links, saying what is wrong', async () => {
    expect(await refused('?v=1&m=<script>alert(1)</script>')).toContain("'m' is not a built-in model id");
    // Markup in a name is a name like any other (a model may have it): carried as data, shown as text.
    expect((await decodeLink(`?v=1&gn=3.${encodeURIComponent('<img src=x onerror=alert(1)>')}`)).graph?.node?.node).toBe('<img src=x onerror=alert(1)>');
    expect(await refused('?v=1&f=../../etc/passwd')).toContain("'f' is not a file path");
    expect(await refused('?v=1&f=javascript:alert(1)')).toContain("'f' is not a file path");
    expect(await refused('?v=1&c=1e9')).toContain("'c' must be a whole number");
    expect(await refused('?v=1&c=900')).toContain('out of range');
    expect(await refused('?v=1&t=yes')).toContain("'t' must be 0 or 1");
    expect(await refused('?v=1&p=x86')).toContain("'p' is not a platform");
    expect(await refused('?v=1&tw=5-2')).toContain('ends before it starts');
    expect(await refused('?v=1&onload=x')).toContain("unknown parameter 'onload'");
    expect(await refused('?v=1&v=1')).toContain('appears twice');
    expect(await refused('?v=99')).toContain('newer version');
    expect(await refused(`?v=1&gn=1.${'a'.repeat(1025)}`)).toContain("'gn' is not a node name");
    expect(await refused('?v=1#m=adder')).toContain("only 'z' goes there");
    expect(await refused(`?v=1&z=${await deflated('{}')}#z=${await deflated('{}')}`)).toContain("'z' appears twice");
    expect(await refused(`?v=1&m=${'a'.repeat(300_000)}`)).toContain('characters long');
    expect(await refused('?v=1&z=%%%')).toContain("'z' is not base64url");
    expect(await refused('?v=1&z=AAAA')).toMatch(/'z' is not (valid compressed data|JSON)/);
    expect(await refused(`?v=1&z=${await deflated('[1,2]')}`)).toContain('not an object');
    expect(await refused(`?v=1&z=${await deflated(`{"edits":${'['.repeat(50_000)}${']'.repeat(50_000)}}`)}`)).toMatch(/not a map|levels/);
    expect(await refused(`?v=1&z=${await deflated('{"edits":{"a.c":[[0,0,"zz",[]]]}}')}`)).toContain('hash');
    expect(await refused(`?v=1&z=${await deflated('{"edits":{"a.c":[["0",0,"00000000",[]]]}}')}`)).toContain('whole number');
    expect(await refused(`?v=1&z=${await deflated('{"__proto__":{"x":1}}')}`)).toContain("unknown field '__proto__'");
    expect(await refused(`?v=1&z=${await deflated('{"baseline":{"config":{"cores":"8"},"cycles":1,"model":"m"}}')}`)).toContain('cores');
    // A compression bomb: 16 MiB of zeros in a few KiB stops at the limit.
    expect(await refused(`?v=1&z=${await deflated(`{"x":"${'0'.repeat(16 << 20)}"}`)}`)).toContain('inflates to more than');
  });

  it('puts the compressed part in the fragment, and still opens links that have it in the query', async () => {
    const state: LinkState = { config: { cores: 2 }, edits: { 'Network.c': diffLines('a\nb\nc', 'a\nB\nc\nd') } };
    const link = await encodeLink(state);
    expect(link).toMatch(/^\?v=1&c=2#z=[A-Za-z0-9_-]+$/);
    expect(await decodeLink(link)).toEqual(state);
    // The form links had before: z in the query.
    expect(await decodeLink(link.replace('#', '&'))).toEqual(state);
  });

  it('reads back every link it writes, whatever the names: a property over random names', async () => {
    let r = 99;
    const rnd = (n: number) => { r = (Math.imul(r, 1103515245) + 12345) >>> 0; return (r >>> 8) % n; };
    const pieces = ['<', '>', ' ', '#', '&', '%', '%20', '+', '=', '?', '.', '/', '\\', '"', "'", 'é', 'ß', '中', '😀', '\u202e', '\u2066', '\u200f', '\u061c', '\u0000', '\n', '\t', '\u007f', '\ufeff', 'a', 'Z', '0', '_', '-', '<script>', '&amp;'];
    const name = () => { let s = ''; const n = 1 + rnd(12); for (let i = 0; i < n; i++) s += pieces[rnd(pieces.length)]!; return s; };
    for (let i = 0; i < 300; i++) {
      const state: LinkState = {
        model: i % 3 === 0 ? { kind: 'file', name: name(), sha256: 'ab'.repeat(32), size: 1 + rnd(1000) }
          : i % 3 === 1 ? { kind: 'inline', model: { name: name(), bytes: new Uint8Array([1, 2, rnd(256)]) }, outputs: { name: name(), bytes: new Uint8Array([3]) } }
          : { kind: 'builtin', id: 'adder' },
        config: { cores: 1 + rnd(7) },
        graph: { node: { snapshot: rnd(20), node: name() } },
        ...(i % 2 ? { baseline: { config: { ...DEFAULT_CONFIG }, cycles: 1 + rnd(10_000), model: name() } } : {}),
      };
      const link = await encodeLink(state);
      expect(await decodeLink(link), link).toEqual(state);
    }
  });

  it('survives a fuzz of mutated links: a state or a LinkError, never anything else', async () => {
    const seeds = [await encodeLink(VIEW), await encodeLink({ config: { cores: 2 }, edits: { 'Network.c': diffLines('a\nb\nc', 'a\nB\nc\nd') } }), '?model=adder'];
    let r = 12345;
    const rnd = (n: number) => { r = (Math.imul(r, 1103515245) + 12345) >>> 0; return r % n; };
    const alphabet = 'v=&?%.-_0123456789azAZmgnflzt<>"\'{}[]\\/:;  \u0000\u202e\ud800';
    let accepted = 0, refusedCount = 0;
    for (let i = 0; i < 1500; i++) {
      let s = seeds[rnd(seeds.length)]!;
      for (let k = 0; k < 1 + rnd(4); k++) {
        const at = rnd(s.length + 1);
        const op = rnd(3);
        if (op === 0) s = s.slice(0, at) + alphabet[rnd(alphabet.length)] + s.slice(at);
        else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + rnd(3));
        else s = s.slice(0, at) + s.slice(rnd(s.length));
      }
      try {
        const st = await decodeLink(s);
        expect(typeof st.config).toBe('object');
        accepted++;
      } catch (e) {
        if (!(e instanceof LinkError)) throw new Error(`'${s}' threw ${String(e)}`);
        refusedCount++;
      }
    }
    expect(accepted).toBeGreaterThan(0);
    expect(refusedCount).toBeGreaterThan(100);
  }, 60_000);
});
