// The element type each tensor really has, per snapshot of the lowering: Deeploy's ONNX files
// declare float32 for int8 data, and the kernels store every tensor in the narrowest integer
// type holding its values (tiling/plan.ts storageBytes reads the same ranges). The worker adds
// them to the lower stage's result for the graph pane's properties; the CLI does not need them.
import { own, put } from '../common/own';
import type { LowerResult } from '../compiler/lower/types';
import { DTYPES } from '../compiler/ir/dtype';
import type { IntType, Range } from '../compiler/passes/ranges';
import { intTypeOf, valueRanges } from '../compiler/passes/ranges';
import type { ElementTypes } from '../pipeline/results';

function rangeOf(dtype: string): Range | undefined {
  const d = DTYPES[dtype as IntType];
  return d?.min !== undefined && d.max !== undefined ? [d.min, d.max] : undefined;
}

export function elementTypes(lower: LowerResult): ElementTypes {
  const typings = lower.inputTypes ?? [];
  const last = lower.snapshots.length - 1;
  return lower.snapshots.map(({ graph: g }, k) => {
    // Graph inputs are typed by position (inputs.npz order); the final graph as the kernels see them.
    const inputs: Record<string, Range> = {};
    const free = g.inputs.filter((v) => !own(g.initializers, v.name));
    for (const t of typings) {
      const v = free[t.index];
      const r = rangeOf(k === last ? t.kernelDtype : t.dtype);
      if (v && r) put(inputs, v.name, r);
    }
    const out: Record<string, IntType> = {};
    for (const [name, r] of valueRanges(g, inputs)) {
      const ty = intTypeOf(r);
      if (ty) put(out, name, ty);
    }
    return out;
  });
}
