// What the checks read off the app's state, as the panes show it: the snapshots the graph pane
// has, the node selected there, the final graph's nodes it stands for, op counts. Pure.
import type { Graph, Node } from '../../compiler/ir/graph';
import type { Snapshot } from '../../compiler/passes/types';
import { finalNodes } from '../panes/code/layers';
import { isStale } from '../store';
import type { AppView } from './types';

/** The graph pane's snapshots: the lowering's once it ran, else the parsed graph alone (as the pane shows it). */
export function snapshotsOf(app: AppView): Graph[] {
  const lower = app.stages.lower;
  if (lower.status === 'done' && lower.result) return lower.result.snapshots.map((s) => s.graph);
  const parsed = app.stages.parse.result?.graph;
  return parsed ? [parsed] : [];
}

export function lowerSnapshots(app: AppView): readonly Snapshot[] {
  const lower = app.stages.lower;
  return lower.status === 'done' && lower.result ? lower.result.snapshots : [];
}

/** The node selected in the graph pane, if it is a node of the snapshot it names. */
export function selectedNode(app: AppView): Node | null {
  const sel = app.graph.selection;
  if (!sel) return null;
  return snapshotsOf(app)[sel.snapshot]?.nodes.find((n) => n.name === sel.node) ?? null;
}

/** The final graph's nodes the selection stands for (what the code and run panes link to). */
export function selectedFinalNodes(app: AppView): string[] {
  const snaps = lowerSnapshots(app);
  return snaps.length ? finalNodes(snaps, app.graph.selection) : [];
}

export const modelId = (app: AppView) => app.model?.builtinId ?? app.model?.name ?? null;

/** Results of a compile with the configuration shown now (not stale). */
export const freshCompile = (app: AppView) => app.compiledConfig !== null && !isStale(app);

export function opCounts(g: Graph): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of g.nodes) out[n.op] = (out[n.op] ?? 0) + 1;
  return out;
}

/** The node producing each tensor. */
export function producers(g: Graph): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const n of g.nodes) for (const t of n.outputs) out.set(t, n);
  return out;
}

export const shapeText = (shape: readonly number[]) => `[${shape.join(', ')}]`;
