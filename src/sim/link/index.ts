// The playground's static linker (pure TypeScript: the worker and the CLI run it): relocatable
// objects (AsmObjects, or ELF32 RISC-V bytes) -> an executable for the simulator, its symbols and
// its line table.
import { link, type LinkInput, type LinkOptions, type LinkResult } from './link';
import { SIRACUSA_LAYOUT } from './layout';

export { link, type LinkInput, type LinkOptions, type LinkResult, type ProgramSymbol } from './link';
export { DISCARDED, L2_SECTIONS, SIRACUSA_LAYOUT, type Layout, type OutputRule, type Memory } from './layout';
export { lineAt, functionAt, sourceAt, type LineTable, type LineRow } from './lines';

/** Links a Siracusa program (crt0, HAL, libc, the generated files, the kernels) with Siracusa's memory map. */
export function linkSiracusa(inputs: LinkInput[], opts: LinkOptions = {}): LinkResult {
  return link(inputs, SIRACUSA_LAYOUT, opts);
}
