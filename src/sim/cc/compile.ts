// The front end's driver: preprocess, parse and type-check, lower to IR. One translation unit
// in, one IR module out; a CcError (file:line:col: message) on the first error.
import type { TranslationUnit } from './ast';
import type { IrModule } from './ir';
import { lower } from './lower';
import { parse } from './parse';
import { preprocessStream, type PreprocessOptions } from './preprocess';

export interface FrontEndResult {
  unit: TranslationUnit;
  module: IrModule;
  /** Every file read, for caches keyed by content. */
  files: string[];
  /** Milliseconds per stage (the parser reads the preprocessor's stream: `preprocess` is the time spent making tokens). */
  ms: { preprocess: number; parse: number; lower: number };
}

export function compileToIr(path: string, opts: PreprocessOptions): FrontEndResult {
  const t0 = performance.now();
  const stream = preprocessStream(path, opts);
  const timing = { preprocess: 0 };
  const unit = parse(stream, timing);
  const t2 = performance.now();
  const module = lower(unit);
  const t3 = performance.now();
  const pp = timing.preprocess;
  return { unit, module, files: [...stream.files], ms: { preprocess: pp, parse: t2 - t0 - pp, lower: t3 - t2 } };
}
