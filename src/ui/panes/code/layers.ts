// Linking code and graph: every layer of the codegen result names the final graph's node it
// implements and the line ranges of its code (LayerCode.ranges), so going from a node to its
// code, or from a line to its node, is a lookup. Pure: no Monaco, no React.
import type { LayerCode } from '../../../compiler/codegen/types';
import type { Snapshot } from '../../../compiler/passes/types';
import { relate } from '../graph/lineage';
import type { NodeRef } from '../graph/state';

/** A layer's lines in one file (1-based, inclusive); edits in the editor may move them. */
export interface NodeRange {
  node: string;
  from: number;
  to: number;
}

/** The layers' ranges in `file`, in file order. */
export function rangesIn(layers: readonly LayerCode[], file: string): NodeRange[] {
  const out: NodeRange[] = [];
  for (const l of layers) for (const r of l.ranges) if (r.file === file) out.push({ node: l.node, from: r.from, to: r.to });
  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

/** The node whose code holds `line`: the narrowest range holding it, or null. */
export function nodeAtLine(ranges: readonly NodeRange[], line: number): string | null {
  let best: NodeRange | null = null;
  for (const r of ranges)
    if (r.from <= line && line <= r.to && (!best || r.to - r.from < best.to - best.from)) best = r;
  return best?.node ?? null;
}

/**
 * The final graph's nodes a selection stands for: itself when it is in the final snapshot,
 * otherwise what it became through the passes after its own (a Conv of the input graph ->
 * its RequantizedConv).
 */
export function finalNodes(snapshots: readonly Snapshot[], selection: NodeRef | null): string[] {
  const last = snapshots.length - 1;
  if (!selection) return [];
  const snap = snapshots[selection.snapshot];
  // A selection left over from another model names no node of these snapshots.
  if (!snap || !snap.graph.nodes.some((n) => n.name === selection.node)) return [];
  return relate(snapshots, selection.snapshot, [selection.node], last);
}

/**
 * Where to show the code of `nodes`: the file shown now if it holds some of it, otherwise
 * the file of their first range; and their ranges there. Null when none has code.
 */
export function codeOf(layers: readonly LayerCode[], nodes: readonly string[], current: string | null):
  { file: string; ranges: NodeRange[] } | null {
  const wanted = new Set(nodes);
  const mine = layers.filter((l) => wanted.has(l.node));
  const all = mine.flatMap((l) => l.ranges);
  if (all.length === 0) return null;
  const file = all.some((r) => r.file === current) ? current! : all[0]!.file;
  return { file, ranges: rangesIn(mine, file) };
}

/** Whether any line of `ranges` is within one of the visible line spans. */
export function anyVisible(ranges: readonly { from: number; to: number }[], visible: readonly { from: number; to: number }[]): boolean {
  return ranges.some((r) => visible.some((v) => r.from <= v.to && v.from <= r.to));
}
