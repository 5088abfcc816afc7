// Acceptance for the lower stage: every platform over every shared test folder (found by
// walking ../shared/deeploy-tests). Every pass runs, every snapshot is a valid graph that
// survives ONNX export and import, computes exactly what the parsed graph computes on the
// folder's inputs.npz, and every node of the final graph is bound to a kernel. Then the node
// counts of the models, against what Deeploy's own lowering gives (deeploy-semantics.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, PLATFORMS, type PlatformName } from '../config';
import { findTestDirs, loadTestCase, SHARED_TESTS } from '../../testing/corpus';
import { bindNpzInputs } from '../interpret/npz-io';
import type { Graph } from '../ir/graph';
import { readNpz } from '../npz';
import { readOnnx } from '../onnx/read';
import { writeOnnx } from '../onnx/write';
import { platformFor } from '../platforms';
import { inferTypes } from '../shapes/infer';
import { lowerGraph } from './lower';
import type { LowerResult } from './types';
import { SHARED_TESTS as SHARED_TESTS_NEED, missing } from '../../testing/requires';

const present = existsSync(fileURLToPath(SHARED_TESTS));
const DIRS = present ? findTestDirs() : [];
const cache = new Map<string, LowerResult>();

function lowerFolder(dir: string, platform: PlatformName): LowerResult {
  const key = `${dir}|${platform}`;
  let r = cache.get(key);
  if (!r) {
    const tc = loadTestCase(dir);
    const graph = inferTypes(readOnnx(tc.onnx, 'network.onnx'));
    const inputs = tc.inputs ? bindNpzInputs(graph, readNpz(tc.inputs, 'inputs.npz'), 'inputs.npz').inputs : undefined;
    r = lowerGraph(graph, { ...DEFAULT_CONFIG, platform, neurekaWmem: platform === 'siracusa-neureka' }, { inputs });
    cache.set(key, r);
  }
  return r;
}

const folder = (suffix: string) => DIRS.find((d) => d.endsWith(suffix))!;
const ops = (g: Graph) => {
  const c: Record<string, number> = {};
  for (const n of g.nodes) c[n.op] = (c[n.op] ?? 0) + 1;
  return c;
};
const final = (r: LowerResult) => r.snapshots[r.snapshots.length - 1].graph;

describe.skipIf(missing(SHARED_TESTS_NEED))('lowering every shared test', () => {
  it('finds the folders', () => expect(DIRS.length).toBeGreaterThanOrEqual(40));

  describe.each(PLATFORMS)('%s', (platform) => {
    it.each(DIRS.map((d) => [loadTestCase(d).name, d]))('%s', (_name, dir) => {
      const r = lowerFolder(dir, platform);
      expect(r.snapshots.map((s) => s.pass)).toEqual(['input', ...platformFor(platform).passes.map((p) => p.name)]);
      expect(r.checkInputs).toBe('inputs.npz');
      // Every changed snapshot: exactly the same outputs, a valid graph, an ONNX round trip.
      const changed = r.snapshots.map((s, i) => [s, i] as const).filter(([s, i]) => i > 0 && s.changed);
      expect(r.checks.map((c) => c.snapshot)).toEqual(changed.map(([, i]) => i));
      for (const c of r.checks) expect({ pass: r.snapshots[c.snapshot].pass, errors: c.errors, error: c.error }).toEqual({ pass: r.snapshots[c.snapshot].pass, errors: 0, error: undefined });
      for (const [s] of changed) {
        const g = inferTypes({ ...s.graph, types: {} });
        const back = inferTypes(readOnnx(writeOnnx(g), `${s.pass}.onnx`));
        expect(back.nodes.map((n) => [n.name, n.op, n.inputs, n.outputs])).toEqual(g.nodes.map((n) => [n.name, n.op, n.inputs, n.outputs]));
        expect(back.outputs.map((o) => o.shape)).toEqual(g.outputs.map((o) => o.shape));
      }
      // Every node bound.
      expect(r.failures).toEqual([]);
      expect(Object.keys(r.bindings).sort()).toEqual(final(r).nodes.map((n) => n.name).sort());
    });
  });
});

