// The program's line table (pc -> file:line) read from its linked .debug_line (DWARF 4 or 5, as
// clang's -gline-tables-only writes it) and merged with the line rows our assembler records, as
// plain data, and the look-ups traps and views use.
import type { ProgramSymbol } from './link';
import { elfSections } from '../elf';

/** One row: from `addr` on (up to the next row), the code is `files[file]`:`line`; file -1 ends a sequence. */
export interface LineRow { addr: number; file: number; line: number }

export interface LineTable { files: string[]; rows: LineRow[] }

const FORM = { block: 0x09, data1: 0x0b, data2: 0x05, data4: 0x06, data8: 0x07, data16: 0x1e, string: 0x08, strp: 0x0e, udata: 0x0f, line_strp: 0x1f } as const;
const LNCT = { path: 1, directory_index: 2 } as const;

/** Parses every unit of a relocated .debug_line; strings come from .debug_line_str / .debug_str. */
export function lineTableOf(line: Uint8Array, lineStr?: Uint8Array, str?: Uint8Array): LineTable {
  const dv = new DataView(line.buffer, line.byteOffset, line.byteLength);
  const files: string[] = [];
  const fileIds = new Map<string, number>();
  const sequences: LineRow[][] = [];
  let pos = 0;
  const u8 = () => line[pos++];
  const u16 = () => { const v = dv.getUint16(pos, true); pos += 2; return v; };
  const u32 = () => { const v = dv.getUint32(pos, true); pos += 4; return v; };
  const uleb = () => {
    let v = 0, shift = 0, b: number;
    do { b = line[pos++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    return v;
  };
  const sleb = () => {
    let v = 0, shift = 0, b: number;
    do { b = line[pos++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    return b & 0x40 ? v - 2 ** shift : v;
  };
  const cstrAt = (table: Uint8Array | undefined, at: number) => {
    if (!table) return '';
    let end = at;
    while (end < table.length && table[end]) end++;
    return DECODER.decode(table.subarray(at, end));
  };
  const cstr = () => {
    const s = cstrAt(line, pos);
    pos += new TextEncoder().encode(s).length + 1;
    return s;
  };
  /** One attribute value of a DWARF 5 directory / file entry. */
  const value = (form: number): string | number => {
    switch (form) {
      case FORM.string: return cstr();
      case FORM.line_strp: return cstrAt(lineStr, u32());
      case FORM.strp: return cstrAt(str, u32());
      case FORM.udata: return uleb();
      case FORM.data1: return u8();
      case FORM.data2: return u16();
      case FORM.data4: return u32();
      case FORM.data8: pos += 8; return 0;
      case FORM.data16: pos += 16; return 0;
      case FORM.block: pos += uleb(); return 0;
      default: throw new Error(`.debug_line: unsupported form 0x${form.toString(16)}`);
    }
  };
  const entries = () => {
    const formats: [number, number][] = [];
    for (let n = u8(); n > 0; n--) formats.push([uleb(), uleb()]);
    const out: { path: string; dir: number }[] = [];
    for (let n = uleb(); n > 0; n--) {
      const e = { path: '', dir: 0 };
      for (const [kind, form] of formats) {
        const v = value(form);
        if (kind === LNCT.path) e.path = String(v);
        if (kind === LNCT.directory_index) e.dir = Number(v);
      }
      out.push(e);
    }
    return out;
  };
  const join = (dir: string, f: string) => (f.startsWith('/') || !dir ? f : `${dir.replace(/\/$/, '')}/${f}`);

  while (pos + 4 <= line.length) {
    const unitLength = u32();
    const end = pos + unitLength;
    const version = u16();
    if (version >= 5) pos += 2; // address_size, segment_selector_size
    const headerLength = u32();
    const program = pos + headerLength;
    const minInst = u8();
    if (version >= 4) u8(); // maximum_operations_per_instruction
    const defaultStmt = u8();
    void defaultStmt;
    const lineBase = (u8() << 24) >> 24;
    const lineRange = u8();
    const opcodeBase = u8();
    const opLengths = [0];
    for (let i = 1; i < opcodeBase; i++) opLengths.push(u8());
    let unitFiles: string[];
    if (version >= 5) {
      const dirs = entries().map((d) => d.path);
      unitFiles = entries().map((f) => join(dirs[f.dir] ?? '', f.path));
    } else {
      const dirs = [''];
      for (let d = cstr(); d; d = cstr()) dirs.push(d);
      unitFiles = [''];
      for (let f = cstr(); f; f = cstr()) { const dir = uleb(); uleb(); uleb(); unitFiles.push(join(dirs[dir] ?? '', f)); }
    }
    const ids = unitFiles.map((f) => {
      let id = fileIds.get(f);
      if (id === undefined) { id = files.length; files.push(f); fileIds.set(f, id); }
      return id;
    });
    pos = program;
    let addr = 0, file = 1, ln = 1;
    let seq: LineRow[] = [];
    const emit = () => seq.push({ addr, file: ids[file] ?? -1, line: ln });
    while (pos < end) {
      const op = u8();
      if (op >= opcodeBase) {
        const adj = op - opcodeBase;
        addr += Math.floor(adj / lineRange) * minInst;
        ln += lineBase + (adj % lineRange);
        emit();
      } else if (op === 0) {
        const len = uleb(), next = pos + len, sub = u8();
        if (sub === 1) {
          seq.push({ addr, file: -1, line: 0 });
          // A sequence at 0 describes code the linker collected (its addresses were tombstoned).
          if (seq.length > 1 && seq[0].addr !== 0) sequences.push(seq);
          seq = [];
          addr = 0; file = 1; ln = 1;
        } else if (sub === 2) addr = u32();
        pos = next;
      } else if (op === 1) emit();
      else if (op === 2) addr += uleb() * minInst;
      else if (op === 3) ln += sleb();
      else if (op === 4) file = uleb();
      else if (op === 5) uleb();
      else if (op === 8) addr += Math.floor((255 - opcodeBase) / lineRange) * minInst;
      else if (op === 9) addr += u16();
      else if (op === 12) uleb();
      else if (op === 6 || op === 7 || op === 10 || op === 11) { /* flags: not needed for pc -> line */ }
      else for (let i = 0; i < opLengths[op]; i++) uleb();
    }
    pos = end;
  }
  sequences.sort((a, b) => a[0].addr - b[0].addr);
  return { files, rows: sequences.flat() };
}

/**
 * The table with more sequences added (each: rows ascending, the last one's file -1 ending it;
 * file numbers index the sequence's own `files`); sequences stay sorted by start address.
 */
export function withSequences(table: LineTable, extra: readonly { files: readonly string[]; rows: readonly LineRow[] }[]): LineTable {
  if (!extra.length) return table;
  const files = [...table.files];
  const ids = new Map(files.map((f, i) => [f, i]));
  const idOf = (f: string) => {
    let id = ids.get(f);
    if (id === undefined) { id = files.length; files.push(f); ids.set(f, id); }
    return id;
  };
  const sequences: LineRow[][] = [];
  let seq: LineRow[] = [];
  for (const r of table.rows) {
    seq.push(r);
    if (r.file < 0) { sequences.push(seq); seq = []; }
  }
  if (seq.length) sequences.push(seq);
  for (const e of extra) {
    const map = e.files.map(idOf);
    sequences.push(e.rows.map((r) => ({ addr: r.addr, file: r.file < 0 ? -1 : map[r.file], line: r.line })));
  }
  sequences.sort((a, b) => a[0].addr - b[0].addr);
  return { files, rows: sequences.flat() };
}

/** The row covering `pc`, or undefined (outside every sequence, or line 0). */
export function lineAt(table: LineTable, pc: number): { file: string; line: number } | undefined {
  const rows = table.rows;
  let lo = 0, hi = rows.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].addr <= pc) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  const r = rows[found];
  if (!r || r.file < 0 || r.line === 0) return undefined;
  return { file: table.files[r.file], line: r.line };
}

/** The function holding `pc` (symbols sorted by address, as the linker returns them). */
export function functionAt(symbols: ProgramSymbol[], pc: number): ProgramSymbol | undefined {
  let best: ProgramSymbol | undefined;
  for (const s of symbols) {
    if (s.addr > pc) break;
    if (s.kind === 'func' && pc < s.addr + s.size) best = s;
  }
  return best;
}

/** What a trap names: the function and `file:line` (the file's name without its folder), like llvm-addr2line -f. */
export function sourceAt(p: { symbols: ProgramSymbol[]; lines: LineTable }, pc: number): { fn?: string; line?: string } {
  const l = lineAt(p.lines, pc);
  return { fn: functionAt(p.symbols, pc)?.name, line: l ? `${l.file.replace(/^.*[\\/]/, '')}:${l.line}` : undefined };
}

const DECODER = new TextDecoder();

/** The line table of a linked ELF's .debug_line (clang -g / -gline-tables-only, ld.lld); empty without one. */
export function elfLineTable(elf: Uint8Array): LineTable {
  const s = elfSections(elf);
  const line = s.get('.debug_line');
  return line ? lineTableOf(line, s.get('.debug_line_str'), s.get('.debug_str')) : { files: [], rows: [] };
}
