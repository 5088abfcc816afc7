// The workspace: the graph, memory, code and run panes docked side by side in a flexlayout-react
// layout (resizable splitters, tabs, maximise with the tab set's button or a double-click on its
// tab bar), with preset arrangements; the arrangement is kept in localStorage across reloads.
import { Actions, Layout, Model, type TabNode } from 'flexlayout-react';
import 'flexlayout-react/style/light.css';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useStore } from '../store';
import { CodePane } from '../panes/CodePane';
import { GraphPane } from '../panes/GraphPane';
import { MemoryPane } from '../panes/MemoryPane';
import { RunPane } from '../panes/RunPane';
import { StaleBadge } from '../panes/StaleBadge';
import { choosePreset } from './control';
import { loadLayout, PRESETS, presetModel, saveLayout, type PaneId } from './layouts';
import './workspace.css';

const storage = (): Storage | undefined => { try { return window.localStorage; } catch { return undefined; } };

// The Operator pane brings the compiler's op checks and the test maker: a chunk of its own, loaded
// when its tab is first shown.
const OperatorPane = lazy(() => import('../operator/OperatorPane').then((m) => ({ default: m.OperatorPane })));

const PANE_COMPONENTS: Record<PaneId, () => React.ReactNode> = {
  graph: () => <GraphPane />,
  memory: () => <MemoryPane />,
  code: () => <CodePane />,
  run: () => <RunPane />,
  operator: () => <Suspense fallback={<p className="placeholder">Loading the operator editor…</p>}><OperatorPane /></Suspense>,
};

function factory(node: TabNode) {
  const make = PANE_COMPONENTS[node.getComponent() as PaneId];
  return make ? <div className="workspace-tab" data-testid={`tab-${node.getComponent()}`}>{make()}</div> : null;
}

export function Workspace() {
  // A preset replaces the model; the key remounts the layout on it.
  const [json, setJson] = useState(() => loadLayout(storage()));
  const [generation, setGeneration] = useState(0);
  const model = useMemo(() => Model.fromJson(json), [json]);
  const apply = (id: string) => {
    const next = presetModel(id);
    saveLayout(storage(), next);
    setJson(next);
    setGeneration((g) => g + 1);
  };
  // The store names the preset (a share link, the tutorial's Set up, the buttons): applied when it changes.
  const request = useStore((s) => s.layout);
  useEffect(() => { if (request.preset && request.n > 0) apply(request.preset); }, [request.n]); // eslint-disable-line react-hooks/exhaustive-deps
  // A pane asked for (a compile error's link to the operator's kernel): its tab comes to the front.
  const paneRequest = useStore((s) => s.paneRequest);
  useEffect(() => {
    if (!paneRequest.pane || paneRequest.n === 0) return;
    const id = `pane-${paneRequest.pane}`;
    const node = model.getNodeById(id);
    if (node && !(node as TabNode).isVisible()) model.doAction(Actions.selectTab(id));
  }, [paneRequest.n]); // eslint-disable-line react-hooks/exhaustive-deps
  const choose = choosePreset;
  return (
    <div className="workspace" data-testid="workspace">
      <div className="workspace-bar" role="toolbar" aria-label="Layout presets">
        <span className="workspace-bar-label">Layout</span>
        {PRESETS.map((p) => (
          <button key={p.id} type="button" className="button small" data-testid={`layout-${p.id}`} title={p.hint} onClick={() => choose(p.id)}>
            {p.title}
          </button>
        ))}
      </div>
      <div className="workspace-layout" data-testid="workspace-layout">
        <Layout key={generation} model={model} factory={factory} realtimeResize
          // The Operator pane edits inputs of the next compile; only the result panes go stale.
          onRenderTab={(node, values) => { values.content = <span className="workspace-tab-title">{node.getName()} {node.getComponent() !== 'operator' && <StaleBadge />}</span>; }}
          onModelChange={(m) => saveLayout(storage(), m.toJson())} />
      </div>
    </div>
  );
}
