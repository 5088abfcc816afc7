// A stage that finished but whose check failed: the reference interpreter's outputs against
// outputs.npz, or the generated program's own comparison. Such a stage is red, never "done".
import { coordsOf } from '../compiler/interpret/compare';
import type { ValueInfo } from '../compiler/ir/graph';
import type { StageName, StageResults } from '../pipeline/results';

export interface ShownMismatch {
  tensor: string;
  index: number;
  coords: number[];
  expected: number;
  got: number;
}

export interface CheckFailure {
  /** "2 of 10 outputs differ". */
  summary: string;
  errors: number;
  total: number;
  /** The first differing elements, when the stage reports them. */
  first: ShownMismatch[];
}

const summary = (errors: number, total: number) => `${errors} of ${total} output${total === 1 ? '' : 's'} differ${errors === 1 ? 's' : ''}`;

/**
 * The failed check of a stage's result, or null when it passed or has none. The program counts
 * its outputs by number and flat index: with the graph's outputs they read as the reference's
 * rows do (tensor name and coordinates).
 */
export function checkFailure<S extends StageName>(stage: S, result: StageResults[S] | undefined, outputs?: readonly ValueInfo[]): CheckFailure | null {
  if (result === undefined) return null;
  if (stage === 'reference') {
    const c = (result as StageResults['reference']).comparison;
    if (!c || c.errors === 0) return null;
    return {
      summary: summary(c.errors, c.total), errors: c.errors, total: c.total,
      first: c.firstMismatches.map((m) => ({ tensor: m.name, index: m.index, coords: m.coords, expected: m.expected, got: m.got })),
    };
  }
  if (stage === 'run') {
    const r = result as StageResults['run'];
    if (!r.errors) return null;
    const first = (r.mismatches ?? []).map((m) => {
      const v = outputs?.[m.output];
      return { tensor: v?.name ?? `output ${m.output}`, index: m.index, coords: v ? coordsOf(m.index, v.shape) : [m.index], expected: m.expected, got: m.got };
    });
    return { summary: summary(r.errors, r.total ?? 0), errors: r.errors, total: r.total ?? 0, first };
  }
  return null;
}
