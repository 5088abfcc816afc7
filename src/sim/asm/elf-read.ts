// ELF32 RISC-V relocatable object bytes -> AsmObject: the inverse of elf.ts, so objects from
// clang-19 (the linker's reference inputs, the differential tests) or from our writer reach the
// linker as the same model. The one ELF object reader of the toolchain.
import { fail } from '../../common/errors';
import { SHT } from './types';
import type { AsmObject, ObjSection, ObjSymbol, SymBinding, SymType } from './types';

const SHT_SYMTAB = 2;
const SHT_STRTAB = 3;
const SHT_RELA = 4;
const SHT_REL = 9;
const SHT_GROUP = 17;
const EM_RISCV = 243;
const BINDS: SymBinding[] = ['local', 'global', 'weak'];
const TYPES: SymType[] = ['notype', 'object', 'func', 'section', 'file'];
const VIS = ['default', 'default', 'hidden', 'protected'] as const;
const DECODER = new TextDecoder();

/**
 * Reads a relocatable ELF32 little-endian RISC-V object. Relocations name their symbol; local
 * symbols whose name an earlier symbol already has (LLVM's `.L0 ` temporaries under -mrelax) get
 * `#k` appended (k: their index in the ELF symbol table; no assembler name holds a '#'), so
 * every name is one symbol. Malformed input is a 'bad-file' error naming `name`.
 */
export function readElfObject(bytes: Uint8Array, name = 'object'): AsmObject {
  const bad = (what: string, hint?: string): never => fail('bad-file', what, name, hint);
  if (bytes.length < 52 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) bad('not an ELF object (no \\x7fELF magic)');
  if (bytes[4] !== 1) bad('not a 32-bit ELF object', 'compile with --target=riscv32-unknown-elf');
  if (bytes[5] !== 1) bad('a big-endian ELF object; RISC-V is little-endian');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint16(18, true) !== EM_RISCV) bad(`an ELF object for machine ${v.getUint16(18, true)}, not RISC-V (${EM_RISCV})`);
  if (v.getUint16(16, true) !== 1) bad(`ELF type ${v.getUint16(16, true)} is not a relocatable object (ET_REL)`, 'link objects made with -c');
  const shoff = v.getUint32(32, true);
  const shentsize = v.getUint16(46, true);
  const shnum = v.getUint16(48, true);
  const shstrndx = v.getUint16(50, true);
  if (shnum === 0 || shentsize < 40 || shoff + shnum * shentsize > bytes.length || shstrndx >= shnum) bad('truncated or missing section headers');
  const sh = (i: number) => {
    const h = shoff + shentsize * i;
    return {
      name: v.getUint32(h, true), type: v.getUint32(h + 4, true), flags: v.getUint32(h + 8, true), offset: v.getUint32(h + 16, true),
      size: v.getUint32(h + 20, true), link: v.getUint32(h + 24, true), info: v.getUint32(h + 28, true), align: v.getUint32(h + 32, true), entsize: v.getUint32(h + 36, true),
    };
  };
  const headers = Array.from({ length: shnum }, (_, i) => sh(i));
  headers.forEach((h, i) => {
    if (i > 0 && h.type !== SHT.NOBITS && h.offset + h.size > bytes.length) bad(`section ${i} runs past the end of the file`);
  });
  const str = (tab: number, off: number) => {
    const h = headers[tab];
    const start = h.offset + off;
    let e = start;
    while (e < h.offset + h.size && bytes[e] !== 0) e++;
    return DECODER.decode(bytes.subarray(start, e));
  };
  // Content sections (not symtab / strtab / rela) keep their order; map ELF index -> ours.
  const ours = new Map<number, number>();
  const sections: ObjSection[] = [];
  headers.forEach((h, i) => {
    if (i === 0 || h.type === SHT_SYMTAB || h.type === SHT_STRTAB || h.type === SHT_RELA) return;
    const secName = str(shstrndx, h.name);
    if (h.type === SHT_REL) bad(`section ${secName} uses REL relocations; RISC-V objects use RELA`);
    if (h.type === SHT_GROUP) bad(`section groups (COMDAT, ${secName}) are not supported`, 'compile C, not C++ inline functions or templates');
    ours.set(i, sections.length);
    const data = h.type === SHT.NOBITS ? new Uint8Array(0) : bytes.slice(h.offset, h.offset + h.size);
    sections.push({ name: secName, type: h.type, flags: h.flags, align: h.align, entsize: h.entsize, data, size: h.size, relocs: [] });
  });
  const symtabIdx = headers.findIndex((h) => h.type === SHT_SYMTAB);
  const symbols: ObjSymbol[] = [];
  const symNames: string[] = [''];
  let sourceFile: string | undefined;
  if (symtabIdx > 0) {
    const h = headers[symtabIdx];
    if (h.link >= shnum) bad('the symbol table names no string table');
    const taken = new Set<string>();
    for (let k = 1; k < h.size / 16; k++) {
      const o = h.offset + 16 * k;
      const info = bytes[o + 12];
      const shndx = v.getUint16(o + 14, true);
      let symName = str(h.link, v.getUint32(o, true));
      const type = TYPES[info & 15] ?? 'notype';
      const binding = BINDS[info >> 4] ?? 'global';
      if (type === 'section') symName = sections[ours.get(shndx)!]?.name ?? symName;
      if (type === 'file') sourceFile = symName;
      // '' is the null symbol (what R_RISCV_ALIGN and RELAX name).
      if (symName === '' || (binding === 'local' && taken.has(symName))) symName = `${symName}#${k}`;
      taken.add(symName);
      symNames.push(symName);
      symbols.push({
        name: symName, binding, type,
        section: shndx === 0xfff1 ? 'abs' : shndx === 0xfff2 ? 'common' : shndx === 0 ? -1 : (ours.get(shndx) ?? -1),
        value: v.getUint32(o + 4, true), size: v.getUint32(o + 8, true),
        ...(bytes[o + 13] & 3 ? { visibility: VIS[bytes[o + 13] & 3] } : {}),
      });
    }
  }
  headers.forEach((h) => {
    if (h.type !== SHT_RELA) return;
    const at = ours.get(h.info);
    if (at === undefined) return;
    const target = sections[at];
    for (let o = h.offset; o + 12 <= h.offset + h.size; o += 12) {
      const info = v.getUint32(o + 4, true);
      const sym = info >>> 8;
      if (sym >= symNames.length) bad(`a relocation in ${target.name} names symbol ${sym}, past the symbol table`);
      target.relocs.push({ offset: v.getUint32(o, true), type: info & 0xff, symbol: symNames[sym], addend: v.getInt32(o + 8, true) });
    }
  });
  return { sourceFile, sections, symbols, lines: [] };
}
