import { describe, expect, it } from 'vitest';
import { runPasses } from '../manager';
import { GraphBuilder } from '../testing';
import { inputType, typeInputs } from './type-inputs';

const v = (data: number[], dtype: 'int64' | 'float32' = 'int64') => ({ dtype, shape: [data.length], data: dtype === 'int64' ? BigInt64Array.from(data.map(BigInt)) : Float32Array.from(data) });

describe('type-inputs', () => {
  it("types inputs from their values like Deeploy: unsigned first, the smallest that holds them", () => {
    expect(inputType('float32', v([0, 255])).dtype).toBe('uint8');
    expect(inputType('float32', v([-1, 5])).dtype).toBe('int8');
    expect(inputType('float32', v([0, 300])).dtype).toBe('uint16');
    expect(inputType('float32', v([-129, 0])).dtype).toBe('int16');
    expect(inputType('float32', v([0, 0], 'int64')).dtype).toBe('int8'); // all zeros in a 64-bit array: fits 8 bits
    expect(inputType('int16')).toEqual({ dtype: 'int16', source: 'declared' });
    expect(inputType('float32')).toEqual({ dtype: 'int8', source: 'assumed int8' });
  });

  it('sets the graph input dtypes from the values in the pass context', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [2]), y = b.input('y', [2]);
    b.output(b.node('Add', [x, y]));
    const snaps = runPasses(b.build(), [typeInputs], undefined, { inputs: [v([0, 200]), v([-3, 3])] });
    expect(snaps[1].graph.inputs.map((i) => i.dtype)).toEqual(['uint8', 'int8']);
    expect(snaps[1].graph.nodes).toEqual(snaps[0].graph.nodes);
  });
});
