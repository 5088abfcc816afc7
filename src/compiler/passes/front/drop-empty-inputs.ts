// drop-empty-inputs: a graph input with no elements (the KV cache of a prefill run, [1,16,0,4])
// carries no data; it becomes an empty constant, so the deployed network has no buffer for it.
// The check maps inputs.npz arrays to the remaining inputs by name.
import { numel } from '../../ops/core/tensor';
import { definePass } from '../define';

export const dropEmptyInputs = definePass({
  name: 'drop-empty-inputs',
  doc: 'Turns graph inputs with no elements (empty KV caches) into empty constants.',
  rewrite(ed) {
    const empty = ed.inputs.filter((v) => numel(v.shape) === 0 && !ed.isGraphOutput(v.name));
    if (empty.length === 0) return;
    for (const v of empty) ed.addConstNamed(v.name, { shape: v.shape, data: new Float64Array(0) }, v.dtype);
    ed.inputs = ed.inputs.filter((v) => !empty.includes(v));
  },
});
