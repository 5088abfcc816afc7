import { describe, expect, it } from 'vitest';
import { lookupOp, opFor, OPS } from './index';
import { errorOf } from './testing';

describe('op registry', () => {
  it('no two entries claim the same (domain, op)', () => {
    const seen = new Map<string, string>();
    for (const e of OPS)
      for (const op of e.ops)
        for (const d of e.domains) {
          const k = `${d}::${op}`;
          expect(seen.has(k), `${k} is claimed twice`).toBe(false);
          seen.set(k, op);
        }
  });
  it('every entry is complete', () => {
    for (const e of OPS) {
      expect(e.ops.length).toBeGreaterThan(0);
      expect(e.domains.length).toBeGreaterThan(0);
      expect(e.summary.length).toBeGreaterThan(3);
      expect(e.outputs.length).toBeGreaterThan(0);
      expect(typeof e.infer).toBe('function');
      expect(typeof e.eval).toBe('function');
    }
  });
  it('holds the ops the Deeploy graphs need', () => {
    const need = ['Add', 'Sub', 'Mul', 'Div', 'Conv', 'Gemm', 'MatMul', 'MaxPool', 'Pad', 'Slice', 'Concat', 'Reshape', 'Flatten',
      'Transpose', 'Squeeze', 'Unsqueeze', 'ReduceMean', 'ReduceSum', 'Gather', 'Identity', 'Constant', 'Relu', 'Clip',
      'RequantShift', 'iRMSNorm', 'iSoftmax', 'ITAMax', 'iGELU', 'iHardswish', 'iNoNorm', 'iLayerNorm', 'IntegerMean',
      'IntegerDiv', 'TrueIntegerDiv', 'RequantizedConv', 'RequantizedGemm', 'RequantizedAdd', 'RequantizediHardswish',
      'RequantizediGELU', 'RQIntegerDiv'];
    for (const op of need) expect(lookupOp('', op), op).toBeDefined();
  });
  it('finds custom ops in the domains exporters use', () => {
    expect(lookupOp('PACTOps', 'RequantShift')).toBe(lookupOp('', 'RequantShift'));
    expect(lookupOp('ai.onnx.contrib', 'RequantShift')).toBe(lookupOp('', 'RequantShift'));
    expect(lookupOp('ai.onnx', 'Conv')).toBe(lookupOp('', 'Conv'));
    expect(lookupOp('PACTOps', 'Conv')).toBeUndefined();
  });
  it("an unknown op is 'unsupported-op' naming the node and op, briefly", () => {
    const e = errorOf(() => opFor({ name: 'Foo_3', op: 'FooBar', domain: '' }));
    expect(e.code).toBe('unsupported-op');
    expect(e.message).toContain('node "Foo_3" (FooBar)');
    expect(e.message).toContain('FooBar');
    expect(e.message.length).toBeLessThan(200);
  });
  it('suggests a near name and explains a wrong domain', () => {
    expect(errorOf(() => opFor({ name: 'n', op: 'ISoftmax', domain: '' })).message).toContain('did you mean iSoftmax?');
    const e = errorOf(() => opFor({ name: 'n', op: 'Conv', domain: 'com.microsoft' }));
    expect(e.code).toBe('unsupported-op');
    expect(e.message).toContain("not in domain 'com.microsoft'");
  });
});
