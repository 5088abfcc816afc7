import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type PlatformName } from '../config';
import { lowerGraph } from '../lower/lower';
import { at, GraphBuilder } from '../passes/testing';

function lowered(b: GraphBuilder, platform: PlatformName, wmem = false) {
  return lowerGraph(b.build(), { ...DEFAULT_CONFIG, platform, neurekaWmem: wmem }, { check: 'final' });
}

function convNet(opts: { k: number; stride?: number; dilation?: number; group?: number; cin?: number; cout?: number }) {
  const b = new GraphBuilder();
  const cin = opts.cin ?? 8, cout = opts.cout ?? 8, g = opts.group ?? 1;
  const x = b.input('x', [1, cin, 8, 8]);
  const pad = opts.k === 3 ? 1 : 0;
  const c = b.node('Conv', [x, b.init('w', [cout, cin / g, opts.k, opts.k], [-100, 100])], {
    kernel_shape: at.ints([opts.k, opts.k]), strides: at.ints([opts.stride ?? 1, opts.stride ?? 1]),
    dilations: at.ints([opts.dilation ?? 1, opts.dilation ?? 1]), pads: at.ints([pad, pad, pad, pad]), group: at.int(g),
  });
  b.output(b.requant(c, 12, { mulShape: [cout, 1, 1] }));
  return b;
}

describe('kernel binding', () => {
  it('binds a requantized conv on Siracusa to the HWC cluster kernel, naming dtypes', () => {
    const r = lowered(convNet({ k: 3 }), 'siracusa');
    expect(r.failures).toEqual([]);
    const conv = Object.values(r.bindings).find((b) => b.node.startsWith('Conv'))!;
    expect(conv).toMatchObject({ engine: 'cluster', kernel: 'RequantizedConv2d_HWC_s8_s8' });
    expect(conv.reason).toContain('s8 -> s8');
  });

  it('puts 1x1 and 3x3 stride-1 convs on N-EUREKA with weight notes, a strided one on the cluster', () => {
    for (const [k, stride, engine, kernel] of [[1, 1, 'neureka', 'NeurekaPwConv1x1_s8_s8'], [3, 1, 'neureka', 'NeurekaDenseConv3x3_s8_s8'],
      [3, 2, 'cluster', 'RequantizedConv2d_HWC_s8_s8']] as const) {
      const r = lowered(convNet({ k, stride }), 'siracusa-neureka', true);
      const conv = Object.values(r.bindings).find((b) => b.node.startsWith('Conv'))!;
      expect(conv).toMatchObject({ engine, kernel });
      if (engine === 'neureka') expect(conv.notes!.join(' ')).toMatch(/plain int8 \[C_out\]\[kh\]\[kw\]\[C_in\][\s\S]*weight memory/);
    }
    const dw = lowered(convNet({ k: 3, group: 8 }), 'siracusa-neureka');
    expect(Object.values(dw.bindings).find((b) => b.node.startsWith('Conv'))).toMatchObject({ engine: 'neureka', kernel: 'NeurekaDwConv3x3_s8_s8' });
  });

  it('rejects a node whose output is empty, naming it (found by the fuzzer)', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 3, 8, 8]);
    b.output(b.node('Slice', [x, b.init('starts', [1], [32768], 'int64'), b.init('ends', [1], [8], 'int64'), b.init('axes', [1], [2], 'int64')]));
    for (const platform of ['generic', 'siracusa'] as const) {
      const r = lowered(b, platform);
      expect(r.failures).toHaveLength(1);
      expect(r.failures[0].reason).toMatch(/^its output '\w+' \[1, 3, 0, 8\] is empty, and no kernel computes an empty tensor$/);
    }
  });

  it('rejects a node no kernel fits, naming the node and the missing capability', () => {
    const r = lowered(convNet({ k: 3, dilation: 2 }), 'siracusa');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ node: 'Conv_0', op: 'RequantizedConv' });
    expect(r.failures[0].reason).toContain('dilations = [2,2]; the kernel needs dilation 1');
    // The graph is still there for the graph pane.
    expect(r.snapshots.length).toBeGreaterThan(1);
  });

  it('names the dtype when a kernel takes 8-bit data and gets more', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 16], 'int16');
    b.output(b.node('iSoftmax', [x], { coeffA: at.int(1), coeffB: at.int(64), coeffC: at.int(2136), log2: at.int(47), n_levels: at.int(256) }));
    const r = lowered(b, 'generic');
    expect(r.failures[0].reason).toContain('input 0 is int16 (values -32768..32767); the kernel takes int8/uint8');
  });

  it('reports an op missing from the kernel library', () => {
    const b = new GraphBuilder();
    b.output(b.node('Div', [b.input('x', [4], 'int8'), b.init('d', [4], [1, 2, 3, 4])]));
    expect(lowered(b, 'siracusa').failures[0].reason).toBe('the Siracusa kernel library has no kernel for Div (RISC-V cluster)');
  });

  it("notes Generic's input offset on the nodes reading an unsigned input", () => {
    const b = convNet({ k: 1 });
    const g = b.build();
    const inputs = [{ dtype: 'uint8' as const, shape: [1, 8, 8, 8], data: Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256) }];
    const r = lowerGraph(g, { ...DEFAULT_CONFIG, platform: 'generic' }, { inputs });
    expect(r.inputTypes![0]).toMatchObject({ dtype: 'uint8', kernelDtype: 'int8', offset: -128, source: 'inputs.npz' });
    expect(Object.values(r.bindings).find((x) => x.node.startsWith('Conv'))!.notes).toEqual(['input_0 holds uint8 data shifted by -128 to int8; the kernel adds 128 back']);
    expect(r.checks.every((c) => c.errors === 0)).toBe(true);
  });
});
