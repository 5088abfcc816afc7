import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readNpz, writeNpz } from '../compiler/npz';
import { readOnnx } from '../compiler/onnx/read';
import { inferTypes } from '../compiler/shapes/infer';
import { checkNpzFiles } from './npz-check';
import { errorOf } from '../testing/error-of';

const dir = new URL('../../public/models/adder/', import.meta.url);
const file = (f: string) => new Uint8Array(readFileSync(new URL(f, dir)));
const graph = inferTypes(readOnnx(file('network.onnx'), 'network.onnx'));


describe('checkNpzFiles', () => {
  it('accepts the files that belong to the graph', () => {
    expect(() => checkNpzFiles(graph, { inputs: file('inputs.npz'), outputs: file('outputs.npz') })).not.toThrow();
  });
  it('names the inputs array whose shape does not fit', () => {
    const arrays = readNpz(file('inputs.npz'), 'inputs.npz');
    arrays[1] = { ...arrays[1]!, shape: [arrays[1]!.data.length] };
    const e = errorOf(() => checkNpzFiles(graph, { inputs: writeNpz(arrays) }));
    expect(e).toMatchObject({ code: 'bad-inputs', where: 'inputs.npz' });
    expect(e.what).toContain('array 1');
  });
  it('refuses outputs.npz with another number of arrays', () => {
    const arrays = readNpz(file('outputs.npz'), 'outputs.npz');
    const e = errorOf(() => checkNpzFiles(graph, { outputs: writeNpz([...arrays, { ...arrays[0]!, name: 'extra' }]) }));
    expect(e).toMatchObject({ code: 'bad-inputs', where: 'outputs.npz' });
    expect(e.what).toContain('holds 2 arrays, but the graph has 1 output');
  });
});
