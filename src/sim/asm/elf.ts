// AsmObject -> ELF32 RISC-V relocatable object bytes (a thin layer: the object model already
// holds everything; this only lays it out in the file format). Sections keep their order and
// get ELF indices 1..n; then .rela.<name> for each section with relocations, .symtab, .strtab,
// .shstrtab.
import { SHT } from './types';
import type { AsmObject, ObjSymbol } from './types';

const EM_RISCV = 243;
const EF_RISCV_RVC = 1;
const SHT_SYMTAB = 2;
const SHT_STRTAB = 3;
const SHT_RELA = 4;
const SHF_INFO_LINK = 0x40;
const SHN_ABS = 0xfff1;
const SHN_COMMON = 0xfff2;

class StrTab {
  bytes: number[] = [0];
  private at = new Map<string, number>([['', 0]]);
  add(s: string): number {
    let i = this.at.get(s);
    if (i === undefined) {
      i = this.bytes.length;
      this.bytes.push(...new TextEncoder().encode(s), 0);
      this.at.set(s, i);
    }
    return i;
  }
}

const BIND = { local: 0, global: 1, weak: 2 } as const;
const TYPE = { notype: 0, object: 1, func: 2, section: 3, file: 4 } as const;
const VIS = { default: 0, hidden: 2, protected: 3 } as const;

/** Writes the object as ELF bytes; `rvc` sets EF_RISCV_RVC in the header flags. */
export function writeElf(obj: AsmObject, rvc = true): Uint8Array {
  const syms: ObjSymbol[] = [...obj.symbols.filter((s) => s.binding === 'local'), ...obj.symbols.filter((s) => s.binding !== 'local')];
  const firstGlobal = 1 + syms.filter((s) => s.binding === 'local').length;
  const symIndex = new Map(syms.map((s, i) => [s.name, i + 1]));
  const strtab = new StrTab();
  const shstr = new StrTab();

  interface Sh { name: number; type: number; flags: number; data: Uint8Array; size: number; link: number; info: number; align: number; entsize: number }
  const shs: Sh[] = [];
  const n = obj.sections.length;
  for (const s of obj.sections) {
    shs.push({ name: shstr.add(s.name), type: s.type, flags: s.flags, data: s.data, size: s.type === SHT.NOBITS ? s.size : s.data.length, link: 0, info: 0, align: s.align, entsize: s.entsize });
  }
  const relaCount = obj.sections.filter((s) => s.relocs.length).length;
  const symtabIndex = 1 + n + relaCount;
  obj.sections.forEach((s, i) => {
    if (!s.relocs.length) return;
    const b = new DataView(new ArrayBuffer(12 * s.relocs.length));
    s.relocs.forEach((r, k) => {
      const si = symIndex.get(r.symbol);
      if (si === undefined) throw new Error(`relocation against '${r.symbol}', which is not in the symbol table`);
      b.setUint32(12 * k, r.offset, true);
      b.setUint32(12 * k + 4, ((si << 8) | r.type) >>> 0, true);
      b.setInt32(12 * k + 8, r.addend, true);
    });
    shs.push({ name: shstr.add(`.rela${s.name}`), type: SHT_RELA, flags: SHF_INFO_LINK, data: new Uint8Array(b.buffer), size: b.byteLength, link: symtabIndex, info: i + 1, align: 4, entsize: 12 });
  });
  const st = new DataView(new ArrayBuffer(16 * (syms.length + 1)));
  syms.forEach((s, i) => {
    const o = 16 * (i + 1);
    st.setUint32(o, strtab.add(s.name), true);
    st.setUint32(o + 4, s.value >>> 0, true);
    st.setUint32(o + 8, s.size >>> 0, true);
    st.setUint8(o + 12, (BIND[s.binding] << 4) | TYPE[s.type]);
    st.setUint8(o + 13, VIS[s.visibility ?? 'default']);
    const shndx = s.section === 'abs' ? SHN_ABS : s.section === 'common' ? SHN_COMMON : s.section < 0 ? 0 : s.section + 1;
    st.setUint16(o + 14, shndx, true);
  });
  const symtabName = shstr.add('.symtab');
  const strtabName = shstr.add('.strtab');
  const shstrName = shstr.add('.shstrtab');
  shs.push({ name: symtabName, type: SHT_SYMTAB, flags: 0, data: new Uint8Array(st.buffer), size: st.byteLength, link: symtabIndex + 1, info: firstGlobal, align: 4, entsize: 16 });
  shs.push({ name: strtabName, type: SHT_STRTAB, flags: 0, data: new Uint8Array(strtab.bytes), size: strtab.bytes.length, link: 0, info: 0, align: 1, entsize: 0 });
  const shstrBytes = new Uint8Array(shstr.bytes);
  shs.push({ name: shstrName, type: SHT_STRTAB, flags: 0, data: shstrBytes, size: shstrBytes.length, link: 0, info: 0, align: 1, entsize: 0 });

  // File layout: header, section contents in order (each at its alignment), section headers.
  let off = 52;
  const offsets: number[] = [];
  for (const s of shs) {
    const a = Math.max(1, s.align);
    off = Math.ceil(off / a) * a;
    offsets.push(off);
    if (s.type !== SHT.NOBITS) off += s.data.length;
  }
  const shoff = Math.ceil(off / 4) * 4;
  const total = shoff + 40 * (shs.length + 1);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1, 0], 0);
  v.setUint16(16, 1, true); // ET_REL
  v.setUint16(18, EM_RISCV, true);
  v.setUint32(20, 1, true);
  v.setUint32(32, shoff, true);
  v.setUint32(36, rvc ? EF_RISCV_RVC : 0, true);
  v.setUint16(40, 52, true);
  v.setUint16(46, 40, true);
  v.setUint16(48, shs.length + 1, true);
  v.setUint16(50, shs.length, true); // .shstrtab is last
  shs.forEach((s, i) => {
    if (s.type !== SHT.NOBITS) out.set(s.data, offsets[i]);
    const h = shoff + 40 * (i + 1);
    v.setUint32(h, s.name, true);
    v.setUint32(h + 4, s.type >>> 0, true);
    v.setUint32(h + 8, s.flags, true);
    v.setUint32(h + 16, offsets[i], true);
    v.setUint32(h + 20, s.size, true);
    v.setUint32(h + 24, s.link, true);
    v.setUint32(h + 28, s.info, true);
    v.setUint32(h + 32, Math.max(1, s.align), true);
    v.setUint32(h + 36, s.entsize, true);
  });
  return out;
}