describe.skipIf(missing(SHARED_TESTS_NEED))('node counts of the models', () => {
  it('miniMobileNetv2 on Siracusa: 10 RequantizedConv (3 depthwise), RequantizedAdd, Flatten, RequantizedGemm and 2 Transposes (Deeploy: 5)', () => {
    const g = final(lowerFolder(folder('Models/miniMobileNetv2'), 'siracusa'));
    expect(ops(g)).toEqual({ Transpose: 2, RequantizedConv: 10, RequantizedAdd: 1, Flatten: 1, RequantizedGemm: 1 });
    const dw = g.nodes.filter((n) => n.op === 'RequantizedConv' && n.attrs.group?.kind === 'int' && n.attrs.group.value > 1);
    expect(dw).toHaveLength(3);
    expect(g.nodes.filter((n) => n.op === 'RequantizedConv').every((n) => n.attrs.channels_first?.value === 0)).toBe(true);
  });

  it('microLlama1 on Siracusa: 505 -> 248 nodes; Deeploy gives 279 with 56 Transposes and 32 Reshapes where this has 9 and 48', () => {
    const r = lowerFolder(folder('microLlama/INT8/microLlama1'), 'siracusa');
    expect(r.snapshots[0].graph.nodes).toHaveLength(505);
    expect(ops(final(r))).toEqual({
      RequantizedGemm: 88, RequantizedAdd: 24, RequantShift: 22, iRMSNorm: 17, Concat: 16, iSoftmax: 8,
      RequantizediHardswish: 8, Mul: 8, Transpose: 9, Reshape: 48,
    });
    expect(final(r).nodes).toHaveLength(248);
  });

  it('microLlama64_parallel on Siracusa: 505 -> 242 nodes (empty KV caches: no Concat, no requants around it); 41 Transposes (Deeploy: 56)', () => {
    const r = lowerFolder(folder('microLlama/INT8/microLlama64_parallel'), 'siracusa');
    expect(ops(final(r))).toEqual({
      RequantizedGemm: 88, RequantizedAdd: 24, RequantShift: 16, iRMSNorm: 17, iSoftmax: 8,
      RequantizediHardswish: 8, Mul: 8, Transpose: 41, Reshape: 32,
    });
    expect(final(r).inputs).toHaveLength(3); // the 16 empty KV-cache inputs are gone
  });

  it('microLlama with N-EUREKA: the 56 linear layers run on the NPU as 1x1 convolutions', () => {
    for (const m of ['microLlama1', 'microLlama64_parallel']) {
      const r = lowerFolder(folder(`microLlama/INT8/${m}`), 'siracusa-neureka');
      const npu = Object.values(r.bindings).filter((b) => b.engine === 'neureka');
      expect(npu).toHaveLength(56);
      expect(new Set(npu.map((b) => b.kernel))).toEqual(new Set(['NeurekaPwConv1x1_s8_s8']));
      expect(ops(final(r)).RequantizedGemm).toBe(32); // RoPE, Q·K^T and P·V multiply activations
    }
  });

  it('miniMobileNetv2 with N-EUREKA: the pointwise, the classifier and the stride-1 depthwise convs on the NPU', () => {
    const r = lowerFolder(folder('Models/miniMobileNetv2'), 'siracusa-neureka');
    const npu = Object.values(r.bindings).filter((b) => b.engine === 'neureka').map((b) => b.kernel).sort();
    expect(npu).toEqual([...Array(2).fill('NeurekaDwConv3x3_s8_s8'), ...Array(7).fill('NeurekaPwConv1x1_s8_s8')]);
    expect(r.inputTypes).toEqual([expect.objectContaining({ dtype: 'uint8', kernelDtype: 'uint8', offset: 0 })]);
  });

  it('Generic keeps NCHW and fuses nothing; padding becomes Pad nodes; unsigned inputs are offset', () => {
    const r = lowerFolder(folder('Models/miniMobileNetv2'), 'generic');
    expect(ops(final(r))).toEqual({ Pad: 4, Conv: 10, RequantShift: 14, Add: 1, Flatten: 1, Gemm: 1 });
    expect(r.inputTypes).toEqual([expect.objectContaining({ dtype: 'uint8', kernelDtype: 'int8', offset: -128 })]);
    const llama = lowerFolder(folder('microLlama/INT8/microLlama64_parallel'), 'generic');
    expect(ops(final(llama)).Add).toBe(24); // the 56 bias Adds went into their requants
  });
});
