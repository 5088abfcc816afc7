// What the codegen stage produces: the generated C files and, for every layer, where its code
// is (so the code pane links graph nodes and C lines). Plain, serialisable data.

export type FileKind = 'network' | 'weights' | 'harness' | 'data' | 'build' | 'kernel';

export interface GeneratedFile {
  /** Relative path, e.g. "Network.c". */
  path: string;
  content: string;
  kind: FileKind;
}

/** 1-based, inclusive line range in one generated file. */
export interface LineRange {
  file: string;
  from: number;
  to: number;
}

export interface LayerCode {
  /** Node of the final (lowered) graph. */
  node: string;
  op: string;
  kernel: string;
  engine: string;
  /** The C function(s) of the kernel library the layer calls. */
  calls: string[];
  ranges: LineRange[];
  /** The tiler's cost estimate of the layer, cycles (tiled layers). */
  estimate?: number;
}

export interface BufferInfo {
  /** C identifier. */
  name: string;
  /** Tensors stored in it (a Reshape's output aliases its input's buffer). */
  tensors: string[];
  ctype: string;
  bytes: number;
  /** 'activation' (static, in L2), 'input' / 'output' of the network, or 'constant'. */
  role: 'activation' | 'input' | 'output' | 'constant';
}

export interface CodegenResult {
  platform: string;
  /** Cores every cluster layer is forked on. */
  cores: number;
  files: GeneratedFile[];
  layers: LayerCode[];
  buffers: BufferInfo[];
  /** Output elements the harness compares ("Errors: E out of T"). */
  totalOutputs: number;
  /** Where the harness's inputs and golden outputs come from. */
  testData: { inputs: 'inputs.npz' | 'random'; golden: 'outputs.npz' | 'reference interpreter' };
}
