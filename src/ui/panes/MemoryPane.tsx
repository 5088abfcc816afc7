import { Pane } from './Pane';

export function MemoryPane() {
  return (
    <Pane id="memory" title="Memory" stages={['tile']}>
      The memory plan: where each tensor lives (L1, L2, L3), its lifetime, and the tiling
      solution that makes every layer fit the L1 budget.
    </Pane>
  );
}
