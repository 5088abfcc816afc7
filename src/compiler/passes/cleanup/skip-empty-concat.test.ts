import { describe, expect, it } from 'vitest';
import { checkPasses, GraphBuilder, opsOf, at } from '../testing';
import { dropEmptyInputs } from '../front/drop-empty-inputs';
import { skipEmptyConcat } from './skip-empty-concat';

describe('skip-empty-concat', () => {
  it('removes a Concat whose other input is an empty KV cache; the graph output keeps its name', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 2, 3, 4]);
    const k = b.node('Relu', [x]);
    b.output(b.node('Concat', [b.input('cache', [1, 2, 0, 4]), k], { axis: at.int(-2) }, { outputs: ['kv'] }));
    const { after } = checkPasses([dropEmptyInputs, skipEmptyConcat], b.build());
    expect(opsOf(after)).toEqual(['Relu']);
    expect(after.outputs[0].name).toBe('kv');
  });

  it('drops only the empty inputs of a Concat with several others', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 2]);
    b.output(b.node('Concat', [x, b.init('e', [1, 0], []), x], { axis: at.int(1) }));
    const { after } = checkPasses([skipEmptyConcat], b.build());
    expect(after.nodes[0].inputs).toEqual(['x', 'x']);
  });
});
