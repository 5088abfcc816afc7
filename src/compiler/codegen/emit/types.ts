// The contract between the network assembler and a layer emitter. One emitter per kernel
// family of the catalogues; it sees the node, its binding and where each tensor lives (a C
// expression per buffer), and writes declarations and fork bodies. In a tiled layer the same
// emitter gets the tile-local layer (tiles.ts) with L1 tile buffers instead of whole tensors.
import type { Node } from '../../ir/graph';
import type { Binding } from '../../lower/types';
import type { IntType } from '../../passes/ranges';
import type { TensorInfo } from '../tensors';

export interface LayerSpec {
  node: Node;
  binding: Binding;
  /** Attributes parsed with the op's specs (defaults filled in). */
  attrs: Record<string, unknown>;
  /** `node "name" (Op)`, for errors. */
  where: string;
  /** Operands by input position (undefined: an omitted optional input). */
  ins: (TensorInfo | undefined)[];
  outs: TensorInfo[];
  /** Prefix of the layer's C identifiers, e.g. "L3". */
  id: string;
  /** The layer's position in CodegenResult.layers (the bounds checker reports it). */
  index: number;
  /** Cores the layer's forks run on. */
  cores: number;
}

export interface EmitSink {
  /** C pointer expression of a tensor's data (registers a constant in the weights file). */
  data(t: TensorInfo): string;
  /** A constant array of the given type (values checked to fit), returns its identifier. */
  constant(values: ArrayLike<number>, type: IntType, name: string, where: string): string;
  /** A static declaration placed before the layer's fork bodies. */
  decl(code: string): void;
  /** One fork: statements every core runs (the kernels split the work by core id). */
  step(code: string): void;
  /** A per-layer scratch buffer of `bytes` bytes (im2col rows), returns its identifier. */
  scratch(bytes: number): string;
}

/**
 * How a kernel treats Generic's input offset: 'absorb' adds it back (x_off arguments),
 * 'passthrough' only moves data (the output carries the offset), 'alias' emits no code (the
 * output shares the input's buffer), 'none' cannot take offset data.
 */
export type OffsetRule = 'absorb' | 'passthrough' | 'alias' | 'none';

export interface Emitter {
  /** Matches the binding's kernel name. */
  family: RegExp;
  offsets: OffsetRule;
  emit(l: LayerSpec, out: EmitSink): void;
}
