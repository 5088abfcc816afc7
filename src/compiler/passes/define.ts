// definePass: a named rewrite over an Editor. The pass returns the input graph untouched when
// the rewrite changed nothing; otherwise the edited graph, re-typed by shape inference (which
// is also the graph verifier: a malformed result throws, naming the node).
import type { Graph } from '../ir/graph';
import { Editor } from './editor';
import type { Pass, PassContext } from './types';

export interface PassSpec {
  name: string;
  doc: string;
  /** Edits the graph through `ed`; leaves ed.changed false when there was nothing to do. */
  rewrite(ed: Editor): void;
  /** Run the rewrite again on its own result until it changes nothing (e.g. chains of merges). */
  fixpoint?: boolean;
}

const MAX_ROUNDS = 64;

export function definePass(spec: PassSpec): Pass {
  return {
    name: spec.name,
    doc: spec.doc,
    run(g: Graph, ctx: PassContext): Graph {
      // Nodes created in an earlier round of this pass are not in the pass's input graph:
      // their provenance resolves to what they were made from.
      const made = new Map<string, string[]>();
      const wrapped: PassContext = {
        inputs: ctx.inputs,
        fresh: (base) => ctx.fresh(base),
        derive(name, sources) {
          const resolved = [...new Set(sources.flatMap((s) => (made.get(s) ?? [s])))];
          made.set(name, resolved);
          ctx.derive(name, resolved);
        },
      };
      let cur = g;
      for (let round = 0; round < (spec.fixpoint ? MAX_ROUNDS : 1); round++) {
        const ed = new Editor(cur, wrapped);
        spec.rewrite(ed);
        if (!ed.changed) break;
        cur = ed.finish();
      }
      return cur;
    },
  };
}
