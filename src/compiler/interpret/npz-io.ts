// Mapping .npz arrays onto graph inputs and outputs. Deeploy maps them by position (the
// names are the quantizer's, not the graph's); kernel tests may append arrays that are not
// graph inputs (their weights), which are ignored.
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import type { NpyArray } from '../npz';
import { sameShape, shapeStr } from '../ops/core/tensor';
import type { TensorValue } from './interpret';

export interface BoundInputs {
  /** One value per graph input, in graph-input order. */
  inputs: TensorValue[];
  /** Names of trailing arrays that are not graph inputs (ignored). */
  unused: string[];
}

/** The first N arrays of an inputs .npz, checked against the N graph inputs. */
export function bindNpzInputs(graph: Graph, arrays: readonly NpyArray[], fileName: string): BoundInputs {
  if (arrays.length < graph.inputs.length)
    fail('bad-inputs', `holds ${arrays.length} array${arrays.length === 1 ? '' : 's'}, but the graph has ${graph.inputs.length} inputs (${graph.inputs.map((v) => v.name).join(', ')})`, fileName,
      'arrays map to graph inputs by position');
  const inputs = graph.inputs.map((v, i) => {
    const a = arrays[i];
    if (!sameShape(a.shape, v.shape))
      fail('bad-inputs', `array ${i} ('${a.name}') has shape ${shapeStr(a.shape)}, but graph input ${i} ('${v.name}') is ${shapeStr(v.shape)}`, fileName,
        'arrays map to graph inputs by position');
    return { dtype: a.dtype, shape: a.shape, data: a.data };
  });
  return { inputs, unused: arrays.slice(graph.inputs.length).map((a) => a.name) };
}
