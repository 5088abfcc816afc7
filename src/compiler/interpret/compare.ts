// Comparing outputs with golden outputs the way Deeploy counts them: "Errors: E out of T",
// T being the number of output elements and E those that differ.
import { fail } from '../../common/errors';
import type { TensorData } from '../ir/graph';
import { shapeStr } from '../ops/core/tensor';

export interface Mismatch {
  /** Output position and name (the golden array's name when there is one). */
  output: number;
  name: string;
  /** Flat element index and its coordinates in the output's shape. */
  index: number;
  coords: number[];
  got: number;
  expected: number;
}

export interface OutputCheck {
  errors: number;
  total: number;
  /** Per output: its error and element counts. */
  perOutput: { name: string; errors: number; total: number }[];
  /** The first mismatching elements (at most `maxMismatches`), in output order. */
  firstMismatches: Mismatch[];
}

interface Values {
  name?: string;
  shape: number[];
  data: TensorData;
}

const num = (d: TensorData, i: number): number => Number(d[i]);

/**
 * Counts differing elements between computed outputs and golden outputs (by position).
 * A different number of outputs or elements is a 'bad-inputs' error naming `fileName`.
 */
export function checkOutputs(got: readonly Values[], golden: readonly Values[], fileName = 'outputs.npz',
  maxMismatches = 10): OutputCheck {
  if (golden.length !== got.length)
    fail('bad-inputs', `holds ${golden.length} array${golden.length === 1 ? '' : 's'}, but the graph has ${got.length} output${got.length === 1 ? '' : 's'}`, fileName,
      'arrays map to graph outputs by position');
  const result: OutputCheck = { errors: 0, total: 0, perOutput: [], firstMismatches: [] };
  got.forEach((g, o) => {
    const e = golden[o];
    const name = e.name || g.name || `output ${o}`;
    if (e.data.length !== g.data.length)
      fail('bad-inputs', `array ${o} ('${name}') has ${e.data.length} elements ${shapeStr(e.shape)}, but graph output ${o}${g.name ? ` ('${g.name}')` : ''} has ${g.data.length} ${shapeStr(g.shape)}`, fileName);
    let errors = 0;
    for (let i = 0; i < g.data.length; i++) {
      const a = num(g.data, i), b = num(e.data, i);
      if (a === b) continue;
      errors++;
      if (result.firstMismatches.length < maxMismatches)
        result.firstMismatches.push({ output: o, name, index: i, coords: coordsOf(i, g.shape), got: a, expected: b });
    }
    result.perOutput.push({ name, errors, total: g.data.length });
    result.errors += errors;
    result.total += g.data.length;
  });
  return result;
}

/** The coordinates of flat index `i` in a row-major tensor of `shape`. */
export function coordsOf(i: number, shape: readonly number[]): number[] {
  const c = new Array<number>(shape.length);
  for (let a = shape.length - 1; a >= 0; a--) {
    c[a] = i % shape[a];
    i = Math.floor(i / shape[a]);
  }
  return c;
}

/** "Errors: E out of T", Deeploy's summary line. */
export function formatCheck(c: OutputCheck): string {
  return `Errors: ${c.errors} out of ${c.total}`;
}
