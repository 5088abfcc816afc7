// The static linker: relocatable objects (the assembler's AsmObjects, or ELF32 RISC-V bytes read
// into the same model) -> one executable, sections placed by a typed layout (layout.ts). Steps:
// index the objects; resolve global symbols (strong over weak
// over COMMON; duplicates and undefined references are errors); sort every section into its
// output section (input order; mergeable strings and constants deduplicated); place the output
// sections memory by memory, honouring R_RISCV_ALIGN by dropping the nop bytes past each
// boundary (no other relaxation); patch the relocations; write the ELF with its debug sections,
// and return the symbol and line tables beside it.
import { fail } from '../../common/errors';
import { readElfObject } from '../asm/elf-read';
import type { AsmObject } from '../asm/types';
import { lineTableOf, withSequences, type LineRow, type LineTable } from './lines';
import type { Layout, Memory, OutputRule } from './layout';
import { matches } from './layout';
import { indexObject, SHF, SHN, SHT, STB, STT, type ObjectFile, type ObjSection, type Reloc } from './object';
import { applyReloc, R, RelocError, relocName } from './relocate';
import { finishMerge, mergeInto, newMergeBlock, type MergeBlock, type Piece } from './merge';
import { writeExecutable, type OutputSectionData, type OutputSymbol } from './write';

/** One object to link: the assembler's model (our compiler's output) or ELF bytes (clang's). */
export type LinkInput = { name: string; object: AsmObject } | { name: string; bytes: Uint8Array };

export interface LinkOptions {
  /** Drop the loadable sections the entry does not reach through relocations (like --gc-sections). */
  gcSections?: boolean;
}

/** A function or object of the program, for the disassembler and the profiler. */
export interface ProgramSymbol { addr: number; size: number; name: string; kind: 'func' | 'object' | 'other' }

export interface LinkResult {
  elf: Uint8Array;
  entry: number;
  /** The program's functions and objects, by address. */
  symbols: ProgramSymbol[];
  /** pc -> file:line: from the objects' .debug_line (clang's) and their line rows (ours). */
  lines: LineTable;
  /** Address and size of each output section ('.text', '.l1', ...). */
  sections: { name: string; addr: number; size: number; memory?: string }[];
}

/** One input section in its output section; bytes may have been removed at R_RISCV_ALIGN sites. */
interface Placed {
  obj: ObjectFile;
  sec: ObjSection;
  out: Out;
  /** Offset in the output section. */
  offset: number;
  size: number;
  /** [original offset, bytes removed there], ascending; and the nop bytes kept at each site. */
  removed: { at: number; count: number; keep: number }[];
  /** Mergeable sections: each piece's original offset and its offset in the merged block. */
  pieces?: Piece[];
  merge?: MergeBlock;
}

type Item = { kind: 'sec'; p: Placed } | { kind: 'merge'; m: MergeBlock };

interface Out {
  name: string;
  rule?: OutputRule;
  memory?: Memory;
  items: Item[];
  addr: number;
  size: number;
  align: number;
  flags: number;
  nobits: boolean;
  data?: Uint8Array;
}

interface GlobalSym {
  name: string;
  /** The defining object and symbol index; undefined while only referenced. */
  def?: { obj: ObjectFile; index: number; weak: boolean };
  common?: { obj: ObjectFile; size: number; align: number };
  /** Set for linker-defined symbols: the address. */
  abs?: number;
}

const SELF_JUMPS = new Set<number>([R.BRANCH, R.JAL, R.CALL, R.CALL_PLT, R.RVC_BRANCH, R.RVC_JUMP]);
const whereOf = (sec: ObjSection | undefined, offset: number) => (sec ? `${sec.name}+0x${offset.toString(16)}` : 'the symbol table');
const alignTo = (v: number, a: number) => Math.ceil(v / a) * a;
const hex = (n: number) => `0x${(n >>> 0).toString(16)}`;

