// onnx-proto is a CommonJS module: Node's ESM loader cannot see its named exports, so take
// the runtime namespace from the default export. Types still come from `import type { onnx }`.
import pkg from 'onnx-proto';
import type { onnx as OnnxNs } from 'onnx-proto';

export const proto: typeof OnnxNs = (pkg as unknown as { onnx: typeof OnnxNs }).onnx;
