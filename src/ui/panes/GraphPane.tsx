import { Pane } from './Pane';

export function GraphPane() {
  return (
    <Pane id="graph" title="Graph" stages={['parse', 'lower']}>
      The network as a graph: the ONNX nodes with their shapes and types, then the graph after
      each of Deeploy's lowering passes, step by step.
    </Pane>
  );
}
