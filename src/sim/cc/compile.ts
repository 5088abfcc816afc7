// The front end's driver: preprocess, parse and type-check, lower to IR. One translation unit
// in, one IR module out; a CcError (file:line:col: message) on the first error.
import type { TranslationUnit } from './ast';
import type { IrModule } from './ir';
import { lower } from './lower';
import { parse } from './parse';
import { preprocess, type PreprocessOptions } from './preprocess';

export interface FrontEndResult {
  unit: TranslationUnit;
  module: IrModule;
  /** Every file read, for caches keyed by content. */
  files: string[];
  /** Milliseconds per stage. */
  ms: { preprocess: number; parse: number; lower: number };
}

export function compileToIr(path: string, opts: PreprocessOptions): FrontEndResult {
  const t0 = performance.now();
  const pp = preprocess(path, opts);
  const t1 = performance.now();
  const unit = parse(pp.tokens);
  const t2 = performance.now();
  const module = lower(unit);
  const t3 = performance.now();
  return { unit, module, files: pp.files, ms: { preprocess: t1 - t0, parse: t2 - t1, lower: t3 - t2 } };
}
