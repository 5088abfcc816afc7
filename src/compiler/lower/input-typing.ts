// What the kernels see of the graph inputs. type-inputs gave each input the integer type its
// values need; the platform then decides: Siracusa keeps uint8 camera data uint8, Generic makes
// unsigned inputs signed by subtracting 2^(w-1) before the network runs (its kernels add it
// back). That offset is a data convention for codegen, recorded here; the graph's semantics,
// and so the semantic check, are unchanged.
import type { Graph } from '../ir/graph';
import { DTYPES } from '../ir/dtype';
import type { TensorValue } from '../interpret/interpret';
import { inputType } from '../passes/front/type-inputs';
import type { IntType, Range } from '../passes/ranges';
import type { Platform } from '../platforms/types';
import type { InputTyping } from './types';

const SIGNED_OF: Partial<Record<IntType, IntType>> = { uint8: 'int8', uint16: 'int16', uint32: 'int32' };

/**
 * Types of the final graph's inputs. `positions[k]` is the index in the parsed graph (and in
 * inputs.npz) of final input k; `values` are the inputs.npz arrays bound to the parsed graph.
 */
export function typeInputsFor(parsed: Graph, final: Graph, positions: number[], platform: Platform,
  values?: readonly TensorValue[]): InputTyping[] {
  return final.inputs.map((v, k) => {
    const p = positions[k];
    const { dtype, source } = inputType(parsed.inputs[p]?.dtype ?? v.dtype, values?.[p]);
    const signed = platform.inputTyping === 'signed-offset' ? SIGNED_OF[dtype] : undefined;
    return {
      name: v.name, index: p, dtype, kernelDtype: signed ?? dtype,
      offset: signed ? -(DTYPES[dtype].max! + 1) / 2 : 0, source,
    };
  });
}

/** The value range each input has as the kernels see it (its kernel dtype's full range). */
export function kernelRanges(types: readonly InputTyping[]): Record<string, Range> {
  return Object.fromEntries(types.map((t) => {
    const d = DTYPES[t.kernelDtype as IntType];
    return [t.name, [d.min!, d.max!] as Range];
  }));
}
