// Passes and the snapshots the pass manager records. A snapshot is plain data: the graph after
// the pass and, for each of its nodes, which nodes of the previous graph it came from. That
// provenance is what lets the graph pane show "what became what" as a lookup.
import type { Graph } from '../ir/graph';
import type { TensorValue } from '../interpret/interpret';

export interface PassContext {
  /** A node or tensor name not used in the graph being rewritten (nor handed out before). */
  fresh(base: string): string;
  /**
   * Declares that node `name` of the pass's output was made from `sources` (node names of
   * its input): 1:1 for a rewrite, N:1 for a fusion, 1:N when one node is split or a
   * helper node (an inserted Transpose) serves it. Kept nodes need no declaration.
   */
  derive(name: string, sources: string[]): void;
  /**
   * Values of the graph inputs the network is being deployed for (inputs.npz, by position in
   * the pipeline's input graph), when given. Only input typing reads them.
   */
  readonly inputs?: readonly TensorValue[];
}

export interface Pass {
  /** Shown in the pass list, e.g. "fuse-conv-requant". */
  name: string;
  /** One sentence: what the pass does, in the user's terms. */
  doc: string;
  /** Returns a new graph (or the same object when nothing changed); never mutates `g`. */
  run(g: Graph, ctx: PassContext): Graph;
}

export interface Snapshot {
  /** 'input' for the graph as parsed, then one snapshot per pass. */
  pass: string;
  doc: string;
  graph: Graph;
  /** False when the pass left the graph as it was (the pass list can hide those). */
  changed: boolean;
  /** For every node of `graph`: the nodes of the previous snapshot it came from. */
  origin: Record<string, string[]>;
  /** Nodes of the previous snapshot that nothing here came from (deleted outright). */
  removed: string[];
  ms: number;
}
