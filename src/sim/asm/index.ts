// The assembler's public API: assemble GNU-syntax RISC-V assembly into the plain object model
// (AsmObject, what the linker takes) and, through writeElf, into ELF32 relocatable bytes.
export { assemble } from './assembler';
export type { AssembleOptions } from './assembler';
export { writeElf } from './elf';
export { AsmError, RELOC_NAMES, R_RISCV, SHF, SHT } from './types';
export type { AsmLocation, AsmObject, LineEntry, ObjReloc, ObjSection, ObjSymbol, SymBinding, SymType } from './types';

import { assemble as asm } from './assembler';
import type { AssembleOptions } from './assembler';
import { writeElf as elf } from './elf';
import type { AsmObject } from './types';

/** Assembles to both forms: the object model and its ELF bytes. */
export function assembleToElf(text: string, opts: AssembleOptions = {}): { object: AsmObject; elf: Uint8Array } {
  const object = asm(text, opts);
  return { object, elf: elf(object, opts.rvc ?? true) };
}
