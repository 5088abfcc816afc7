import { Pane } from './Pane';

export function CodePane() {
  return (
    <Pane id="code" title="Code" stages={['codegen']}>
      The generated C for Siracusa: the network's init and run functions and the kernel calls,
      each line linked back to the graph node it came from.
    </Pane>
  );
}
