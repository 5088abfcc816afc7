// ELF32 RISC-V relocatable object bytes -> AsmObject: the inverse of elf.ts, so objects from
// clang-19 (the differential tests) or from our writer reach the linker as the same model.
import { SHT } from './types';
import type { AsmObject, ObjSection, ObjSymbol, SymBinding, SymType } from './types';

const SHT_SYMTAB = 2;
const SHT_RELA = 4;
const BINDS: SymBinding[] = ['local', 'global', 'weak'];
const TYPES: SymType[] = ['notype', 'object', 'func', 'section', 'file'];
const VIS = ['default', 'default', 'hidden', 'protected'] as const;

export function readElfObject(bytes: Uint8Array): AsmObject {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, false) !== 0x7f454c46 || bytes[4] !== 1 || bytes[5] !== 1) throw new Error('not a little-endian ELF32 file');
  if (v.getUint16(16, true) !== 1) throw new Error('not a relocatable object (ET_REL)');
  const shoff = v.getUint32(32, true);
  const shnum = v.getUint16(48, true);
  const shstrndx = v.getUint16(50, true);
  const sh = (i: number) => {
    const h = shoff + 40 * i;
    return {
      name: v.getUint32(h, true), type: v.getUint32(h + 4, true), flags: v.getUint32(h + 8, true), offset: v.getUint32(h + 16, true),
      size: v.getUint32(h + 20, true), link: v.getUint32(h + 24, true), info: v.getUint32(h + 28, true), align: v.getUint32(h + 32, true), entsize: v.getUint32(h + 36, true),
    };
  };
  const headers = Array.from({ length: shnum }, (_, i) => sh(i));
  const str = (tab: number, off: number) => {
    const h = headers[tab];
    let e = h.offset + off;
    while (bytes[e] !== 0) e++;
    return new TextDecoder().decode(bytes.subarray(h.offset + off, e));
  };
  // Content sections (not symtab / strtab / rela) keep their order; map ELF index -> ours.
  const ours = new Map<number, number>();
  const sections: ObjSection[] = [];
  headers.forEach((h, i) => {
    if (i === 0 || h.type === SHT_SYMTAB || h.type === 3 || h.type === SHT_RELA) return;
    ours.set(i, sections.length);
    const data = h.type === SHT.NOBITS ? new Uint8Array(0) : bytes.slice(h.offset, h.offset + h.size);
    sections.push({ name: str(shstrndx, h.name), type: h.type, flags: h.flags, align: h.align, entsize: h.entsize, data, size: h.size, relocs: [] });
  });
  const symtabIdx = headers.findIndex((h) => h.type === SHT_SYMTAB);
  const symbols: ObjSymbol[] = [];
  const symNames: string[] = [''];
  let sourceFile: string | undefined;
  if (symtabIdx > 0) {
    const h = headers[symtabIdx];
    for (let k = 1; k < h.size / 16; k++) {
      const o = h.offset + 16 * k;
      const info = bytes[o + 12];
      const shndx = v.getUint16(o + 14, true);
      let name = str(h.link, v.getUint32(o, true));
      const type = TYPES[info & 15] ?? 'notype';
      if (type === 'section') name = sections[ours.get(shndx)!]?.name ?? name;
      symNames.push(name);
      if (type === 'file') sourceFile = name;
      symbols.push({
        name, binding: BINDS[info >> 4] ?? 'global', type,
        section: shndx === 0xfff1 ? 'abs' : shndx === 0xfff2 ? 'common' : shndx === 0 ? -1 : (ours.get(shndx) ?? -1),
        value: v.getUint32(o + 4, true), size: v.getUint32(o + 8, true),
        ...(bytes[o + 13] & 3 ? { visibility: VIS[bytes[o + 13] & 3] } : {}),
      });
    }
  }
  headers.forEach((h) => {
    if (h.type !== SHT_RELA) return;
    const target = sections[ours.get(h.info)!];
    for (let o = h.offset; o < h.offset + h.size; o += 12) {
      const info = v.getUint32(o + 4, true);
      target.relocs.push({ offset: v.getUint32(o, true), type: info & 0xff, symbol: symNames[info >>> 8], addend: v.getInt32(o + 8, true) });
    }
  });
  return { sourceFile, sections, symbols, lines: [] };
}
