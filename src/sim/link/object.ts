// ELF32 RISC-V relocatable objects (ET_REL, as clang-19 -c writes them): sections with their
// bytes and relocations, and the symbol table. The linker's only input format; the playground's
// assembler writes the same.
import { fail } from '../../common/errors';

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
  index: number;
  name: string;
  type: number;
  flags: number;
  align: number;
  entsize: number;
  /** The section's bytes (zeros of `size` for NOBITS). */
  data: Uint8Array;
  size: number;
  relocs: Reloc[];
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
  /** By section index (index 0 and the sections the linker consumes itself are undefined). */
  sections: (ObjSection | undefined)[];
  symbols: ObjSymbol[];
}

const EM_RISCV = 243;

/** Reads a relocatable ELF32 little-endian RISC-V object. */
export function parseObject(bytes: Uint8Array, name: string): ObjectFile {
  const bad = (what: string, hint?: string): never => fail('bad-file', what, name, hint);
  if (bytes.length < 52 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) bad('not an ELF object (no \\x7fELF magic)');
  if (bytes[4] !== 1) bad('not a 32-bit ELF object', 'compile with --target=riscv32-unknown-elf');
  if (bytes[5] !== 1) bad('a big-endian ELF object; RISC-V is little-endian');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => dv.getUint16(o, true);
  const u32 = (o: number) => dv.getUint32(o, true);
  if (u16(18) !== EM_RISCV) bad(`an ELF object for machine ${u16(18)}, not RISC-V (${EM_RISCV})`);
  if (u16(16) !== 1) bad(`ELF type ${u16(16)} is not a relocatable object (ET_REL)`, 'link objects made with -c');
  const shoff = u32(32), shentsize = u16(46), shnum = u16(48), shstrndx = u16(50);
  if (shnum === 0 || shentsize < 40 || shoff + shnum * shentsize > bytes.length) bad('truncated or missing section headers');
  const hdr = Array.from({ length: shnum }, (_, i) => {
    const o = shoff + i * shentsize;
    return { name: u32(o), type: u32(o + 4), flags: u32(o + 8), offset: u32(o + 16), size: u32(o + 20), link: u32(o + 24), info: u32(o + 28),
      align: u32(o + 32), entsize: u32(o + 36) };
  });
  const body = (i: number) => {
    const h = hdr[i];
    if (h.type === SHT.NOBITS) return new Uint8Array(h.size);
    if (h.offset + h.size > bytes.length) bad(`section ${i} runs past the end of the file`);
    return bytes.subarray(h.offset, h.offset + h.size);
  };
  const cstr = (table: Uint8Array, off: number) => {
    let end = off;
    while (end < table.length && table[end] !== 0) end++;
    return DECODER.decode(table.subarray(off, end));
  };
  const shstr = body(shstrndx);
  const sections: (ObjSection | undefined)[] = new Array(shnum);
  let symtab = -1;
  for (let i = 1; i < shnum; i++) {
    const h = hdr[i];
    if (h.type === SHT.SYMTAB) symtab = i;
    if (h.type === SHT.REL) bad(`section ${cstr(shstr, h.name)} uses REL relocations; RISC-V objects use RELA`);
    if (h.type === SHT.GROUP) bad(`section groups (COMDAT, ${cstr(shstr, h.name)}) are not supported`, 'compile C, not C++ inline functions or templates');
    if (h.type === SHT.SYMTAB || h.type === SHT.STRTAB || h.type === SHT.RELA || h.type === SHT.NULL) continue;
    sections[i] = { index: i, name: cstr(shstr, h.name), type: h.type, flags: h.flags, align: Math.max(1, h.align), entsize: h.entsize,
      data: body(i), size: h.size, relocs: [] };
  }
  const symbols: ObjSymbol[] = [];
  if (symtab >= 0) {
    const st = body(symtab), strs = body(hdr[symtab].link);
    const sv = new DataView(st.buffer, st.byteOffset, st.byteLength);
    for (let o = 0; o + 16 <= st.length; o += 16) {
      const info = st[o + 12];
      symbols.push({ name: cstr(strs, sv.getUint32(o, true)), value: sv.getUint32(o + 4, true), size: sv.getUint32(o + 8, true),
        bind: info >> 4, type: info & 15, shndx: sv.getUint16(o + 14, true) });
    }
  }
  for (let i = 1; i < shnum; i++) {
    const h = hdr[i];
    if (h.type !== SHT.RELA) continue;
    const target = sections[h.info];
    if (!target) continue;
    const r = body(i), rv = new DataView(r.buffer, r.byteOffset, r.byteLength);
    for (let o = 0; o + 12 <= r.length; o += 12) {
      const info = rv.getUint32(o + 4, true);
      const rel = { offset: rv.getUint32(o, true), type: info & 0xff, sym: info >>> 8, addend: rv.getInt32(o + 8, true) };
      if (rel.sym >= symbols.length) bad(`a relocation in ${target.name} names symbol ${rel.sym}, past the symbol table`);
      target.relocs.push(rel);
    }
  }
  return { name, sections, symbols };
}

const DECODER = new TextDecoder();
