// The assembler's output as plain data: what an ELF32 relocatable object holds, without the ELF.
// The linker can take an AsmObject directly; elf.ts writes the same thing as ELF bytes, and
// readers of ELF objects (clang's) can produce it too. Everything is serialisable.

/** ELF section types and flags the assembler produces (SHT_*, SHF_*). */
export const SHT = { PROGBITS: 1, NOBITS: 8, NOTE: 7, INIT_ARRAY: 14, FINI_ARRAY: 15, RISCV_ATTRIBUTES: 0x70000003 } as const;
export const SHF = { WRITE: 1, ALLOC: 2, EXECINSTR: 4, MERGE: 0x10, STRINGS: 0x20, TLS: 0x400 } as const;

/** RISC-V ELF relocation types (psABI) the assembler emits. */
export const R_RISCV = {
  R_32: 1, BRANCH: 16, JAL: 17, CALL: 18, CALL_PLT: 19, PCREL_HI20: 23, PCREL_LO12_I: 24, PCREL_LO12_S: 25,
  HI20: 26, LO12_I: 27, LO12_S: 28, ADD8: 33, ADD16: 34, ADD32: 35, ADD64: 36, SUB8: 37, SUB16: 38, SUB32: 39, SUB64: 40,
  RVC_BRANCH: 44, RVC_JUMP: 45, SET_ULEB128: 60, SUB_ULEB128: 61,
} as const;

export const RELOC_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(R_RISCV).map(([k, v]) => [v, `R_RISCV_${k === 'R_32' ? '32' : k}`]));

export interface ObjReloc {
  /** Byte offset in the section of the field to patch. */
  offset: number;
  /** An R_RISCV value. */
  type: number;
  /** The symbol's name (an entry of AsmObject.symbols). */
  symbol: string;
  addend: number;
}

export interface ObjSection {
  name: string;
  /** An SHT value. */
  type: number;
  /** SHF bits. */
  flags: number;
  align: number;
  /** Entry size of mergeable sections (SHF_MERGE), else 0. */
  entsize: number;
  /** The contents (empty for NOBITS sections, whose length is `size`). */
  data: Uint8Array;
  size: number;
  relocs: ObjReloc[];
}

export type SymBinding = 'local' | 'global' | 'weak';
export type SymType = 'notype' | 'func' | 'object' | 'file' | 'section';

export interface ObjSymbol {
  name: string;
  binding: SymBinding;
  type: SymType;
  /** Index in AsmObject.sections; -1 undefined, 'abs' an absolute value, 'common' a .comm block. */
  section: number | 'abs' | 'common';
  /** Section offset (or the absolute value; for common symbols their alignment). */
  value: number;
  size: number;
  visibility?: 'default' | 'hidden' | 'protected';
}

/** One row of the line table: the instruction at `offset` of `section` comes from file:line:column. */
export interface LineEntry {
  section: number;
  offset: number;
  file: string;
  line: number;
  column: number;
}

export interface AsmObject {
  /** The source file name given by `.file "name"`, if any. */
  sourceFile?: string;
  sections: ObjSection[];
  symbols: ObjSymbol[];
  /** From `.loc`, in the order the instructions were emitted (offsets ascending per section). */
  lines: LineEntry[];
}

/** A source position of a diagnostic. */
export interface AsmLocation { file: string; line: number; column: number }

/** An assembly error: where (file:line:col), and what construct was wrong. */
export class AsmError extends Error {
  readonly loc: AsmLocation;
  readonly what: string;
  constructor(loc: AsmLocation, what: string) {
    super(`${loc.file}:${loc.line}:${loc.column}: ${what}`);
    this.name = 'AsmError';
    this.loc = loc;
    this.what = what;
  }
}
