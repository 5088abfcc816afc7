import { CodePane } from './CodePane';
import { GraphPane } from './GraphPane';
import { MemoryPane } from './MemoryPane';
import { RunPane } from './RunPane';

export function Panes() {
  return (
    <div className="panes">
      <GraphPane />
      <MemoryPane />
      <CodePane />
      <RunPane />
    </div>
  );
}
