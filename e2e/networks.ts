// Generated networks for the browser tests and benchmarks (bench/layout.ts): plain graph IR,
// written to .onnx with src/compiler/onnx/write.ts where a file is needed.
import type { Graph, Node } from '../src/compiler/ir/graph';

/**
 * n int8 nodes in blocks of four: a Relu, two parallel Relus on its output, and an Add
 * joining them (a network 3n/4 deep, so the layout has branches to order on every level).
 */
export function blockNetwork(n: number): Graph {
  const nodes: Node[] = [];
  const relu = (i: number, input: string): Node =>
    ({ name: `relu_${i}`, op: 'Relu', domain: '', inputs: [input], outputs: [`t${i}`], attrs: {} });
  let prev = 'x';
  for (let i = 0; i < n; i += 4) {
    nodes.push(relu(i, prev), relu(i + 1, `t${i}`), relu(i + 2, `t${i}`));
    nodes.push({ name: `add_${i + 3}`, op: 'Add', domain: '', inputs: [`t${i + 1}`, `t${i + 2}`], outputs: [`t${i + 3}`], attrs: {} });
    prev = `t${i + 3}`;
  }
  return {
    name: 'blocks', nodes, initializers: {}, types: {}, opsets: [{ domain: '', version: 13 }],
    inputs: [{ name: 'x', dtype: 'int8', shape: [1, 16] }], outputs: [{ name: prev, dtype: 'int8', shape: [1, 16] }],
  };
}
