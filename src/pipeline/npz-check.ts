// The load check of inputs.npz and outputs.npz against the parsed graph, so that files that do
// not fit are refused when they are opened, not at the first compile: the inputs bind to the
// graph inputs (count and shapes, bindNpzInputs) and hold values their declared integer types
// can hold; the outputs match the graph outputs in count and element count (golden outputs
// may be flattened: checkOutputs in interpret/compare.ts compares elements by position).
import { own } from '../common/own';
import { fail } from '../common/errors';
import { bindNpzInputs } from '../compiler/interpret/npz-io';
import type { Graph } from '../compiler/ir/graph';
import { DTYPES } from '../compiler/ir/dtype';
import { readNpz } from '../compiler/npz';
import { shapeStr } from '../compiler/ops/core/tensor';
import type { PipelineInput } from './run';

const count = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function checkInputs(graph: Graph, bytes: Uint8Array): void {
  const arrays = readNpz(bytes, 'inputs.npz');
  bindNpzInputs(graph, arrays, 'inputs.npz');
  graph.inputs.forEach((v, i) => {
    const a = arrays[i]!;
    const d = DTYPES[v.dtype];
    if (!d?.integer || d.min === undefined || d.max === undefined) return;
    for (let k = 0; k < a.data.length; k++) {
      const x = Number(a.data[k]);
      if (Number.isInteger(x) && x >= d.min && x <= d.max) continue;
      fail('bad-inputs', `array ${i} ('${a.name}', ${a.dtype}) holds ${x} at index ${k}, which graph input ${i} ('${v.name}', ${v.dtype}) cannot hold`,
        'inputs.npz', `its values must be whole numbers from ${d.min} to ${d.max}`);
    }
  });
}

function checkOutputs(graph: Graph, bytes: Uint8Array): void {
  const arrays = readNpz(bytes, 'outputs.npz');
  if (arrays.length !== graph.outputs.length)
    fail('bad-inputs', `holds ${arrays.length} array${arrays.length === 1 ? '' : 's'}, but the graph has ${graph.outputs.length} output${graph.outputs.length === 1 ? '' : 's'} (${graph.outputs.map((v) => v.name).join(', ')})`,
      'outputs.npz', 'arrays map to graph outputs by position');
  graph.outputs.forEach((v, i) => {
    const a = arrays[i]!;
    const shape = own(graph.types, v.name)?.shape ?? v.shape;
    if (count(a.shape) !== count(shape))
      fail('bad-inputs', `array ${i} ('${a.name}') has shape ${shapeStr(a.shape)}, but graph output ${i} ('${v.name}') is ${shapeStr(shape)}`,
        'outputs.npz', 'arrays map to graph outputs by position');
    if (DTYPES[a.dtype] === undefined || a.dtype === 'bool')
      fail('bad-inputs', `array ${i} ('${a.name}') holds ${a.dtype} values, not numbers`, 'outputs.npz');
  });
}

/** Throws a 'bad-inputs' error naming the file, the array and the mismatch. */
export function checkNpzFiles(graph: Graph, input: Pick<PipelineInput, 'inputs' | 'outputs'>): void {
  if (input.inputs) checkInputs(graph, input.inputs);
  if (input.outputs) checkOutputs(graph, input.outputs);
}
