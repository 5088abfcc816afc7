// The graph IR: plain, serialisable data (no classes, no Maps) so it crosses the worker
// boundary and JSON untouched. Every pass takes a Graph and returns a new one.

export type DType =
  | 'float32' | 'float64' | 'float16'
  | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64'
  | 'bool' | 'string';

export type TensorData =
  | Float32Array | Float64Array
  | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | BigInt64Array | BigUint64Array;

/**
 * A value's static type. After shape inference every dimension is a known integer >= 0;
 * straight out of the ONNX reader, -1 marks a dimension the file left symbolic or unset.
 */
export interface TensorType {
  dtype: DType;
  shape: number[];
}

export interface ValueInfo extends TensorType {
  name: string;
}

/** A constant tensor (ONNX initializer). */
export interface Initializer extends ValueInfo {
  data: TensorData;
}

/** ONNX attribute, keeping its ONNX kind so writing it back is exact. */
export type Attr =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'ints'; value: number[] }
  | { kind: 'floats'; value: number[] }
  | { kind: 'strings'; value: string[] }
  | { kind: 'tensor'; value: Initializer };

export interface Node {
  /** Unique within the graph. */
  name: string;
  op: string;
  /** ONNX domain ('' is the default domain). */
  domain: string;
  /** Tensor names; '' marks an omitted optional input. */
  inputs: string[];
  outputs: string[];
  attrs: Record<string, Attr>;
}

export interface Graph {
  name: string;
  /** In a topological order. */
  nodes: Node[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  initializers: Record<string, Initializer>;
  /** Type of every non-constant tensor (graph inputs, node outputs), filled by shape inference. */
  types: Record<string, TensorType>;
  opsets: { domain: string; version: number }[];
  producer?: string;
}