/** Links `inputs` in order with `layout`. Errors name the object, section and symbol. */
export function link(inputs: LinkInput[], layout: Layout, opts: LinkOptions = {}): LinkResult {
  const objs = inputs.map((i) => indexObject('object' in i ? i.object : readElfObject(i.bytes, i.name), i.name));
  const globals = resolveSymbols(objs, layout);
  const live = opts.gcSections ? liveSections(objs, globals, layout.entry) : undefined;
  const dead = (obj: ObjectFile, sec: ObjSection) => !!live && !!(sec.flags & SHF.ALLOC) && !live.get(obj)!.has(sec.index);
  const placedOf = new Map<ObjectFile, (Placed | undefined)[]>(objs.map((o) => [o, new Array(o.sections.length)]));

  // Output sections: the layout's, then the debug sections in the order met.
  const outs: Out[] = layout.rules.map((rule) => ({ name: rule.name, rule, memory: layout.memories.find((m) => m.name === rule.memory)!,
    items: [], addr: 0, size: 0, align: rule.align, flags: SHF.ALLOC, nobits: !!rule.nobits }));
  const debugOuts = new Map<string, Out>();
  const commons: { g: GlobalSym; p: Placed }[] = [];

  for (let r = 0; r < layout.rules.length; r++) {
    const rule = layout.rules[r], out = outs[r];
    const blocks: MergeBlock[] = [];
    const members = new Map<MergeBlock, Placed[]>();
    for (const group of rule.groups) {
      for (const obj of objs) {
        for (const sec of obj.sections) {
          if (!sec || !(sec.flags & SHF.ALLOC) || placedOf.get(obj)![sec.index] || dead(obj, sec)) continue;
          if (!group.some((pat) => matches(pat, sec.name)) || ruleOf(layout, sec.name) !== rule) continue;
          const p: Placed = { obj, sec, out, offset: 0, size: sec.size, removed: [] };
          placedOf.get(obj)![sec.index] = p;
          out.flags |= sec.flags & (SHF.WRITE | SHF.EXECINSTR);
          if (sec.flags & SHF.MERGE && sec.entsize > 0) {
            if (sec.relocs.length) fail('bad-file', `mergeable section ${sec.name} has relocations`, obj.name);
            const key = `${sec.flags}/${sec.entsize}/${sec.flags & SHF.STRINGS ? sec.align : 0}`;
            let m = blocks.find((b) => b.key === key);
            if (!m) {
              m = newMergeBlock(key, sec.align);
              blocks.push(m);
              out.items.push({ kind: 'merge', m });
            }
            p.pieces = mergeInto(m, sec);
            p.merge = m;
            members.get(m)?.push(p) ?? members.set(m, [p]);
          } else {
            out.items.push({ kind: 'sec', p });
          }
        }
      }
      if (group.includes('COMMON')) {
        for (const g of globals.values()) {
          if (!g.common || g.def) continue;
          const sec: ObjSection = { index: -1, name: 'COMMON', type: SHT.NOBITS, flags: SHF.ALLOC | SHF.WRITE, align: g.common.align,
            entsize: 0, data: new Uint8Array(g.common.size), size: g.common.size, relocs: [], lines: [] };
          const p: Placed = { obj: g.common.obj, sec, out, offset: 0, size: sec.size, removed: [] };
          commons.push({ g, p });
          out.items.push({ kind: 'sec', p });
        }
      }
    }
    for (const m of blocks) finishMerge(m, members.get(m)!.map((p) => p.pieces!));
    if (!rule.nobits && out.items.length && out.items.every((i) => i.kind === 'sec' && i.p.sec.type === SHT.NOBITS)) out.nobits = true;
  }
  // The rest: debug sections kept (the line table and llvm's tools read them), the others dropped or refused.
  for (const obj of objs) {
    for (const sec of obj.sections) {
      if (!sec || placedOf.get(obj)![sec.index] || dead(obj, sec)) continue;
      if (sec.flags & SHF.ALLOC) {
        if (layout.discard.some((pat) => matches(pat, sec.name))) continue;
        fail('bad-file', `section ${sec.name} has no place in the memory layout`, obj.name,
          `put data in ${layout.rules.map((r) => r.name).join(', ')} (or their .name.* sections)`);
      }
      if (!sec.name.startsWith('.debug_')) continue;
      let out = debugOuts.get(sec.name);
      if (!out) debugOuts.set(sec.name, out = { name: sec.name, items: [], addr: 0, size: 0, align: 1, flags: 0, nobits: false });
      const p: Placed = { obj, sec, out, offset: 0, size: sec.size, removed: [] };
      placedOf.get(obj)![sec.index] = p;
      out.items.push({ kind: 'sec', p });
    }
  }

  // Addresses: each memory filled from its base in rule order.
  const cursor = new Map(layout.memories.map((m) => [m.name, m.base]));
  const linkerSyms = new Map<string, number>(Object.entries(layout.symbols));
  for (const out of outs) {
    const rule = out.rule!, mem = out.memory!;
    if (!out.items.length && !rule.startSymbol && !rule.endSymbol) continue;
    for (const it of out.items) out.align = Math.max(out.align, it.kind === 'sec' ? it.p.sec.align : it.m.align);
    out.addr = alignTo(cursor.get(mem.name)!, out.align);
    out.size = placeItems(out, true);
    if (rule.endAlign) out.size = alignTo(out.addr + out.size, rule.endAlign) - out.addr;
    if (rule.startSymbol) linkerSyms.set(rule.startSymbol, out.addr);
    if (rule.endSymbol) linkerSyms.set(rule.endSymbol, out.addr + out.size);
    const end = out.addr + out.size;
    cursor.set(mem.name, end);
    if (end > mem.base + mem.bytes) {
      const used = outs.filter((o) => o.memory === mem && o.size).map((o) => `${o.rule!.title} ${o.size} B`).join(', ');
      fail('does-not-fit', `${mem.title} overflows: ${used} end at ${hex(end)}, ${end - mem.base} B of its ${mem.bytes} B`, `link: ${out.name}`,
        'shrink the program or move buffers to another memory');
    }
  }
  for (const c of layout.ceilings) {
    const out = outs.find((o) => o.name === c.rule)!, limit = linkerSyms.get(c.symbol)!;
    if (out.addr + out.size > limit) {
      fail('does-not-fit', `${out.rule!.title} (${out.addr + out.size - out.memory!.base} B) overlaps ${c.above}: ${limit - out.memory!.base} B are usable`,
        `link: ${out.name}`, `use less ${out.memory!.name} (the buffers in ${out.name} sections)`);
    }
  }
  for (const out of debugOuts.values()) out.size = placeItems(out, false);
  for (const [name, v] of linkerSyms) {
    const g = globals.get(name);
    if (g && !g.def) g.abs = v;
  }

  // Symbol addresses.
  const addrIn = (p: Placed, off: number): number => {
    if (p.pieces) {
      const ps = p.pieces;
      let lo = 0, hi = ps.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ps[mid].inOff <= off) lo = mid; else hi = mid - 1;
      }
      const piece = ps[lo];
      return p.out.addr + p.merge!.offset + piece.outOff + (off - piece.inOff);
    }
    let o = off;
    for (const r of p.removed) if (r.at + r.keep < off) o -= Math.min(r.count, off - r.at - r.keep);
    return p.out.addr + p.offset + o;
  };
  for (const { g, p } of commons) g.abs = addrIn(p, 0);
  /** S + A for relocation `rel` of object `obj`. */
  /** Each symbol's address without addend, computed once (NaN: not yet; section symbols of merged sections map S + A instead). */
  const cache = new Map<ObjectFile, Float64Array>(objs.map((o) => [o, new Float64Array(o.symbols.length).fill(Number.NaN)]));
  const symAddr = (obj: ObjectFile, index: number, addend: number, sec?: ObjSection, offset = 0): number => {
    const cached = cache.get(obj)!;
    const c = cached[index];
    if (c === c) return c + addend;
    const s = obj.symbols[index];
    const g = s.bind === STB.LOCAL ? undefined : globals.get(s.name)!;
    if (!g || s.shndx !== SHN.UNDEF && g.def?.obj === obj && g.def.index === index) {
      if (s.shndx === SHN.ABS) return (cached[index] = s.value) + addend;
      const p = placedOf.get(obj)![s.shndx];
      // Debug information about collected code points nowhere (0, ld.lld's tombstone).
      if (!p && live && sec && !(sec.flags & SHF.ALLOC) && obj.sections[s.shndx]) return 0;
      if (!p) fail('bad-file', `${whereOf(sec, offset)} refers to ${s.name || 'a section'} in a section that is not linked`, obj.name);
      if (s.type === STT.SECTION && p.pieces) return addrIn(p, s.value + addend);
      return (cached[index] = addrIn(p, s.value)) + addend;
    }
    if (g.abs !== undefined) return (cached[index] = g.abs) + addend;
    if (g.def) return (cached[index] = symAddr(g.def.obj, g.def.index, 0, sec, offset)) + addend;
    if (s.bind === STB.WEAK) return addend;
    return fail('bad-file', `undefined symbol ${s.name}, referenced from ${obj.name} (${whereOf(sec, offset)})`, 'link',
      'define it in one of the linked files, or link the file that defines it');
  };

  // Bytes and relocations.
  for (const out of [...outs, ...debugOuts.values()]) {
    if (out.nobits || !out.size) continue;
    const data = out.data = new Uint8Array(out.size);
    const dv = new DataView(data.buffer);
    for (const it of out.items) {
      if (it.kind === 'merge') {
        data.set(it.m.bytes, it.m.offset);
        continue;
      }
      const p = it.p;
      if (p.sec.type === SHT.NOBITS) continue;
      copyWithout(p, data);
      const uleb: { set?: number } = {};
      for (const rel of p.sec.relocs) {
        if (rel.type === R.RELAX || rel.type === R.ALIGN || rel.type === R.NONE) continue;
        const at = addrIn(p, rel.offset) - out.addr;
        try {
          let sa: number;
          if (rel.type === R.PCREL_LO12_I || rel.type === R.PCREL_LO12_S) {
            sa = pcrelLo(p, rel, addrIn, symAddr);
            const w = dv.getUint32(at, true);
            const lo = sa & 0xfff;
            dv.setUint32(at, rel.type === R.PCREL_LO12_I ? ((w & 0xfffff) | (lo << 20)) >>> 0 : ((w & 0x1fff07f) | ((lo & 0xfe0) << 20) | ((lo & 0x1f) << 7)) >>> 0, true);
            continue;
          }
          // A jump or branch to an undefined weak function jumps to itself (as ld.lld does): the program hangs where it went wrong.
          sa = SELF_JUMPS.has(rel.type) && undefinedWeak(p.obj, rel.sym) ? out.addr + at + rel.addend : symAddr(p.obj, rel.sym, rel.addend, p.sec, rel.offset);
          applyReloc(data, dv, at, rel.type, sa, out.addr + at, uleb);
        } catch (e) {
          if (!(e instanceof RelocError)) throw e;
          const s = p.obj.symbols[rel.sym];
          fail('bad-file', `${relocName(rel.type)} at ${p.sec.name}+${hex(rel.offset)} against ${s.name || 'a section'}: ${e.message}`, p.obj.name);
        }
      }
    }
  }

  function undefinedWeak(obj: ObjectFile, index: number): boolean {
    const s = obj.symbols[index];
    if (s.bind !== STB.WEAK || s.shndx !== SHN.UNDEF) return false;
    const g = globals.get(s.name)!;
    return !g.def && g.abs === undefined;
  }
  const entryG = globals.get(layout.entry);
  if (!entryG?.def) fail('bad-file', `the entry symbol ${layout.entry} is not defined`, 'link', 'link the runtime\'s crt0');
  const entry = symAddr(entryG.def.obj, entryG.def.index, 0);

  // Symbols for the ELF and the tools.
  const outIndex = new Map<Out, number>();
  const symbols: OutputSymbol[] = [];
  const sectionOfAddr = (o: Out | undefined) => (o ? outIndex.get(o) ?? SHN.ABS : SHN.ABS);
  const written = [...outs.filter((o) => o.size || o.rule?.startSymbol), ...debugOuts.values()];
  written.forEach((o, i) => outIndex.set(o, i + 1));
  for (const obj of objs) {
    obj.symbols.forEach((s, i) => {
      if (i === 0 || s.type === STT.SECTION || s.type === STT.FILE || s.shndx === SHN.UNDEF || s.shndx === SHN.COMMON) return;
      if (s.bind !== STB.LOCAL) return;
      if (!s.name || s.name.startsWith('.L')) return;
      const p = s.shndx === SHN.ABS ? undefined : placedOf.get(obj)![s.shndx];
      if (s.shndx !== SHN.ABS && (!p || !(p.sec.flags & SHF.ALLOC))) return;
      const addr = symAddr(obj, i, 0);
      const size = p && s.size ? addrIn(p, s.value + s.size) - addr : s.size;
      symbols.push({ name: s.name, value: addr, size, bind: STB.LOCAL, type: s.type, shndx: sectionOfAddr(p?.out) });
    });
  }
  for (const g of globals.values()) {
    if (g.def) {
      const s = g.def.obj.symbols[g.def.index];
      if (s.shndx !== SHN.ABS && !placedOf.get(g.def.obj)![s.shndx]) continue;
      const p = s.shndx === SHN.ABS ? undefined : placedOf.get(g.def.obj)![s.shndx];
      const addr = symAddr(g.def.obj, g.def.index, 0);
      const size = p && s.size && !p.pieces ? addrIn(p, s.value + s.size) - addr : s.size;
      symbols.push({ name: g.name, value: addr, size, bind: s.bind, type: s.type, shndx: sectionOfAddr(p?.out) });
    } else if (g.abs !== undefined) {
      const c = commons.find((x) => x.g === g);
      symbols.push({ name: g.name, value: g.abs, size: c ? c.p.size : 0, bind: STB.GLOBAL, type: c ? STT.OBJECT : STT.NOTYPE,
        shndx: c ? sectionOfAddr(c.p.out) : SHN.ABS });
    }
  }
  for (const [name, v] of linkerSyms) {
    if (!globals.has(name)) symbols.push({ name, value: v, size: 0, bind: STB.GLOBAL, type: STT.NOTYPE, shndx: SHN.ABS });
  }

  const sections: OutputSectionData[] = written.map((o) => ({
    name: o.name, addr: o.addr, size: o.size, align: o.align, data: o.nobits ? undefined : o.data ?? new Uint8Array(o.size),
    alloc: !!o.rule, flags: o.rule ? o.flags : 0,
  }));
  const elf = writeExecutable({ entry, sections, symbols });
  const lineData = debugOuts.get('.debug_line')?.data;
  const dwarf = lineData ? lineTableOf(lineData, debugOuts.get('.debug_line_str')?.data, debugOuts.get('.debug_str')?.data) : { files: [], rows: [] };
  const lines = withSequences(dwarf, lineSequences(objs, placedOf, addrIn));
  const programSymbols: ProgramSymbol[] = symbols.filter((s) => s.shndx !== SHN.ABS && (s.type === STT.FUNC || s.type === STT.OBJECT || s.type === STT.NOTYPE))
    .map((s) => ({ addr: s.value, size: s.size, name: s.name, kind: s.type === STT.FUNC ? 'func' as const : s.type === STT.OBJECT ? 'object' as const : 'other' as const }))
    .sort((a, b) => a.addr - b.addr || b.size - a.size);
  return { elf, entry, symbols: programSymbols, lines,
    sections: written.map((o) => ({ name: o.name, addr: o.addr, size: o.size, memory: o.memory?.name })) };
}

