// A step's Set up, done as a user would with the header and the configuration panel: load the
// built-in model (unless it is loaded already), set the configuration on top of the defaults,
// clear the graph pane's selection and sides, arrange the panes. It compiles nothing.
import { DEFAULT_CONFIG } from '../../compiler/config';
import { cancel, loadBuiltin } from '../actions';
import { INITIAL_GRAPH_STATE } from '../panes/graph/state';
import { updateConfig, useStore } from '../store';
import { choosePreset } from '../workspace/control';
import type { Setup } from './types';

/** Applies `s`; resolves to why it could not, or null. */
export async function applySetup(s: Setup): Promise<string | null> {
  const { getState, setState } = useStore;
  if (getState().busy?.kind === 'compile') cancel();
  if (s.model !== undefined && getState().model?.builtinId !== s.model) {
    const list = getState().builtins;
    if (list.state !== 'ready') return 'the built-in models are not loaded (yet)';
    const m = list.models.find((x) => x.id === s.model);
    if (!m) return `there is no built-in model '${s.model}': run npm run models`;
    await loadBuiltin(m);
    if (getState().model?.builtinId !== s.model) return `could not load ${m.name} (see the message above)`;
  }
  setState({ drafts: {} });
  const err = updateConfig({ ...DEFAULT_CONFIG, ...s.config });
  if (err) return err.what;
  // The student's own model (no built-in named) keeps its selection: Part III looks at its one node.
  if (s.model !== undefined) setState((st) => ({ graph: { ...INITIAL_GRAPH_STATE, hideUnchanged: st.graph.hideUnchanged } }));
  choosePreset(s.preset);
  return null;
}
