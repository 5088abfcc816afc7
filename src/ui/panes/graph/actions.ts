// What the user does in the graph pane, as store updates; and the snapshots the pane shows,
// read from the stage results.
import type { Graph } from '../../../compiler/ir/graph';
import type { Snapshot } from '../../../compiler/passes/types';
import type { LowerStageResult, ParseResult } from '../../../pipeline/results';
import type { PlaygroundState } from '../../store';
import { showError, useStore } from '../../store';
import { downloadOnnx, exportName } from './layouts';
import type { GraphPaneState, NodeRef } from './state';
import { stepRight } from './state';

export interface PaneData {
  snapshots: readonly Snapshot[];
  /** The lower stage's result, once it has run. */
  lower: LowerStageResult | null;
}

const inputSnapshots = new WeakMap<Graph, Snapshot[]>();

/** Until the lower stage has run, the parsed graph alone, as lowering's first snapshot would show it. */
function parsedOnly(graph: Graph): Snapshot[] {
  let s = inputSnapshots.get(graph);
  if (!s) {
    s = [{
      pass: 'input', doc: 'The graph as parsed from the ONNX file.', graph, changed: false,
      origin: Object.fromEntries(graph.nodes.map((n) => [n.name, [n.name]])), removed: [], ms: 0,
    }];
    inputSnapshots.set(graph, s);
  }
  return s;
}

const EMPTY: PaneData = { snapshots: [], lower: null };
let lastData: { lower?: LowerStageResult; parse?: ParseResult; data: PaneData } | null = null;

export function paneData(s: PlaygroundState): PaneData {
  const lower = s.stages.lower.status === 'done' ? s.stages.lower.result : undefined;
  const parse = s.stages.parse.result;
  if (lastData && lastData.lower === lower && lastData.parse === parse) return lastData.data;
  const data: PaneData = lower
    ? { snapshots: lower.snapshots, lower }
    : parse ? { snapshots: parsedOnly(parse.graph), lower: null } : EMPTY;
  lastData = { lower, parse, data };
  return data;
}

export const usePaneData = () => useStore(paneData);

function patch(p: Partial<GraphPaneState>): void {
  useStore.setState((s) => ({ graph: { ...s.graph, ...p } }));
}

export function select(ref: NodeRef | null): void {
  patch({ selection: ref });
}

export function showRight(i: number): void {
  patch({ right: i, overview: false });
}

/** A number pins the left side; null makes it follow the right one. */
export function showLeft(i: number | null): void {
  const { right, overview } = useStore.getState().graph;
  // Leaving the overview keeps its final graph on the right.
  patch({ left: i, overview: false, right: overview ? null : right });
}

export function setHideUnchanged(hide: boolean): void {
  patch({ hideUnchanged: hide });
}

/** Steps the right side through the shown passes (the arrow keys). */
export function step(delta: number): void {
  const s = useStore.getState();
  const { snapshots } = paneData(s);
  if (snapshots.length) patch({ right: stepRight(s.graph, snapshots, delta), overview: false });
}

export async function exportSnapshot(index: number): Promise<void> {
  const s = useStore.getState();
  const snap = paneData(s).snapshots[index];
  if (!snap) return;
  const model = s.model?.builtinId ?? s.model?.name ?? 'model';
  try {
    await downloadOnnx(snap.graph, exportName(model, snap.pass));
  } catch (err) {
    showError(`Could not export the graph after ${snap.pass}`, {
      code: 'internal', what: err instanceof Error ? err.message : String(err), where: `snapshot ${index} (${snap.pass})`,
      hint: 'this is a bug in the playground; the other snapshots may still export',
    });
  }
}
