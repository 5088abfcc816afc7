import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder } from '../testing';
import { cIdentifier, sanitizeNames } from './sanitize-names';

describe('sanitize-names', () => {
  it('makes C identifiers', () => {
    expect(cIdentifier('onnx::Add_0')).toBe('onnx__Add_0');
    expect(cIdentifier('4')).toBe('_4');
    expect(cIdentifier('x.3')).toBe('x_3');
    expect(cIdentifier('int')).toBe('_int');
    expect(cIdentifier('ok_name')).toBe('ok_name');
  });

  it('renames tensors and nodes uniquely, with provenance for renamed nodes', () => {
    const b = new GraphBuilder();
    const x = b.input('in.0', [2]);
    const w = b.init('w::a', [2], [1, 2]);
    const y = b.node('Add', [x, w], {}, { name: 'add.1', outputs: ['x_3'] });
    b.output(b.node('Mul', [y, w], {}, { name: 'mul:2', outputs: ['x.3'] }));
    const { after, snapshot } = checkPass(sanitizeNames, b.build());
    expect(after.inputs[0].name).toBe('in_0');
    expect(Object.keys(after.initializers)).toEqual(['w__a']);
    expect(after.nodes.map((n) => n.name)).toEqual(['add_1', 'mul_2']);
    expect(after.outputs[0].name).toBe('x_3_1'); // 'x_3' was taken
    expect(snapshot.origin).toEqual({ add_1: ['add.1'], mul_2: ['mul:2'] });
  });
});
