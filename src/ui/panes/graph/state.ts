// The graph pane's state, kept in the app store so other panes can link to it: which
// snapshots the two sides show, the selected node, and whether passes that changed nothing
// are hidden. Plain serialisable data, and the pure rules for stepping through passes.

/** A node of one snapshot (its index in the lower stage's snapshots). */
export interface NodeRef {
  snapshot: number;
  node: string;
}

export interface GraphPaneState {
  /** Snapshot on the right; null follows the last one. */
  right: number | null;
  /** Snapshot on the left; null follows the right one: the shown pass before it. */
  left: number | null;
  /** Hide passes that changed nothing in the pass list (and skip them when stepping). */
  hideUnchanged: boolean;
  /** The selected node; the panes that link to the graph read it. */
  selection: NodeRef | null;
  /** Right after a compile: the input graph on the left against the final one on the right, until the user picks a pass. */
  overview: boolean;
}

export const INITIAL_GRAPH_STATE: GraphPaneState = { right: null, left: null, hideUnchanged: false, selection: null, overview: false };

/** What the stepping rules need to know of a snapshot. */
export interface PassInfo {
  changed: boolean;
}

/** Indices of the passes the list shows: all, or the input and those that changed the graph. */
export function shownPasses(passes: readonly PassInfo[], hideUnchanged: boolean): number[] {
  return passes.map((_, i) => i).filter((i) => !hideUnchanged || i === 0 || passes[i]!.changed);
}

export interface Sides {
  left: number;
  right: number;
}

/** The snapshots the two sides show, clamped to the snapshots there are. */
export function resolveSides(s: GraphPaneState, passes: readonly PassInfo[]): Sides {
  const last = Math.max(0, passes.length - 1);
  // The last shown pass holds the final graph (passes after it changed nothing).
  if (s.overview) return { left: 0, right: shownPasses(passes, s.hideUnchanged).at(-1) ?? last };
  const right = Math.min(s.right ?? last, last);
  if (s.left !== null) return { left: Math.min(s.left, last), right };
  const before = shownPasses(passes, s.hideUnchanged).filter((i) => i < right);
  return { left: before.at(-1) ?? right, right };
}

/** The right side after stepping `delta` shown passes from where it is now. */
export function stepRight(s: GraphPaneState, passes: readonly PassInfo[], delta: number): number {
  const { right } = resolveSides(s, passes);
  const shown = shownPasses(passes, s.hideUnchanged);
  if (shown.length === 0) return right;
  if (delta > 0) return shown.find((i) => i > right) ?? shown.at(-1)!;
  return shown.findLast((i) => i < right) ?? shown[0]!;
}

