// What the code pane needs to show a function's assembly beside its C: the program's code bytes,
// its functions and its line table. Plain data, taken from the link (the builtin toolchain's).
import { parseElf } from '../elf';
import type { LinkResult, ProgramSymbol } from '../link/link';
import type { LineTable } from '../link/lines';

export interface ProgramView {
  /** The code: `bytes` from address `addr` (the .text section). */
  addr: number;
  bytes: Uint8Array;
  /** The functions, by address. */
  functions: ProgramSymbol[];
  lines: LineTable;
}

export function programView(link: LinkResult): ProgramView | undefined {
  const text = link.sections.find((s) => s.name === '.text');
  if (!text) return undefined;
  const seg = parseElf(link.elf).segments.find((s) => s.vaddr <= text.addr && text.addr + text.size <= s.vaddr + s.data.length);
  if (!seg) return undefined;
  const bytes = seg.data.slice(text.addr - seg.vaddr, text.addr - seg.vaddr + text.size);
  return { addr: text.addr, bytes, functions: link.symbols.filter((s) => s.kind === 'func' && s.size > 0), lines: link.lines };
}