/**
 * The line rows of the objects that carry them (ours: from `.loc`), one sequence per placed code
 * section: each row from its address to the next, the last to the section's end.
 */
function lineSequences(objs: ObjectFile[], placedOf: Map<ObjectFile, (Placed | undefined)[]>,
  addrIn: (p: Placed, off: number) => number): { files: string[]; rows: LineRow[] }[] {
  const out: { files: string[]; rows: LineRow[] }[] = [];
  for (const obj of objs) {
    for (const sec of obj.sections) {
      const p = sec && placedOf.get(obj)![sec.index];
      if (!sec || !p || !sec.lines.length) continue;
      const files: string[] = [];
      const ids = new Map<string, number>();
      const rows: LineRow[] = sec.lines.map((l) => {
        let file = ids.get(l.file);
        if (file === undefined) { file = files.length; files.push(l.file); ids.set(l.file, file); }
        return { addr: addrIn(p, l.offset), file, line: l.line };
      });
      rows.push({ addr: p.out.addr + p.offset + p.size, file: -1, line: 0 });
      out.push({ files, rows });
    }
  }
  return out;
}

/** The loadable sections reachable from the entry symbol's section through relocations, per object. */
function liveSections(objs: ObjectFile[], globals: Map<string, GlobalSym>, entry: string): Map<ObjectFile, Set<number>> {
  const live = new Map(objs.map((o) => [o, new Set<number>()]));
  const work: [ObjectFile, number][] = [];
  const mark = (obj: ObjectFile, index: number) => {
    const s = obj.symbols[index];
    let o = obj, shndx = s.shndx;
    if (s.bind !== STB.LOCAL) {
      const d = globals.get(s.name)?.def;
      if (!d) return;
      o = d.obj;
      shndx = d.obj.symbols[d.index].shndx;
    }
    const sec = o.sections[shndx];
    if (!sec || !(sec.flags & SHF.ALLOC) || live.get(o)!.has(shndx)) return;
    live.get(o)!.add(shndx);
    work.push([o, shndx]);
  };
  const e = globals.get(entry)?.def;
  if (e) mark(e.obj, e.index);
  while (work.length) {
    const [o, i] = work.pop()!;
    for (const r of o.sections[i]!.relocs) if (r.type !== R.RELAX && r.type !== R.ALIGN) mark(o, r.sym);
  }
  return live;
}

