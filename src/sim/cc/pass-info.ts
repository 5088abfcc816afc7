// What the optimiser (opt/index.ts OPT_PASSES) and the back end (rv/passes.ts RV_PASSES) say of
// each of their optional passes, and the check of the names a caller turns off.
import { fail } from '../../common/errors';

/** A pass's entry in a schedule: what the pass list prints and `disable` names. */
export interface PassInfo {
  name: string;
  /** One line: what it does. */
  doc: string;
  /** The lowest -O level that runs it. */
  level: 1 | 2;
}

/** Throws a bad-config error (where: --disable) naming the first of `names` that `known` lacks, and listing those it has. */
export function checkPassNames(names: readonly string[], known: readonly PassInfo[]): void {
  for (const n of names) {
    if (!known.some((p) => p.name === n))
      fail('bad-config', `unknown optimisation '${n}'`, '--disable', `known: ${known.map((p) => p.name).join(', ')}`);
  }
}
