// The linker's view of one input object: the assembler's AsmObject (the one object model of the
// toolchain; ELF objects, clang's, are read into it by asm/elf-read.ts) indexed the way the
// linker walks it: sections and symbols by number (ELF numbering: 0 is no section / the null
// symbol), relocations by symbol index, the line rows by section.
import { fail } from '../../common/errors';
import type { AsmObject, LineEntry, SymBinding, SymType } from '../asm/types';

export const SHT = { NULL: 0, PROGBITS: 1, SYMTAB: 2, STRTAB: 3, RELA: 4, NOBITS: 8, REL: 9, GROUP: 17 } as const;
export const SHF = { WRITE: 1, ALLOC: 2, EXECINSTR: 4, MERGE: 0x10, STRINGS: 0x20, INFO_LINK: 0x40, GROUP: 0x200 } as const;
export const SHN = { UNDEF: 0, ABS: 0xfff1, COMMON: 0xfff2 } as const;
export const STB = { LOCAL: 0, GLOBAL: 1, WEAK: 2 } as const;
export const STT = { NOTYPE: 0, OBJECT: 1, FUNC: 2, SECTION: 3, FILE: 4 } as const;

export interface Reloc {
  /** Offset of the patched bytes in the section (as in the object, before any nop removal). */
  offset: number;
  type: number;
  /** Index into the object's symbols. */
  sym: number;
  addend: number;
}

export interface ObjSection {
  /** 1 + the section's index in the AsmObject. */
  index: number;
  name: string;
  type: number;
  flags: number;
  align: number;
  entsize: number;
  /** The section's bytes (empty for NOBITS). */
  data: Uint8Array;
  size: number;
  relocs: Reloc[];
  /** Line rows of the code in this section (objects of our compiler: `.loc`; clang's carry .debug_line instead). */
  lines: LineEntry[];
}

export interface ObjSymbol {
  name: string;
  value: number;
  size: number;
  bind: number;
  type: number;
  /** Section index, or SHN.UNDEF / ABS / COMMON. */
  shndx: number;
}

export interface ObjectFile {
  name: string;
  /** By section index (index 0 is undefined). */
  sections: (ObjSection | undefined)[];
  /** Index 0 is the null symbol. */
  symbols: ObjSymbol[];
}

const BIND: Record<SymBinding, number> = { local: STB.LOCAL, global: STB.GLOBAL, weak: STB.WEAK };
const TYPE: Record<SymType, number> = { notype: STT.NOTYPE, object: STT.OBJECT, func: STT.FUNC, section: STT.SECTION, file: STT.FILE };

/** Indexes an AsmObject for the linker; a relocation naming no symbol of the object is a 'bad-file' error. */
export function indexObject(obj: AsmObject, name: string): ObjectFile {
  const symbols: ObjSymbol[] = [{ name: '', value: 0, size: 0, bind: STB.LOCAL, type: STT.NOTYPE, shndx: SHN.UNDEF }];
  const byName = new Map<string, number>([['', 0]]);
  for (const s of obj.symbols) {
    const shndx = s.section === 'abs' ? SHN.ABS : s.section === 'common' ? SHN.COMMON : s.section < 0 ? SHN.UNDEF : s.section + 1;
    if (typeof s.section === 'number' && s.section >= obj.sections.length)
      fail('bad-file', `symbol ${s.name} is in section ${s.section}, past the object's ${obj.sections.length} sections`, name);
    if (!byName.has(s.name)) byName.set(s.name, symbols.length);
    symbols.push({ name: s.name, value: s.value >>> 0, size: s.size >>> 0, bind: BIND[s.binding], type: TYPE[s.type], shndx });
  }
  const sections: (ObjSection | undefined)[] = [undefined];
  obj.sections.forEach((sec, i) => {
    sections.push({
      index: i + 1, name: sec.name, type: sec.type, flags: sec.flags, align: Math.max(1, sec.align), entsize: sec.entsize,
      data: sec.data, size: sec.type === SHT.NOBITS ? sec.size : sec.data.length, lines: [],
      relocs: sec.relocs.map((r) => {
        const sym = byName.get(r.symbol);
        if (sym === undefined) fail('bad-file', `a relocation in ${sec.name} at 0x${r.offset.toString(16)} names ${r.symbol}, which is not in the symbol table`, name);
        return { offset: r.offset, type: r.type, sym, addend: r.addend };
      }),
    });
  });
  for (const l of obj.lines) sections[l.section + 1]?.lines.push(l);
  return { name, sections, symbols };
}
