import { Pane } from './Pane';

export function RunPane() {
  return (
    <Pane id="run" title="Run" stages={['reference', 'run']}>
      The simulated run: cycles per layer and in total, and the outputs compared with the
      reference interpreter and with outputs.npz.
    </Pane>
  );
}
