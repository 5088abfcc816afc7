// Writes the linked program as an ELF32 RISC-V executable: one PT_LOAD per loadable output
// section (what src/sim/elf.ts loads), the section headers, the debug sections, .symtab.
import { SHF, SHT, STB } from './object';

export interface OutputSectionData {
  name: string;
  addr: number;
  size: number;
  align: number;
  /** Undefined: no bytes in the file (NOBITS). */
  data?: Uint8Array;
  alloc: boolean;
  flags: number;
}

export interface OutputSymbol { name: string; value: number; size: number; bind: number; type: number; shndx: number }

const PT_LOAD = 1;
const PF = { X: 1, W: 2, R: 4 };

class Strtab {
  bytes: number[] = [0];
  private seen = new Map<string, number>();
  add(s: string): number {
    if (!s) return 0;
    let at = this.seen.get(s);
    if (at === undefined) {
      at = this.bytes.length;
      for (const b of new TextEncoder().encode(s)) this.bytes.push(b);
      this.bytes.push(0);
      this.seen.set(s, at);
    }
    return at;
  }
}

/** The executable's bytes. Section i + 1 of the headers is sections[i] (symbols' shndx count so). */
export function writeExecutable(p: { entry: number; sections: OutputSectionData[]; symbols: OutputSymbol[] }): Uint8Array {
  const loads = p.sections.filter((s) => s.alloc && s.size > 0);
  const phoff = 52, phnum = loads.length;
  let off = phoff + 32 * phnum;
  const offsets: number[] = [];
  for (const s of p.sections) {
    if (s.alloc && s.data) {
      // The file offset agrees with the address modulo the alignment, as loaders like it.
      const a = Math.max(1, s.align);
      off += ((s.addr % a) - (off % a) + a) % a;
    }
    offsets.push(off);
    if (s.data) off += s.data.length;
  }
  // .symtab: locals first (sh_info = the first global's index).
  const strtab = new Strtab();
  const syms = [...p.symbols.filter((s) => s.bind === STB.LOCAL), ...p.symbols.filter((s) => s.bind !== STB.LOCAL)];
  const firstGlobal = 1 + syms.findIndex((s) => s.bind !== STB.LOCAL);
  const symtab = new Uint8Array(16 * (syms.length + 1));
  const sv = new DataView(symtab.buffer);
  syms.forEach((s, i) => {
    const o = 16 * (i + 1);
    sv.setUint32(o, strtab.add(s.name), true);
    sv.setUint32(o + 4, s.value >>> 0, true);
    sv.setUint32(o + 8, s.size >>> 0, true);
    symtab[o + 12] = (s.bind << 4) | s.type;
    sv.setUint16(o + 14, s.shndx, true);
  });
  const shstr = new Strtab();
  const names = p.sections.map((s) => shstr.add(s.name));
  const symName = shstr.add('.symtab'), strName = shstr.add('.strtab'), shstrName = shstr.add('.shstrtab');
  off = Math.ceil(off / 4) * 4;
  const symOff = off;
  off += symtab.length;
  const strOff = off;
  off += strtab.bytes.length;
  const shstrOff = off;
  off += shstr.bytes.length;
  const shoff = Math.ceil(off / 4) * 4;
  const shnum = p.sections.length + 4;
  const out = new Uint8Array(shoff + 40 * shnum);
  const dv = new DataView(out.buffer);
  out.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1]);
  dv.setUint16(16, 2, true); // ET_EXEC
  dv.setUint16(18, 243, true); // EM_RISCV
  dv.setUint32(20, 1, true);
  dv.setUint32(24, p.entry >>> 0, true);
  dv.setUint32(28, phnum ? phoff : 0, true);
  dv.setUint32(32, shoff, true);
  dv.setUint32(36, 0x1, true); // EF_RISCV_RVC, float ABI soft
  dv.setUint16(40, 52, true);
  dv.setUint16(42, 32, true);
  dv.setUint16(44, phnum, true);
  dv.setUint16(46, 40, true);
  dv.setUint16(48, shnum, true);
  dv.setUint16(50, shnum - 1, true);
  loads.forEach((s, i) => {
    const o = phoff + 32 * i, k = p.sections.indexOf(s);
    dv.setUint32(o, PT_LOAD, true);
    dv.setUint32(o + 4, offsets[k], true);
    dv.setUint32(o + 8, s.addr >>> 0, true);
    dv.setUint32(o + 12, s.addr >>> 0, true);
    dv.setUint32(o + 16, s.data ? s.data.length : 0, true);
    dv.setUint32(o + 20, s.size, true);
    dv.setUint32(o + 24, PF.R | (s.flags & SHF.WRITE ? PF.W : 0) | (s.flags & SHF.EXECINSTR ? PF.X : 0), true);
    dv.setUint32(o + 28, Math.max(1, s.align), true);
  });
  p.sections.forEach((s, k) => { if (s.data) out.set(s.data, offsets[k]); });
  out.set(symtab, symOff);
  out.set(strtab.bytes, strOff);
  out.set(shstr.bytes, shstrOff);
  const sh = (i: number, f: { name: number; type: number; flags?: number; addr?: number; offset: number; size: number; link?: number; info?: number; align?: number; entsize?: number }) => {
    const o = shoff + 40 * i;
    dv.setUint32(o, f.name, true);
    dv.setUint32(o + 4, f.type, true);
    dv.setUint32(o + 8, f.flags ?? 0, true);
    dv.setUint32(o + 12, (f.addr ?? 0) >>> 0, true);
    dv.setUint32(o + 16, f.offset, true);
    dv.setUint32(o + 20, f.size, true);
    dv.setUint32(o + 24, f.link ?? 0, true);
    dv.setUint32(o + 28, f.info ?? 0, true);
    dv.setUint32(o + 32, f.align ?? 1, true);
    dv.setUint32(o + 36, f.entsize ?? 0, true);
  };
  p.sections.forEach((s, k) => sh(k + 1, { name: names[k], type: s.data ? SHT.PROGBITS : SHT.NOBITS, flags: s.alloc ? s.flags | SHF.ALLOC : 0,
    addr: s.addr, offset: offsets[k], size: s.size, align: s.align }));
  const n = p.sections.length;
  sh(n + 1, { name: symName, type: SHT.SYMTAB, offset: symOff, size: symtab.length, link: n + 2, info: firstGlobal > 0 ? firstGlobal : syms.length + 1, align: 4, entsize: 16 });
  sh(n + 2, { name: strName, type: SHT.STRTAB, offset: strOff, size: strtab.bytes.length });
  sh(n + 3, { name: shstrName, type: SHT.STRTAB, offset: shstrOff, size: shstr.bytes.length });
  return out;
}
