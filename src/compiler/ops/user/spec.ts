// A user-defined operator, as the new-operator lab (tutorial Part III) writes it in the app or
// in a JSON file: its ONNX name, attributes with their allowed ranges, typed inputs and output,
// a shape rule chosen from templates, the integer reference semantics as an expression (expr.ts),
// the tiling constraints, and the C kernel. Plain data: it travels in share links, sessions and
// pipeline messages; entry.ts turns it into an op registry entry, kernel.ts into a binding.
import type { IntType } from '../../passes/ranges';

/**
 * How the output's shape follows the inputs:
 * - unary: one input, same shape (an activation);
 * - binary: two inputs broadcast numpy-style;
 * - reduce-last: one input reduced along its last axis, kept as size 1;
 * - row-last: one input, same shape, each element may read aggregates of its row (last axis).
 */
export type ShapeTemplate = 'unary' | 'binary' | 'reduce-last' | 'row-last';
export const SHAPE_TEMPLATES: readonly ShapeTemplate[] = ['unary', 'binary', 'reduce-last', 'row-last'];

export interface UserAttr {
  /** C and expression identifier. */
  name: string;
  /** One integer, or a list of integers (every element checked against the range). */
  kind: 'int' | 'ints';
  /** Used when the node omits it; without one the attribute is required. */
  default?: number | number[];
  /** Allowed range, inclusive; a node outside it is refused by the parser with this range in the message. */
  min?: number;
  max?: number;
}

export interface UserTensor {
  /** Expression identifier of an input's element, and the kernel's parameter name. */
  name: string;
  dtype: IntType;
}

/** A tiling constraint on one output dimension (axis: 0-based, negative counts from the end). */
export interface UserTileRule {
  axis: number;
  /** The tile size along the axis is a multiple of this (or the whole dimension). */
  multiple?: number;
  /** The tile size along the axis is at least this (or the whole dimension, when smaller). */
  min?: number;
}

export interface UserOpSpec {
  /** ONNX op type, e.g. "iLeakyReLU". */
  op: string;
  /** ONNX domain the op is accepted in ('' is the default domain). */
  domain: string;
  attrs: UserAttr[];
  inputs: UserTensor[];
  output: UserTensor;
  shape: ShapeTemplate;
  /**
   * Integer reference semantics, one expression giving an output element (expr.ts). It reads
   * the inputs' elements by name, the attributes by name, and for reduce-last / row-last the row
   * aggregates n, rowsum, rowmax, rowmin of input 0.
   */
  semantics: string;
  tiling: UserTileRule[];
}

/** A user operator with its kernel: what the pipeline, links and sessions carry. */
export interface UserOp {
  spec: UserOpSpec;
  /** C source of the kernel file (kernel.ts generates the skeleton). */
  kernel: string;
}
