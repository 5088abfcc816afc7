// What the Run pane's profiler does: pin and unpin the baseline, select a layer (through the graph
// pane's selection, which the code and memory panes follow), and the two exports.
import type { RunResult } from '../../../sim/run/types';
import type { RunProfile } from '../../../sim/profile/types';
import { traceEvents } from '../../../sim/profile/trace-events';
import { useStore } from '../../store';
import { paneData, select } from '../graph/actions';
import { pinBaseline } from './baseline';
import { download, fileSafe } from './download';
import { layersCsv } from '../../../sim/profile/table';

export function modelName(): string {
  const m = useStore.getState().model;
  return m?.builtinId ?? m?.name ?? 'model';
}

/** Pins `result` as the baseline; false when it measured no cycles to compare with. */
export function pin(result: RunResult): boolean {
  const s = useStore.getState();
  const b = pinBaseline(result, s.compiledConfig, modelName());
  if (b) useStore.setState({ runBaseline: b });
  return b !== null;
}

export function unpin(): void {
  useStore.setState({ runBaseline: null });
}

/** Selects a layer's node in the final graph (the graph, code and memory panes follow). */
export function selectLayer(node: string): void {
  const snaps = paneData(useStore.getState()).snapshots;
  if (snaps.length > 0) select({ snapshot: snaps.length - 1, node });
}

function stem(): string {
  const c = useStore.getState().compiledConfig;
  return `${fileSafe(modelName())}${c ? `-${c.cores}c-l1_${c.l1}` : ''}`;
}

export function exportTrace(profile: RunProfile, result: RunResult): void {
  const s = useStore.getState();
  const trace = traceEvents(profile, {
    model: modelName(),
    ...(s.compiledConfig ? { config: s.compiledConfig } : {}),
    ...(result.cycles !== undefined ? { runtimeCycles: result.cycles } : {}),
    generator: 'Deeploy Playground',
  });
  download(`${stem()}-trace.json`, JSON.stringify(trace), 'application/json');
}

export function exportCsv(profile: RunProfile): void {
  const b = useStore.getState().runBaseline;
  download(`${stem()}-layers.csv`, layersCsv(profile, b?.layers), 'text/csv');
}
