// The tensor table codegen works from: every tensor's storage type and its data offset (where
// it lives is the memory plan's business: memory.ts).
//
// Storage types come from the value ranges of the real data. Generic's unsigned inputs are
// stored shifted (input typing: uint8 x is kept as int8 x - 128); the shift travels through
// kernels that only move or select data (Transpose, Pad, MaxPool, ...: 'passthrough') and is
// added back by the first kernel that computes ('absorb', its x_off argument).
import { own } from '../../common/own';
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import { DTYPES } from '../ir/dtype';
import type { Binding, InputTyping } from '../lower/types';
import { initializerToInt } from '../ops/core/convert';
import { numel } from '../ops/core/tensor';
import { whereNode } from '../ops/types';
import { intTypeOf, rangeOfValues, valueRanges, type IntType, type Range } from '../passes/ranges';
import { storageType } from './ctypes';
import { emitterFor } from './emit';

export interface TensorInfo {
  name: string;
  shape: number[];
  constant: boolean;
  /** Values of a constant. */
  values?: Float64Array;
  /** Range of the real values. */
  range: Range;
  /** Stored value = real value + offset. */
  offset: number;
  /** Storage type (for constants: the narrowest type holding their values). */
  type: IntType;
}

export type TensorTable = Map<string, TensorInfo>;

export function tensorTable(g: Graph, bindings: Record<string, Binding>, inputTypes: readonly InputTyping[]): TensorTable {
  const realInputRanges = Object.fromEntries(inputTypes.map((t) => {
    const d = DTYPES[t.dtype as IntType];
    return [t.name, [d.min!, d.max!] as Range];
  }));
  const ranges = valueRanges(g, realInputRanges);
  const table: TensorTable = new Map();
  const shapeOf = (n: string) => own(g.types, n)?.shape ?? own(g.initializers, n)?.shape ?? [];
  const isInput = new Set(g.inputs.map((v) => v.name));

  for (const [name, init] of Object.entries(g.initializers)) {
    if (isInput.has(name)) continue;
    let values: Float64Array;
    try {
      values = initializerToInt(init).data;
    } catch {
      continue; // a non-integer constant: no kernel reads it as data (the binder would have failed)
    }
    const range = rangeOfValues(values);
    table.set(name, {
      name, shape: [...init.shape], constant: true, values, range, offset: 0,
      type: intTypeOf(range) ?? 'int32',
    });
  }
  for (const v of g.inputs) {
    const t = inputTypes.find((x) => x.name === v.name);
    const range = ranges.get(v.name)!;
    const offset = t?.offset ?? 0;
    table.set(v.name, {
      name: v.name, shape: shapeOf(v.name), constant: false, range, offset,
      type: storageType([range[0] + offset, range[1] + offset], `graph input '${v.name}'`, v.name),
    });
  }
  for (const node of g.nodes) {
    const b = own(bindings, node.name);
    if (!b) fail('internal', 'the node has no kernel binding', whereNode(node));
    const rule = emitterFor(b, node).offsets;
    const ins = node.inputs.filter(Boolean).map((i) => table.get(i));
    let offset = 0;
    if (rule === 'passthrough') {
      const offs = new Set(ins.filter((t) => t && !t.constant && numel(t.shape) > 0).map((t) => t!.offset));
      if (offs.size > 1) fail('not-implemented', 'its inputs carry different data offsets (Generic input typing)', whereNode(node),
        'the kernels cannot join data shifted by different amounts');
      offset = [...offs][0] ?? 0;
    }
    for (const o of node.outputs.filter(Boolean)) {
      const range = ranges.get(o) ?? [-Infinity, Infinity];
      const info: TensorInfo = {
        name: o, shape: shapeOf(o), constant: false, range, offset,
        type: storageType([range[0] + offset, range[1] + offset], `tensor '${o}'`, whereNode(node)),
      };
      if (rule === 'alias') {
        const src = table.get(node.inputs[0])!;
        // A reshaped constant is a constant of its own (same values, new shape).
        if (src.constant) Object.assign(info, { constant: true, values: src.values, range: src.range, type: src.type });
        else Object.assign(info, { type: src.type, offset: src.offset });
      }
      table.set(o, info);
    }
  }
  return table;
}