/** The first rule (in layout order) whose groups claim an input section name, as a script would. */
function ruleOf(layout: Layout, name: string): OutputRule | undefined {
  return layout.rules.find((r) => r.groups.some((g) => g.some((pat) => matches(pat, name))));
}

/** The global symbol table: strong definitions over weak ones over COMMON; two strong ones are an error. */
function resolveSymbols(objs: ObjectFile[], layout: Layout): Map<string, GlobalSym> {
  const globals = new Map<string, GlobalSym>();
  for (const obj of objs) {
    obj.symbols.forEach((s, index) => {
      if (s.bind === STB.LOCAL || !s.name) return;
      let g = globals.get(s.name);
      if (!g) globals.set(s.name, g = { name: s.name });
      if (s.shndx === SHN.UNDEF) return;
      if (s.shndx === SHN.COMMON) {
        const c = g.common;
        g.common = { obj: c?.obj ?? obj, size: Math.max(c?.size ?? 0, s.size), align: Math.max(c?.align ?? 1, s.value || 1) };
        return;
      }
      const weak = s.bind === STB.WEAK;
      if (!g.def || (g.def.weak && !weak)) g.def = { obj, index, weak };
      else if (!weak && !g.def.weak) {
        fail('bad-file', `duplicate symbol ${s.name}: defined in ${g.def.obj.name} and in ${obj.name}`, 'link',
          'keep one definition (make the others static)');
      }
    });
  }
  for (const name of Object.keys(layout.symbols)) {
    const g = globals.get(name);
    if (g?.def && !g.def.weak) fail('bad-file', `symbol ${name} is defined by the memory layout and by ${g.def.obj.name}`, 'link');
    if (g?.def) g.def = undefined;
  }
  return globals;
}

