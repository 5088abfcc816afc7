import { describe, expect, it } from 'vitest';
import { checkPass, GraphBuilder } from '../testing';
import { nameIo } from './name-io';

describe('name-io', () => {
  it('names graph inputs input_i and outputs output_i by position; a tensor already so named steps aside', () => {
    const b = new GraphBuilder();
    const a = b.input('a', [2]), c = b.input('c', [2]);
    const s = b.node('Add', [a, c], {}, { outputs: ['input_1'] });
    b.output(b.node('Mul', [s, c], {}, { outputs: ['y'] }));
    b.output(s);
    const { after } = checkPass(nameIo, b.build());
    expect(after.inputs.map((v) => v.name)).toEqual(['input_0', 'input_1']);
    expect(after.outputs.map((v) => v.name)).toEqual(['output_0', 'output_1']);
    expect(after.nodes[0]).toMatchObject({ inputs: ['input_0', 'input_1'], outputs: ['output_1'] });
  });
});
