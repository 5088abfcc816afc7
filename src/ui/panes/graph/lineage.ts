// Which node became which across passes, and how each node of one side differs from the
// other side. Every snapshot says, for each of its nodes, the nodes of the previous snapshot
// it came from (Snapshot.origin); following those links over several passes relates any two
// snapshots, so linking the two sides of the pane is a lookup, not a search.
import { own } from '../../../common/own';
import type { Node } from '../../../compiler/ir/graph';
import type { Snapshot } from '../../../compiler/passes/types';

/** How a node relates to the other side, as the pane colours it. */
export type NodeStatus = 'same' | 'changed' | 'added' | 'removed' | 'fused';

/** For each snapshot k > 0: node of snapshot k-1 -> the nodes of snapshot k made from it. */
const successorsMemo = new WeakMap<readonly Snapshot[], Map<string, string[]>[]>();

function successors(snaps: readonly Snapshot[]): Map<string, string[]>[] {
  let s = successorsMemo.get(snaps);
  if (!s) {
    s = snaps.map((snap) => {
      const inv = new Map<string, string[]>();
      for (const [node, from] of Object.entries(snap.origin))
        for (const f of from) {
          const list = inv.get(f);
          if (list) list.push(node);
          else inv.set(f, [node]);
        }
      return inv;
    });
    successorsMemo.set(snaps, s);
  }
  return s;
}

/**
 * The nodes of snapshot `to` related to `nodes` of snapshot `from`: what they came from
 * (to < from) or what they became (to > from), following every pass in between.
 */
export function relate(snaps: readonly Snapshot[], from: number, nodes: readonly string[], to: number): string[] {
  let cur = [...new Set(nodes)];
  if (to < from) {
    for (let k = from; k > to && cur.length; k--) {
      const origin = snaps[k]!.origin;
      cur = [...new Set(cur.flatMap((n) => own(origin, n) ?? []))];
    }
  } else if (to > from) {
    const succ = successors(snaps);
    for (let k = from + 1; k <= to && cur.length; k++) cur = [...new Set(cur.flatMap((n) => succ[k]!.get(n) ?? []))];
  }
  return cur;
}

function attrsKey(n: Node): string {
  return JSON.stringify(Object.entries(n.attrs).sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, a]) => [k, a.kind === 'tensor' ? [a.value.dtype, a.value.shape] : a.value]));
}

function sameNode(a: Node, b: Node): boolean {
  return a.op === b.op && a.domain === b.domain && a.inputs.join('\u0000') === b.inputs.join('\u0000')
    && a.outputs.join('\u0000') === b.outputs.join('\u0000') && attrsKey(a) === attrsKey(b);
}

export interface SideStatus {
  /** Status of each node of the older snapshot, relative to the newer one. */
  older: Map<string, NodeStatus>;
  /** Status of each node of the newer snapshot, relative to the older one. */
  newer: Map<string, NodeStatus>;
}

/** A node keeps its identity through a pass that derives it from itself alone. */
const kept = (snap: Snapshot, name: string) => {
  const o = own(snap.origin, name);
  return o !== undefined && o.length === 1 && o[0] === name;
};

/**
 * Colours for two snapshots, older <= newer, by following each node through the passes in
 * between. A node of the newer one that was made by one of those passes is fused (made from
 * several nodes) or added (a new name: an inserted node, or a rewrite under a new name); one
 * that kept its identity is the same or changed (other op, tensors or attributes). A node of
 * the older one that kept its identity is the same or changed; otherwise it went into a
 * fusion (fused), became nothing (removed), or was rewritten into other nodes (changed).
 */
export function compareSnapshots(snaps: readonly Snapshot[], older: number, newer: number): SideStatus {
  const a = snaps[older]!.graph, b = snaps[newer]!.graph;
  const oldNodes = new Map(a.nodes.map((n) => [n.name, n]));
  const newNodes = new Map(b.nodes.map((n) => [n.name, n]));
  const newerStatus = new Map<string, NodeStatus>();
  const olderStatus = new Map<string, NodeStatus>();
  for (const n of b.nodes) {
    let k = newer;
    while (k > older && kept(snaps[k]!, n.name)) k--;
    newerStatus.set(n.name, k > older ? (own(snaps[k]!.origin, n.name)!.length > 1 ? 'fused' : 'added')
      : sameNode(oldNodes.get(n.name)!, n) ? 'same' : 'changed');
  }
  if (older === newer) return { older: newerStatus, newer: newerStatus };
  const succ = successors(snaps);
  for (const n of a.nodes) {
    let k = older + 1;
    while (k <= newer && kept(snaps[k]!, n.name)) k++;
    if (k > newer) {
      olderStatus.set(n.name, sameNode(n, newNodes.get(n.name)!) ? 'same' : 'changed');
      continue;
    }
    const into = succ[k]!.get(n.name) ?? [];
    olderStatus.set(n.name, into.length === 0 ? 'removed'
      : into.some((x) => own(snaps[k]!.origin, x)!.length > 1) ? 'fused' : 'changed');
  }
  return { older: olderStatus, newer: newerStatus };
}