/**
 * Lays out an output section's items from offset 0; returns its size. In executable sections
 * (`honourAlign`), each R_RISCV_ALIGN keeps only the nop bytes its boundary needs at the item's
 * final address, the way a linker that does not relax (ld.lld --no-relax) does.
 */
function placeItems(out: Out, honourAlign: boolean): number {
  let off = 0;
  for (const it of out.items) {
    if (it.kind === 'merge') {
      off = alignTo(off, it.m.align);
      it.m.offset = off;
      // Members' offsets are block-relative through their pieces (addrIn).
      off += it.m.bytes.length;
      continue;
    }
    const p = it.p;
    off = alignTo(off, p.sec.align);
    p.offset = off;
    p.removed = [];
    let removed = 0;
    if (honourAlign && p.sec.flags & SHF.EXECINSTR) {
      for (const rel of p.sec.relocs) {
        if (rel.type !== R.ALIGN) continue;
        const align = 2 ** Math.ceil(Math.log2(rel.addend + 2));
        const at = out.addr + off + rel.offset - removed;
        const keep = (align - (at % align)) % align;
        if (keep > rel.addend) fail('bad-file', `R_RISCV_ALIGN at ${p.sec.name}+${hex(rel.offset)} reserves ${rel.addend} B of nops, fewer than the ${keep} B needed`, p.obj.name);
        if (rel.addend - keep) p.removed.push({ at: rel.offset, count: rel.addend - keep, keep });
        removed += rel.addend - keep;
      }
    } else if (p.sec.relocs.some((r) => r.type === R.ALIGN)) {
      fail('bad-file', `R_RISCV_ALIGN in ${p.sec.name}, which is not code`, p.obj.name);
    }
    p.size = p.sec.size - removed;
    off += p.size;
  }
  return off;
}

/** Copies an input section's bytes to its place, without the removed nop bytes (the kept ones rewritten as nops). */
function copyWithout(p: Placed, data: Uint8Array): void {
  const src = p.sec.data;
  let from = 0, to = p.offset;
  for (const r of p.removed) {
    data.set(src.subarray(from, r.at), to);
    to += r.at - from;
    // The kept padding: 4-byte nops, then a c.nop.
    let k = 0;
    for (; k + 4 <= r.keep; k += 4) data.set([0x13, 0, 0, 0], to + k);
    if (k < r.keep) data.set([0x01, 0], to + k);
    to += r.keep;
    from = r.at + r.keep + r.count;
  }
  data.set(src.subarray(from), to);
}

/**
 * S + A - P of the auipc a PCREL_LO12 points at (its symbol labels the auipc, whose PCREL_HI20
 * (or CALL) relocation gives the target).
 */
function pcrelLo(p: Placed, rel: Reloc, addrIn: (p: Placed, off: number) => number,
  symAddr: (obj: ObjectFile, i: number, a: number, sec?: ObjSection, offset?: number) => number): number {
  const label = p.obj.symbols[rel.sym], where = `${p.sec.name}+${hex(rel.offset)}`;
  if (label.shndx !== p.sec.index) fail('bad-file', `${where}: the PCREL_LO12 label ${label.name} is not in the same section as its auipc`, p.obj.name);
  const hi = p.sec.relocs.find((r) => r.offset === label.value && r.type === R.PCREL_HI20);
  if (!hi) fail('bad-file', `${where}: no R_RISCV_PCREL_HI20 at ${label.name || hex(label.value)} for this PCREL_LO12`, p.obj.name);
  return symAddr(p.obj, hi.sym, hi.addend, p.sec, hi.offset) - addrIn(p, hi.offset);
}
